package dev.memhook.benchmarks;

import dev.memhook.api.spi.Embedder;
import dev.memhook.core.JointEmbedder;
import dev.memhook.djl.BundledModel;
import dev.memhook.djl.DjlEmbedder;
import java.util.Arrays;

/**
 * The query-embedding cost of each bundled model on one thread, the way a hook's recall pays it:
 * one question at a time through {@code embedQuery}, one ONNX Runtime thread (as the default
 * embedder is configured). Prints the median and p99 of 300 calls after 50 warm-up calls, each
 * question different so nothing is cached; then the same for the int8 MiniLM and E5 as one {@link
 * JointEmbedder}.
 *
 * <pre>{@code java -cp benchmarks/target/benchmarks.jar dev.memhook.benchmarks.QueryLatency}</pre>
 */
public final class QueryLatency {

  private static final String[] QUESTIONS = {
    "when is the staging database reset?",
    "why did the deploy break last week?",
    "which retry backoff do we use for payment webhooks?",
    "what did she say about the adoption agencies",
    "how do we keep money amounts in this codebase?",
    "where is the auth middleware configured",
  };

  private QueryLatency() {}

  public static void main(String[] args) {
    for (BundledModel m : BundledModel.values()) {
      try (DjlEmbedder e = oneThread(m)) {
        measure(e);
      }
    }
    try (JointEmbedder joint =
        JointEmbedder.of(
            oneThread(BundledModel.MINILM_L6_V2_Q), oneThread(BundledModel.E5_SMALL_V2_Q))) {
      measure(joint);
    }
  }

  private static DjlEmbedder oneThread(BundledModel m) {
    return DjlEmbedder.bundledBuilder(m).intraOpThreads(1).build();
  }

  private static void measure(Embedder e) {
    for (int i = 0; i < 50; i++) {
      e.embedQuery(QUESTIONS[i % QUESTIONS.length] + " " + i);
    }
    long[] nanos = new long[300];
    for (int i = 0; i < nanos.length; i++) {
      long start = System.nanoTime();
      e.embedQuery(QUESTIONS[i % QUESTIONS.length] + " #" + (1000 + i));
      nanos[i] = System.nanoTime() - start;
    }
    Arrays.sort(nanos);
    System.out.printf(
        "%s: median %.2f ms, p99 %.2f ms (1 thread, %d queries)%n",
        e.modelId(),
        nanos[nanos.length / 2] / 1e6,
        nanos[nanos.length * 99 / 100] / 1e6,
        nanos.length);
  }
}
