package dev.memhook.djl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.memhook.api.spi.Embedding;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The bundled model's vectors do not depend on how many threads ran the batches of a call. */
class DjlEmbedderParallelBatchesTest {

  @Test
  void embedAll_givesTheSameVectors_withHelperThreadsAsOnOneThread() {
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < 23; i++) {
      texts.add("observation " + i + ": ran the tests of module " + "core".repeat(i % 5 + 1));
    }
    try (DjlEmbedder alone =
            DjlEmbedder.bundledMiniLmBuilder()
                .intraOpThreads(1)
                .predictorPoolSize(1)
                .batchSize(4)
                .build();
        DjlEmbedder helped =
            DjlEmbedder.bundledMiniLmBuilder()
                .intraOpThreads(1)
                .predictorPoolSize(4)
                .batchSize(4)
                .build()) {
      List<Embedding> one = alone.embedAll(texts);
      List<Embedding> many = helped.embedAll(texts);
      // the same batches, so bit-identical even for the int8 model's per-batch quantisation
      assertEquals(one, many);
      assertEquals(one, helped.embedDocuments(texts));
    }
  }
}
