package dev.memhook.core.internal.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.MemoryId;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.Scope;
import dev.memhook.api.Signal;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.api.spi.TextHits;
import dev.memhook.testkit.ForwardingMemoryStore;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The direct signals: which searches run, at what depth, and what they give fusion. */
class SignalSearchTest {

  private final ObservedStore store = new ObservedStore();
  private final List<String> embedded = new ArrayList<>();

  /** The store's embedder, recording each text it embeds. */
  private final Embedder recording =
      new Embedder() {
        @Override
        public Embedding embed(String text) {
          embedded.add(text);
          return store.embedder.embed(text);
        }

        @Override
        public int dimension() {
          return store.embedder.dimension();
        }

        @Override
        public String modelId() {
          return store.embedder.modelId();
        }
      };

  @BeforeEach
  void fill() {
    store.add("jwt", "jwt tokens expire after one hour");
    store.add("pizza", "favourite pizza topping");
  }

  @AfterEach
  void close() {
    store.close();
  }

  private SignalSearch search(RecallOptions options) {
    return new SignalSearch(
        store,
        options,
        new QueryEmbeddings(recording, options.queryCacheSize()),
        new Background(store.embedder), // its sample's embeddings are not the queries'
        Runnable::run);
  }

  private SignalSearch search(MemoryStore over, Executor executor) {
    RecallOptions options = RecallOptions.defaults();
    return new SignalSearch(
        over,
        options,
        new QueryEmbeddings(store.embedder, options.queryCacheSize()),
        new Background(store.embedder),
        executor);
  }

  @Test
  void bothSignals_areSearchedAtTheDepth_withTheirWeights_andTheTextCeiling() {
    RecallOptions options = RecallOptions.builder().weights(1, 0.3, 0.5).build();
    SignalSearch.DirectSignals found = search(options).search(Scope.DEFAULT, "jwt tokens", 7, 0);
    assertEquals(List.of("jwt tokens"), store.textSearches);
    assertEquals(List.of(7), store.textDepths);
    assertEquals(List.of(7), store.vectorDepths);
    assertEquals(Signal.TEXT, found.text().signal());
    assertEquals(1.0, found.text().weight());
    assertEquals("jwt", found.text().hits().get(0).id().value());
    assertEquals(Signal.VECTOR, found.vector().signal());
    assertEquals(0.3, found.vector().weight());
    assertEquals("jwt", found.vector().hits().get(0).id().value());
    assertEquals(store.textResults.get(0).ceiling(), found.textCeiling());
    assertTrue(found.textCeiling() > 0);
  }

  @Test
  void theTextSignalOfWeightZero_isNotSearched_andHasNoCeiling() {
    SignalSearch.DirectSignals found =
        search(RecallOptions.builder().weights(0, 1, 0).build())
            .search(Scope.DEFAULT, "jwt tokens", 7, 0);
    assertTrue(store.textSearches.isEmpty());
    assertTrue(found.text().hits().isEmpty());
    assertEquals(0, found.textCeiling());
    assertEquals(List.of(7), store.vectorDepths);
  }

  @Test
  void theVectorSignalOfWeightZero_isNeitherSearchedNorEmbedded() {
    SignalSearch.DirectSignals found =
        search(RecallOptions.builder().weights(1, 0, 0).build())
            .search(Scope.DEFAULT, "jwt tokens", 7, 0);
    assertTrue(store.vectorDepths.isEmpty());
    assertTrue(embedded.isEmpty(), embedded.toString());
    assertTrue(found.vector().hits().isEmpty());
    assertEquals(List.of("jwt tokens"), store.textSearches);
  }

  @Test
  void aRepeatedQuery_isEmbeddedOnce() {
    SignalSearch search = search(RecallOptions.defaults());
    search.search(Scope.DEFAULT, "jwt tokens", 5, 0);
    search.search(Scope.DEFAULT, "jwt tokens", 5, 0);
    search.search(Scope.DEFAULT, "pizza", 5, 0);
    assertEquals(List.of("jwt tokens", "pizza"), embedded);
  }

  @Test
  void bothSignals_runSideBySide_theVectorSideOnAThreadOfItsOwn() throws Exception {
    CountDownLatch vectorStarted = new CountDownLatch(1);
    AtomicReference<String> vectorThread = new AtomicReference<>();
    MemoryStore overlapping =
        new ForwardingMemoryStore(store) {
          @Override
          public TextHits searchText(Scope scope, String query, int k) {
            try {
              // only a vector search on another thread can open this while the text waits
              assertTrue(vectorStarted.await(30, TimeUnit.SECONDS), "no vector search meanwhile");
            } catch (InterruptedException e) {
              throw new AssertionError(e);
            }
            return super.searchText(scope, query, k);
          }

          @Override
          public List<StoreHit> searchVector(Scope scope, Embedding query, int k) {
            vectorThread.set(Thread.currentThread().getName());
            vectorStarted.countDown();
            return super.searchVector(scope, query, k);
          }
        };
    try (VectorSideThreads threads = new VectorSideThreads(1)) {
      SignalSearch.DirectSignals found =
          search(overlapping, threads).search(Scope.DEFAULT, "jwt tokens", 5, 0);

      assertEquals("jwt", found.text().hits().get(0).id().value());
      assertEquals("jwt", found.vector().hits().get(0).id().value());
      assertTrue(vectorThread.get().startsWith("memhook-recall-vector-"), vectorThread.get());
    }
  }

  @Test
  void whileTheVectorSideRuns_theCallerReadsTheFirstTextHitsRecords_andHandsThemOn()
      throws Exception {
    store.add("jwt-2", "jwt tokens are signed with the rotating key");
    store.add("jwt-3", "refresh tokens outlive jwt access tokens");
    VectorsAwaitingARead waitingVectors = new VectorsAwaitingARead(store);
    try (VectorSideThreads threads = new VectorSideThreads(1)) {
      SignalSearch.DirectSignals found =
          search(waitingVectors, threads).search(Scope.DEFAULT, "jwt tokens", 5, 2);

      List<MemoryId> firstTwo =
          found.text().hits().subList(0, 2).stream().map(StoreHit::id).toList();
      assertEquals(3, found.text().hits().size());
      assertEquals(List.of(firstTwo), store.reads);
      assertEquals(Set.copyOf(firstTwo), found.read().keySet());
      firstTwo.forEach(id -> assertEquals(id, found.read().get(id).id()));
      assertEquals(List.of(Thread.currentThread().getName()), waitingVectors.readers);
    }
  }

  @Test
  void aVectorSideDoneBeforeTheText_leavesNothingToReadMeanwhile() {
    Executor runsAtOnce = Runnable::run; // the vector side is done before the text search starts
    SignalSearch.DirectSignals found =
        search(store, runsAtOnce).search(Scope.DEFAULT, "jwt tokens", 5, 12);

    assertTrue(found.read().isEmpty());
    assertTrue(store.reads.isEmpty(), store.reads.toString());
  }

  @Test
  void theVectorSide_measuresTheQuerysClosenessToUnrelatedText_unlessFloorsAreAbsolute() {
    Background background = new Background(store.embedder);
    SignalSearch.DirectSignals found =
        search(RecallOptions.defaults()).search(Scope.DEFAULT, "jwt tokens", 5, 0);
    Background.Closeness expected = background.closeness(store.embedder.embed("jwt tokens"));
    assertEquals(expected, found.closeness());

    SignalSearch.DirectSignals absolute =
        search(RecallOptions.builder().cosineBase(RecallOptions.CosineBase.ABSOLUTE).build())
            .search(Scope.DEFAULT, "jwt tokens", 5, 0);
    assertNull(absolute.closeness());
    SignalSearch.DirectSignals textOnly =
        search(RecallOptions.builder().weights(1, 0, 0).build())
            .search(Scope.DEFAULT, "jwt tokens", 5, 0);
    assertNull(textOnly.closeness());
  }

  @Test
  void anExecutorThatRefuses_leavesBothSearchesToTheCallingThread_withNoReadBetween() {
    List<String> threads = Collections.synchronizedList(new ArrayList<>());
    MemoryStore recordingThreads = threadRecording(threads);
    Executor refusing =
        task -> {
          throw new RejectedExecutionException("every thread busy");
        };

    SignalSearch.DirectSignals found =
        search(recordingThreads, refusing).search(Scope.DEFAULT, "jwt tokens", 5, 12);

    String caller = Thread.currentThread().getName();
    assertEquals(List.of(caller, caller), threads);
    assertTrue(store.reads.isEmpty(), "nothing runs beside the text search: " + store.reads);
    assertTrue(found.read().isEmpty());
    assertEquals("jwt", found.text().hits().get(0).id().value());
    assertEquals("jwt", found.vector().hits().get(0).id().value());
  }

  @Test
  void aSingleSignal_offersNothingToTheExecutor() {
    AtomicInteger offered = new AtomicInteger();
    Executor counting =
        task -> {
          offered.incrementAndGet();
          task.run();
        };
    for (RecallOptions options :
        List.of(
            RecallOptions.builder().weights(1, 0, 0).build(),
            RecallOptions.builder().weights(0, 1, 0).build())) {
      new SignalSearch(
              store,
              options,
              new QueryEmbeddings(store.embedder, options.queryCacheSize()),
              new Background(store.embedder),
              counting)
          .search(Scope.DEFAULT, "jwt tokens", 5, 0);
    }
    assertEquals(0, offered.get());
  }

  @Test
  void aFailedVectorSearch_isRethrownAsItWasThrown() {
    MemoryStore failing =
        new ForwardingMemoryStore(store) {
          @Override
          public List<StoreHit> searchVector(Scope scope, Embedding query, int k) {
            throw new IllegalStateException("the vector index is unreadable");
          }
        };
    try (VectorSideThreads threads = new VectorSideThreads(1)) {
      IllegalStateException e =
          assertThrows(
              IllegalStateException.class,
              () -> search(failing, threads).search(Scope.DEFAULT, "jwt tokens", 5, 0));
      assertEquals("the vector index is unreadable", e.getMessage());
    }
  }

  @Test
  void anInterruptedCaller_getsBothSignals_andKeepsItsInterruptFlag() {
    MemoryStore slowVectors =
        new ForwardingMemoryStore(store) {
          @Override
          public List<StoreHit> searchVector(Scope scope, Embedding query, int k) {
            long until = System.nanoTime() + 100_000_000L;
            while (System.nanoTime() < until) {
              Thread.onSpinWait();
            }
            return super.searchVector(scope, query, k);
          }
        };
    try (VectorSideThreads threads = new VectorSideThreads(1)) {
      Thread.currentThread().interrupt();
      try {
        SignalSearch.DirectSignals found =
            search(slowVectors, threads).search(Scope.DEFAULT, "jwt tokens", 5, 0);

        assertEquals("jwt", found.vector().hits().get(0).id().value());
        assertTrue(Thread.currentThread().isInterrupted());
      } finally {
        Thread.interrupted();
      }
    }
  }

  @Test
  void vectorSideThreads_refuseWhenEveryThreadIsBusy_andAfterClose() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch running = new CountDownLatch(1);
    VectorSideThreads threads = new VectorSideThreads(1);
    try {
      threads.execute(
          () -> {
            running.countDown();
            try {
              release.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          });
      assertTrue(running.await(30, TimeUnit.SECONDS));
      assertThrows(RejectedExecutionException.class, () -> threads.execute(() -> {}));
      assertEquals(1, threads.threadsStarted());
    } finally {
      release.countDown();
      threads.close();
    }
    assertThrows(RejectedExecutionException.class, () -> threads.execute(() -> {}));
  }

  /** The store, recording the thread of each text and vector search. */
  private MemoryStore threadRecording(List<String> threads) {
    return new ForwardingMemoryStore(store) {
      @Override
      public TextHits searchText(Scope scope, String query, int k) {
        threads.add(Thread.currentThread().getName());
        return super.searchText(scope, query, k);
      }

      @Override
      public List<StoreHit> searchVector(Scope scope, Embedding query, int k) {
        threads.add(Thread.currentThread().getName());
        return super.searchVector(scope, query, k);
      }
    };
  }

  @Test
  void aPassageCloserThanItsMemory_liftsTheMemoryInTheListFusionReads_notInTheGatesList() {
    PassageAnswers passages = new PassageAnswers(store, Map.of(MemoryId.of("pizza"), 0.97));

    SignalSearch.DirectSignals found =
        search(passages, Runnable::run).search(Scope.DEFAULT, "jwt tokens", 5, 0);

    assertEquals(List.of("pizza", "jwt"), ids(found.vector().hits()));
    assertEquals(0.97, found.vector().hits().get(0).score());
    assertEquals(List.of("jwt", "pizza"), ids(found.nearest()), "the store's own order");
    assertTrue(found.nearest().get(1).score() < 0.97, "the gate's list keeps the whole cosine");
    assertEquals(1, found.lifted());
    assertEquals(1, passages.asked.size(), "one read for the recall");
  }

  @Test
  void passagesAreAskedForTheVectorHitsThenTheTextHitsNotAmongThem() {
    store.add("lisbon", "Alice moved to Lisbon. She rents a flat by the river.");
    SignalSearch.DirectSignals plain =
        search(store, Runnable::run).search(Scope.DEFAULT, "pizza by the river", 2, 0);
    Set<MemoryId> pool = new LinkedHashSet<>();
    plain.vector().hits().forEach(h -> pool.add(h.id()));
    plain.text().hits().forEach(h -> pool.add(h.id()));
    PassageAnswers passages = new PassageAnswers(store, Map.of());

    search(passages, Runnable::run).search(Scope.DEFAULT, "pizza by the river", 2, 0);

    assertEquals(List.of(List.copyOf(pool)), passages.asked);
    assertTrue(pool.contains(MemoryId.of("lisbon")), "the text found the river: " + pool);
  }

  @Test
  void aStoreWithoutPassageVectors_isNotAsked_andFusionReadsTheStoresList() {
    PassageAnswers noCapability =
        PassageAnswers.undeclared(store, Map.of(MemoryId.of("pizza"), 0.97));

    SignalSearch.DirectSignals found =
        search(noCapability, Runnable::run).search(Scope.DEFAULT, "jwt tokens", 5, 0);

    assertTrue(noCapability.asked.isEmpty(), noCapability.asked.toString());
    assertEquals(found.nearest(), found.vector().hits());
    assertEquals(0, found.lifted());
  }

  @Test
  void aScopeWithNothingFound_isNotAskedForPassages() {
    PassageAnswers passages = new PassageAnswers(store, Map.of());

    SignalSearch.DirectSignals found =
        search(passages, Runnable::run).search(Scope.of("empty"), "jwt tokens", 5, 0);

    assertTrue(found.vector().hits().isEmpty());
    assertTrue(passages.asked.isEmpty(), passages.asked.toString());
  }

  @Test
  void rescored_takesTheBetterCosine_keepsOrderOnTies_addsTextHitsWithPassages_andCutsToDepth() {
    List<StoreHit> vector = List.of(hit("a", 0.80), hit("b", 0.70), hit("c", 0.60), hit("d", 0.50));
    List<StoreHit> text = List.of(hit("t1", 12.0), hit("b", 9.0), hit("t2", 8.0));
    Map<MemoryId, Double> passages =
        Map.of(
            MemoryId.of("c"), 0.90, // lifted above everyone
            MemoryId.of("a"), 0.10, // a lower passage never lowers a memory
            MemoryId.of("t2"), 0.70, // a text hit the vector search missed, tied with b
            MemoryId.of("d"), 0.50); // equal: no change

    assertEquals(
        List.of("c", "a", "b", "t2", "d"), ids(SignalSearch.rescored(vector, text, passages, 9)));
    assertEquals(0.90, SignalSearch.rescored(vector, text, passages, 9).get(0).score());
    assertEquals(List.of("c", "a"), ids(SignalSearch.rescored(vector, text, passages, 2)));
    assertEquals(
        List.of("a", "b", "c", "d"),
        ids(SignalSearch.rescored(vector, text, Map.of(), 9)),
        "t1 has no passage and no cosine: left out");
  }

  private static StoreHit hit(String id, double score) {
    return new StoreHit(MemoryId.of(id), score);
  }

  private static List<String> ids(List<StoreHit> hits) {
    return hits.stream().map(h -> h.id().value()).toList();
  }
}
