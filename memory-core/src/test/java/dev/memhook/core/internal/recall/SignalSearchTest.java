package dev.memhook.core.internal.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.RecallOptions;
import dev.memhook.api.Scope;
import dev.memhook.api.Signal;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import java.util.ArrayList;
import java.util.List;
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
        store, options, new QueryEmbeddings(recording, options.queryCacheSize()));
  }

  @Test
  void bothSignals_areSearchedAtTheDepth_withTheirWeights_andTheTextCeiling() {
    RecallOptions options = RecallOptions.builder().weights(1, 0.3, 0.5).build();
    SignalSearch.DirectSignals found = search(options).search(Scope.DEFAULT, "jwt tokens", 7);
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
            .search(Scope.DEFAULT, "jwt tokens", 7);
    assertTrue(store.textSearches.isEmpty());
    assertTrue(found.text().hits().isEmpty());
    assertEquals(0, found.textCeiling());
    assertEquals(List.of(7), store.vectorDepths);
  }

  @Test
  void theVectorSignalOfWeightZero_isNeitherSearchedNorEmbedded() {
    SignalSearch.DirectSignals found =
        search(RecallOptions.builder().weights(1, 0, 0).build())
            .search(Scope.DEFAULT, "jwt tokens", 7);
    assertTrue(store.vectorDepths.isEmpty());
    assertTrue(embedded.isEmpty(), embedded.toString());
    assertTrue(found.vector().hits().isEmpty());
    assertEquals(List.of("jwt tokens"), store.textSearches);
  }

  @Test
  void aRepeatedQuery_isEmbeddedOnce() {
    SignalSearch search = search(RecallOptions.defaults());
    search.search(Scope.DEFAULT, "jwt tokens", 5);
    search.search(Scope.DEFAULT, "jwt tokens", 5);
    search.search(Scope.DEFAULT, "pizza", 5);
    assertEquals(List.of("jwt tokens", "pizza"), embedded);
  }
}
