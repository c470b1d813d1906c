package dev.memhook.core.capture;

import static dev.memhook.core.capture.CaptureFixtures.flush;
import static dev.memhook.core.capture.CaptureFixtures.postTool;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.memhook.api.EmbeddingException;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.ObserveResult;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A service opened with capture off on a directory whose journal holds captured events that were
 * never stored keeps them for the next service that captures: its own writes go through the same
 * journal, and its checkpoint must not pass records it does not read.
 */
class CaptureOffKeepsJournalTest {

  @TempDir Path dir;

  @Test
  void aServiceWithoutCapture_leavesUnstoredEventsInTheJournal_forTheNextCapturingService() {
    try (MemoryService memory =
        Memhook.builder().directory(dir).embedder(new DocumentsFail()).build()) {
      assertEquals(
          ObserveResult.ACCEPTED,
          memory.capture().observe(postTool("s1", 1, "Bash", "mvn -q verify", "BUILD SUCCESS")));
      flush(memory);
      assertEquals(1, memory.capture().stats().failed(), memory.capture().stats().toString());
    }

    try (MemoryService memory =
        Memhook.builder().directory(dir).embedder(HashingEmbedder.create()).noCapture().build()) {
      memory.remember(MemoryDraft.of(Scope.DEFAULT, "The release branch is cut on Thursdays."));
    }

    try (MemoryService memory =
        Memhook.builder().directory(dir).embedder(HashingEmbedder.create()).build()) {
      flush(memory);
      assertEquals(1, memory.capture().stats().replayed(), memory.capture().stats().toString());
      List<Memory> all = CaptureFixtures.all(memory);
      assertEquals(
          1,
          all.stream().filter(m -> m.content().contains("mvn -q verify")).count(),
          "the tool run the first service could not store: " + all);
      assertEquals(
          1,
          all.stream().filter(m -> m.content().contains("cut on Thursdays")).count(),
          "the write of the service without capture, once: " + all);
    }
  }

  /** The hashing embedder, except that it cannot embed a stored text. */
  private static final class DocumentsFail implements Embedder {
    private final HashingEmbedder delegate = HashingEmbedder.create();

    @Override
    public Embedding embed(String text) {
      throw new EmbeddingException("injected: no document vectors");
    }

    @Override
    public List<Embedding> embedDocuments(List<String> texts) {
      throw new EmbeddingException("injected: no document vectors");
    }

    @Override
    public Embedding embedQuery(String text) {
      return delegate.embedQuery(text);
    }

    @Override
    public int dimension() {
      return delegate.dimension();
    }

    @Override
    public String modelId() {
      return delegate.modelId();
    }
  }
}
