package dev.memhook.benchmarks;

import dev.memhook.djl.BundledModel;
import dev.memhook.djl.DjlEmbedder;
import java.util.Arrays;
import java.util.Random;

/**
 * What embedding one long text costs with the default int8 MiniLM on one ONNX Runtime thread: about
 * 95,000 characters of prose and of code-like text (identifiers, paths, punctuation: more tokens
 * per character), generated from seed 42, each embedded 5 times after one warm-up call. Prints the
 * median per text with {@code maxWindows} at the default and at {@link DjlEmbedder#MAX_MAX_WINDOWS}
 * (the whole text, as before the bound), so the two are measured side by side in one run.
 *
 * <pre>{@code java -cp benchmarks/target/benchmarks.jar dev.memhook.benchmarks.LongTextCost}</pre>
 */
public final class LongTextCost {

  private static final int CHARS = 95_000;

  private LongTextCost() {}

  public static void main(String[] args) {
    String prose = prose(new Random(42));
    String code = code(new Random(42));
    for (int maxWindows :
        new int[] {DjlEmbedder.DEFAULT_MAX_WINDOWS, DjlEmbedder.MAX_MAX_WINDOWS}) {
      try (DjlEmbedder e =
          DjlEmbedder.bundledBuilder(BundledModel.MINILM_L6_V2_Q)
              .intraOpThreads(1)
              .maxWindows(maxWindows)
              .build()) {
        System.out.printf(
            "maxWindows %d: prose %,d chars median %.0f ms; code-like %,d chars median %.0f ms%n",
            maxWindows,
            prose.length(),
            medianMillis(e, prose),
            code.length(),
            medianMillis(e, code));
      }
    }
  }

  private static double medianMillis(DjlEmbedder e, String text) {
    e.embed(text);
    long[] nanos = new long[5];
    for (int i = 0; i < nanos.length; i++) {
      long start = System.nanoTime();
      e.embed(text + " #" + i);
      nanos[i] = System.nanoTime() - start;
    }
    Arrays.sort(nanos);
    return nanos[nanos.length / 2] / 1e6;
  }

  private static String prose(Random r) {
    return text(
        r,
        new String[] {
          "the", "team", "decided", "to", "move", "billing", "onto", "a", "new", "database",
          "after", "the", "outage", "last", "week", "and", "everyone", "agreed", "that", "tests",
          "matter"
        },
        12,
        ". ");
  }

  private static String code(Random r) {
    return text(
        r,
        new String[] {
          "PaymentService.authorize(",
          "src/main/java/com/acme/",
          "user_id",
          "=",
          "0x7f3a",
          ");",
          "if (retryCount > 3) {",
          "throw new IllegalStateException(\"",
          "SHIP-E009",
          "}",
          "--env=prod"
        },
        5,
        "\n");
  }

  /**
   * {@value #CHARS} characters of {@code parts} drawn at random, one in {@code every} followed by
   * {@code end}.
   */
  private static String text(Random r, String[] parts, int every, String end) {
    StringBuilder sb = new StringBuilder(CHARS + 64);
    while (sb.length() < CHARS) {
      sb.append(parts[r.nextInt(parts.length)]).append(r.nextInt(every) == 0 ? end : " ");
    }
    return sb.substring(0, CHARS);
  }
}
