package dev.memhook.core.internal;

import static com.google.common.base.Preconditions.checkArgument;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.core.internal.capture.QuotedTurns;
import dev.memhook.core.internal.capture.ServiceWrites;
import dev.memhook.core.internal.index.EmbeddingText;
import dev.memhook.core.internal.observe.MemoryIntake;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The service's write path: a draft goes through {@link MemoryIntake} (validate, sanitize,
 * complete), is embedded as a document and put in the store; a forget erases a memory and every
 * version it supersedes in one store write. Used by the host's calls and by capture's consolidation
 * alike, so both are sanitized and versioned the same way.
 *
 * <p>Thread-safe: an update and a forget run one at a time (one writer lock), so two updates of one
 * version cannot both succeed and a forget never races the version it follows back.
 */
final class MemoryWrites implements ServiceWrites {

  /** Versions one forget follows back at most: a guard against a cycle in a damaged store. */
  private static final int MAX_VERSIONS_FORGOTTEN = 10_000;

  private final MemoryStore store;
  private final Embedder embedder;
  private final MemoryIntake intake;
  private final Object writeLock = new Object();

  MemoryWrites(MemoryStore store, Embedder embedder, MemoryIntake intake) {
    this.store = store;
    this.embedder = embedder;
    this.intake = intake;
  }

  @Override
  public Memory remember(MemoryDraft draft) {
    Memory memory = intake.newMemory(draft);
    // embed is the document side of an asymmetric embedder; recall queries use embedQuery
    Embedding embedding = embedder.embed(EmbeddingText.of(memory));
    store.put(memory, embedding);
    return memory;
  }

  @Override
  public Memory update(MemoryId id, MemoryDraft draft) {
    synchronized (writeLock) {
      Memory previous =
          store.get(id).orElseThrow(() -> new IllegalArgumentException("no memory with id " + id));
      checkArgument(previous.latest(), "%s is not the latest version; update the latest one", id);
      Memory next = intake.nextVersion(previous, draft);
      Embedding embedding = embedder.embed(EmbeddingText.of(next));
      store.putNewVersion(next, embedding);
      return next;
    }
  }

  /**
   * Erases {@code id} and every older version it supersedes, and takes the memory's text out of the
   * captured turns that quote it as context.
   *
   * @return empty when nothing was forgotten (no such memory); otherwise the capture sessions of
   *     the captured turns forgotten, possibly none
   */
  Optional<Set<String>> forget(MemoryId id, MemoryIntake.ForgetRequest request) {
    Set<String> capturedSessions = new HashSet<>();
    List<Memory> captured = new ArrayList<>();
    synchronized (writeLock) {
      List<ForgetRecord> versions = new ArrayList<>();
      MemoryId next = id;
      while (next != null && versions.size() < MAX_VERSIONS_FORGOTTEN) {
        Optional<Memory> memory = store.get(next);
        if (memory.isEmpty()) {
          break;
        }
        versions.add(request.recordFor(memory.get()));
        if (QuotedTurns.captured(memory.get()) && memory.get().sourceSession() != null) {
          capturedSessions.add(memory.get().sourceSession());
          captured.add(memory.get());
        }
        next = memory.get().supersedes();
      }
      // the turn after a captured one quotes it as context: put it back without, so the store's
      // erase (which rewrites every segment holding a replaced or deleted document) takes both
      List<MemoryId> forgottenIds = versions.stream().map(ForgetRecord::id).toList();
      for (Memory turn : captured) {
        for (Memory cleared : QuotedTurns.quoting(store, turn, forgottenIds)) {
          store.put(cleared, embedder.embed(EmbeddingText.of(cleared)));
        }
      }
      boolean forgot = !versions.isEmpty() && store.deleteAll(versions) > 0;
      return forgot ? Optional.of(capturedSessions) : Optional.empty();
    }
  }
}
