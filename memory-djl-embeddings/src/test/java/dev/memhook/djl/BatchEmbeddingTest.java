package dev.memhook.djl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.memhook.api.spi.Embedding;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class BatchEmbeddingTest {

  /** Records each batch's sequences and pools a sequence to {length, first id}. */
  static final class RecordingModel implements Function<List<TokenBatch>, float[][][]> {
    final List<List<String>> batches = new ArrayList<>();

    @Override
    public float[][][] apply(List<TokenBatch> all) {
      float[][][] out = new float[all.size()][][];
      for (int b = 0; b < all.size(); b++) {
        out[b] = one(all.get(b));
      }
      return out;
    }

    private float[][] one(TokenBatch batch) {
      List<String> seen = new ArrayList<>();
      float[][] out = new float[batch.size()][];
      for (int i = 0; i < batch.size(); i++) {
        long[] sequence = batch.sequence(i);
        seen.add(Arrays.toString(sequence));
        out[i] = new float[] {sequence.length, sequence.length == 0 ? -1 : sequence[0]};
      }
      batches.add(seen);
      return out;
    }
  }

  /** Each character is a token; '|' separates windows. */
  static List<long[]> windows(String text) {
    List<long[]> out = new ArrayList<>();
    for (String part : text.split("\\|", -1)) {
      out.add(part.chars().asLongStream().toArray());
    }
    return out;
  }

  @Test
  void runSorted_batchesSequencesByLengthAndReturnsVectorsInInputOrder() {
    List<long[]> sequences =
        List.of(
            new long[] {1, 1, 1, 1, 1},
            new long[] {2},
            new long[] {3, 3, 3},
            new long[] {4},
            new long[] {5, 5, 5, 5});
    RecordingModel model = new RecordingModel();
    float[][] vectors = BatchEmbedding.runSorted(sequences, 2, model);
    // Shortest first; the two of length 1 keep their input order.
    assertEquals(
        List.of(
            List.of("[2]", "[4]"),
            List.of("[3, 3, 3]", "[5, 5, 5, 5]"),
            List.of("[1, 1, 1, 1, 1]")),
        model.batches);
    for (int i = 0; i < sequences.size(); i++) {
      assertEquals(i + 1, vectors[i][1], "vector " + i);
      assertEquals(sequences.get(i).length, vectors[i][0], "vector " + i);
    }
  }

  @Test
  void embedAll_averagesEachTextsWindowsAndKeepsTheTextsOrder() {
    RecordingModel model = new RecordingModel();
    BatchEmbedding batching = new BatchEmbedding(BatchEmbeddingTest::windows, 2, false);
    List<Embedding> vectors = batching.embedAll(List.of("abcd|ef", "x", "abcd|ef"), model);
    // "abcd|ef": windows {4, 'a'} and {2, 'e'}, mean {3, ('a' + 'e') / 2}.
    Embedding twoWindows = Embedding.of(3f, ('a' + 'e') / 2f);
    assertEquals(List.of(twoWindows, Embedding.of(1f, 'x'), twoWindows), vectors);
    // Five windows in batches of at most two.
    assertEquals(List.of(2, 2, 1), model.batches.stream().map(List::size).toList());
  }

  @Test
  void embedAll_normalisesWhenAsked() {
    BatchEmbedding batching = new BatchEmbedding(BatchEmbeddingTest::windows, 8, true);
    Embedding vector = batching.embedAll(List.of("ab|c"), new RecordingModel()).get(0);
    assertEquals(1.0, vector.norm(), 1e-6);
  }

  @Test
  void embedAll_ofNoTextsCallsNoModel() {
    RecordingModel model = new RecordingModel();
    BatchEmbedding batching = new BatchEmbedding(BatchEmbeddingTest::windows, 2, true);
    assertEquals(List.of(), batching.embedAll(List.of(), model));
    assertEquals(List.of(), model.batches);
  }

  @Test
  void embedAll_returnsAnUnmodifiableList() {
    BatchEmbedding batching = new BatchEmbedding(BatchEmbeddingTest::windows, 2, true);
    List<Embedding> vectors = batching.embedAll(List.of("a"), new RecordingModel());
    assertThrows(UnsupportedOperationException.class, () -> vectors.add(Embedding.of(1f)));
  }

  @Test
  void constructor_rejectsANonPositiveBatchSizeNamingIt() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new BatchEmbedding(BatchEmbeddingTest::windows, 0, true));
    assertEquals("batchSize must be positive, got 0", e.getMessage());
  }
}
