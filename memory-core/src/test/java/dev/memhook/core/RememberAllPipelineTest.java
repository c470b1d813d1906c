package dev.memhook.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.EmbeddingException;
import dev.memhook.api.ImportProgress;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryException;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryStoreException;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import dev.memhook.lucene.LuceneMemoryStore;
import dev.memhook.testkit.ForwardingMemoryStore;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@code rememberAll} overlaps embedding with storing: the next batch is embedded while one is
 * written, on another thread, and still every batch reported is stored and nothing after a failure
 * is; an interrupted import stops after the write in flight.
 */
class RememberAllPipelineTest {
  private static final Scope SCOPE = Scope.of("acme", "pipeline");
  private static final int BATCH = 256;

  private static List<MemoryDraft> drafts(int n) {
    List<MemoryDraft> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(MemoryDraft.of(SCOPE, "pipelined note " + i + " about the release train"));
    }
    return out;
  }

  /** A store whose batch writes a test can hold, fail or watch. */
  private static class WatchedStore extends ForwardingMemoryStore {
    final List<Integer> written = Collections.synchronizedList(new ArrayList<>());
    final List<Thread> writers = Collections.synchronizedList(new ArrayList<>());

    WatchedStore() {
      super(LuceneMemoryStore.inMemory());
    }

    /** Called before batch {@code number} (0-based) is written; may block or throw. */
    void beforeWrite(int number) {}

    @Override
    public void putAll(Map<Memory, Embedding> batch, Map<MemoryId, List<Embedding>> passages) {
      if (batch.size() > 1) { // a batch of the import, not the service's warm-up
        int number = written.size();
        writers.add(Thread.currentThread());
        beforeWrite(number);
        written.add(batch.size());
      }
      super.putAll(batch, passages);
    }
  }

  /** The hashing embedder, counting its batch calls and able to wait or fail at one. */
  private static class WatchedEmbedder implements Embedder {
    final Embedder delegate = HashingEmbedder.create();
    final AtomicInteger batches = new AtomicInteger();

    /** Called at batch call {@code number} (0-based), before it embeds. */
    void atBatch(int number) {}

    @Override
    public Embedding embed(String text) {
      return delegate.embed(text);
    }

    @Override
    public List<Embedding> embedDocuments(List<String> texts) {
      if (texts.size() > 1) {
        atBatch(batches.getAndIncrement());
      }
      return delegate.embedDocuments(texts);
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

  private static MemoryService open(WatchedStore store, Embedder embedder) {
    return Memhook.builder().store(store).embedder(embedder).build();
  }

  private static long count(MemoryService memory) {
    return memory.maintenance().count(SCOPE);
  }

  @Test
  void theNextBatchIsEmbedded_whileTheBatchBeforeIsWritten_onAnotherThread() throws Exception {
    CountDownLatch secondEmbedding = new CountDownLatch(1);
    AtomicReference<Boolean> overlapped = new AtomicReference<>();
    WatchedStore store =
        new WatchedStore() {
          @Override
          void beforeWrite(int number) {
            if (number == 0) {
              try { // the first write waits until the second batch is being embedded
                overlapped.set(secondEmbedding.await(10, TimeUnit.SECONDS));
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }
          }
        };
    WatchedEmbedder embedder =
        new WatchedEmbedder() {
          @Override
          void atBatch(int number) {
            if (number == 1) {
              secondEmbedding.countDown();
            }
          }
        };
    List<Thread> reportedOn = new ArrayList<>();
    List<Integer> reported = new ArrayList<>();
    try (MemoryService memory = open(store, embedder)) {
      List<Memory> stored =
          memory
              .maintenance()
              .rememberAll(
                  drafts(600),
                  p -> {
                    reportedOn.add(Thread.currentThread());
                    reported.add(p.stored());
                  });
      assertEquals(Boolean.TRUE, overlapped.get(), "batch 2 was embedded during write 1");
      assertEquals(List.of(256, 256, 88), store.written);
      assertEquals(List.of(256, 512, 600), reported);
      reportedOn.forEach(t -> assertEquals(Thread.currentThread(), t, "progress on the caller"));
      store.writers.forEach(t -> assertNotEquals(Thread.currentThread(), t, "writes elsewhere"));
      for (int i = 0; i < stored.size(); i++) {
        assertEquals("pipelined note " + i + " about the release train", stored.get(i).content());
        assertEquals(stored.get(i), memory.get(stored.get(i).id()).orElseThrow());
      }
    }
  }

  @Test
  void aWriteThatFails_isNamed_andNoLaterBatchIsWritten_thoughItWasEmbedded() {
    WatchedStore store =
        new WatchedStore() {
          @Override
          void beforeWrite(int number) {
            if (number == 1) {
              throw new MemoryStoreException("disk full");
            }
          }
        };
    WatchedEmbedder embedder = new WatchedEmbedder();
    List<Integer> reported = new ArrayList<>();
    try (MemoryService memory = open(store, embedder)) {
      MemoryStoreException e =
          assertThrows(
              MemoryStoreException.class,
              () -> memory.maintenance().rememberAll(drafts(900), p -> reported.add(p.stored())));
      assertTrue(
          e.getMessage().startsWith("the import's batch of memories 256 to 511 (of 900): "),
          e.getMessage());
      assertTrue(e.getMessage().endsWith("disk full"), e.getMessage());
      assertEquals(List.of(256), reported);
      assertEquals(List.of(256), store.written, "the third batch is never written");
      assertEquals(256, count(memory));
    }
  }

  @Test
  void anEmbeddingThatFails_reportsTheBatchAlreadyStored_beforeItIsThrown() {
    WatchedStore store = new WatchedStore();
    WatchedEmbedder embedder =
        new WatchedEmbedder() {
          @Override
          void atBatch(int number) {
            if (number == 2) {
              throw new EmbeddingException("model crashed");
            }
          }
        };
    List<Integer> reported = new ArrayList<>();
    try (MemoryService memory = open(store, embedder)) {
      EmbeddingException e =
          assertThrows(
              EmbeddingException.class,
              () -> memory.maintenance().rememberAll(drafts(900), p -> reported.add(p.stored())));
      assertTrue(
          e.getMessage().startsWith("the import's batch of memories 512 to 767 (of 900): "),
          e.getMessage());
      assertEquals(List.of(256, 512), reported, "what was stored is reported first");
      assertEquals(512, count(memory));
    }
  }

  @Test
  void anInterruptedImport_finishesTheWriteInFlight_andStoresNothingAfterIt() {
    Thread caller = Thread.currentThread();
    WatchedStore store =
        new WatchedStore() {
          @Override
          void beforeWrite(int number) {
            if (number == 0) {
              caller.interrupt(); // while the first batch is being written
            }
          }
        };
    List<ImportProgress> reported = new ArrayList<>();
    try (MemoryService memory = open(store, new WatchedEmbedder())) {
      MemoryException e;
      try {
        e =
            assertThrows(
                MemoryException.class,
                () -> memory.maintenance().rememberAll(drafts(900), reported::add));
        assertTrue(Thread.currentThread().isInterrupted(), "the interrupt is kept");
      } finally {
        Thread.interrupted();
      }
      assertInstanceOf(MemoryException.class, e);
      assertEquals(
          "interrupted: the import stopped after 256 of 900 memories, which are stored; the rest"
              + " are not",
          e.getMessage());
      assertEquals(List.of(256), reported.stream().map(ImportProgress::stored).toList());
      assertEquals(List.of(256), store.written);
      assertEquals(256, count(memory));
    }
  }

  @Test
  void aSingleBatch_isEmbeddedOnceAndWrittenOnce() {
    WatchedStore store = new WatchedStore();
    WatchedEmbedder embedder = new WatchedEmbedder();
    try (MemoryService memory = open(store, embedder)) {
      List<Integer> reported = new ArrayList<>();
      memory.maintenance().rememberAll(drafts(BATCH), p -> reported.add(p.stored()));
      assertEquals(List.of(BATCH), reported);
      assertEquals(List.of(BATCH), store.written);
      assertEquals(1, embedder.batches.get());
    }
  }
}
