package dev.memhook.core.internal.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.EmbeddingException;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryType;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecallResult;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.RecallOptions;
import dev.memhook.core.store.InMemoryMemoryStore;
import dev.memhook.testkit.ForwardingMemoryStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The query embedding runs beside the text search, and never waits on a task that did not start. */
class RecallEngineEmbeddingTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private final HashingEmbedder hashing = HashingEmbedder.create();
  private final AtomicInteger embedCalls = new AtomicInteger();
  private final AtomicReference<Thread> embeddedOn = new AtomicReference<>();
  private final Embedder counting = new Embedder() {
    @Override
    public Embedding embed(String text) {
      embedCalls.incrementAndGet();
      embeddedOn.set(Thread.currentThread());
      return hashing.embed(text);
    }

    @Override
    public int dimension() {
      return hashing.dimension();
    }

    @Override
    public String modelId() {
      return hashing.modelId();
    }
  };
  private InMemoryMemoryStore store;
  private Memory kafka;

  @BeforeEach
  void setUp() {
    store = new InMemoryMemoryStore();
    store.attach(hashing.space());
    kafka = memory("kafka", "The kafka consumer lag alarm fires after five minutes.");
    store.put(kafka, hashing.embed(kafka.content()));
    Memory other = memory("other", "Office plants are watered on Fridays.");
    store.put(other, hashing.embed(other.content()));
  }

  @AfterEach
  void tearDown() {
    store.close();
  }

  @Test
  void anExecutorThatNeverRunsTasks_doesNotStallRecall_theCallerEmbeds() {
    List<Runnable> parked = new ArrayList<>();
    RecallEngine engine = new RecallEngine(store, counting, RecallOptions.defaults(), parked::add);
    RecallResult result = engine.recall(new RecallQuery(Scope.DEFAULT, "kafka consumer lag", 5));
    assertEquals(List.of(kafka.id()), result.ids(), result.explain());
    assertEquals(1, parked.size(), "the embedding was handed to the executor");
    assertSame(Thread.currentThread(), embeddedOn.get(), "the caller ran it when no thread had");
    parked.get(0).run(); // the pool's late run is a no-op
    assertEquals(1, embedCalls.get());
  }

  @Test
  void aRejectingExecutor_stillRecalls() {
    RecallEngine engine = new RecallEngine(store, counting, RecallOptions.defaults(), r -> {
      throw new RejectedExecutionException("shut down");
    });
    assertEquals(List.of(kafka.id()), engine.recall(new RecallQuery(Scope.DEFAULT, "kafka consumer lag", 5)).ids());
    assertEquals(1, embedCalls.get());
  }

  @Test
  void aPoolThread_embedsWhileTheCallerSearchesText() throws Exception {
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      CountDownLatch textSearched = new CountDownLatch(1);
      CountDownLatch embedding = new CountDownLatch(1);
      Embedder waitsForText = new Embedder() {
        @Override
        public Embedding embed(String text) {
          embedding.countDown();
          try {
            assertTrue(textSearched.await(10, TimeUnit.SECONDS), "text search ran while embedding");
          } catch (InterruptedException e) {
            throw new IllegalStateException(e);
          }
          embeddedOn.set(Thread.currentThread());
          return hashing.embed(text);
        }

        @Override
        public int dimension() {
          return hashing.dimension();
        }

        @Override
        public String modelId() {
          return hashing.modelId();
        }
      };
      MemoryStore signalling = new ForwardingMemoryStore(store) {
        @Override
        public List<StoreHit> searchText(Scope scope, String query, int k) {
          try {
            assertTrue(embedding.await(10, TimeUnit.SECONDS), "the pool started embedding");
          } catch (InterruptedException e) {
            throw new IllegalStateException(e);
          }
          List<StoreHit> hits = super.searchText(scope, query, k);
          textSearched.countDown();
          return hits;
        }
      };
      RecallEngine engine = new RecallEngine(signalling, waitsForText, RecallOptions.defaults(), pool);
      RecallResult result = engine.recall(new RecallQuery(Scope.DEFAULT, "kafka consumer lag", 5));
      assertEquals(List.of(kafka.id()), result.ids(), result.explain());
      assertTrue(embeddedOn.get() != Thread.currentThread(), "embedded on the pool");
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void anEmbeddingFailure_reachesTheCallerAsItself() {
    EmbeddingException failure = new EmbeddingException("model gone");
    Embedder failing = new Embedder() {
      @Override
      public Embedding embed(String text) {
        throw failure;
      }

      @Override
      public int dimension() {
        return hashing.dimension();
      }

      @Override
      public String modelId() {
        return hashing.modelId();
      }
    };
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      RecallEngine engine = new RecallEngine(store, failing, RecallOptions.defaults(), pool);
      assertSame(failure, assertThrows(EmbeddingException.class,
          () -> engine.recall(new RecallQuery(Scope.DEFAULT, "kafka consumer lag", 5))));
    } finally {
      pool.shutdownNow();
    }
  }

  private static Memory memory(String id, String content) {
    return Memory.builder().id(MemoryId.of(id)).scope(Scope.DEFAULT).type(MemoryType.FACT).content(content)
        .occurredAt(T0).createdAt(T0).build();
  }
}
