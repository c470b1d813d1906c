package dev.memhook.djl;

/**
 * A batch of token-id sequences of varying length, to be padded to the longest. Package-private;
 * holds its arrays without copying and must not be changed after construction.
 */
final class TokenBatch {
  private final long[][] sequences;
  private final int maxLength;

  TokenBatch(long[][] sequences) {
    if (sequences.length == 0) {
      throw new IllegalArgumentException("empty batch");
    }
    int max = 0;
    for (long[] sequence : sequences) {
      max = Math.max(max, sequence.length);
    }
    this.sequences = sequences;
    this.maxLength = max;
  }

  int size() {
    return sequences.length;
  }

  int maxLength() {
    return maxLength;
  }

  /** The unpadded length of sequence {@code i}: its attention mask is 1 on exactly these. */
  int length(int i) {
    return sequences[i].length;
  }

  long[] sequence(int i) {
    return sequences[i];
  }
}
