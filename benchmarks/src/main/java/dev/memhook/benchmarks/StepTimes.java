package dev.memhook.benchmarks;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.BiConsumer;
import java.util.function.IntConsumer;
import java.util.function.IntToLongFunction;

/**
 * The timing loop and the table rows of the breakdown harnesses ({@link RecallBreakdown}, {@link
 * HookBreakdown}): each step is warmed up on one block of question indexes and timed on the next,
 * so no timed call repeats a question its warm-up asked. Stateless.
 */
final class StepTimes {

  private StepTimes() {}

  /** Prints the table header. */
  static void header(PrintStream out) {
    out.println("| step | median ms | p99 ms |");
    out.println("|---|---|---|");
  }

  /**
   * Runs {@code call} on indexes {@code [from, from + n)} to warm up, times it on the next {@code
   * n}, prints a row.
   */
  static void time(PrintStream out, String step, int from, int n, IntConsumer call) {
    timeNanos(
        out,
        step,
        from,
        n,
        i -> {
          long t0 = System.nanoTime();
          call.accept(i);
          return System.nanoTime() - t0;
        });
  }

  /**
   * As {@link #time}, for calls that time themselves (leaving out their own setup) and return
   * nanoseconds.
   */
  static void timeNanos(PrintStream out, String step, int from, int n, IntToLongFunction call) {
    for (int i = from; i < from + n; i++) {
      call.applyAsLong(i);
    }
    double[] ms = new double[n];
    for (int i = 0; i < n; i++) {
      ms[i] = call.applyAsLong(from + n + i) / 1e6;
    }
    Arrays.sort(ms);
    out.printf(
        Locale.ROOT,
        "| %s | %.3f | %.3f |%n",
        step,
        ms[n / 2],
        ms[Math.min(n - 1, (int) Math.ceil(0.99 * n) - 1)]);
  }

  /** Prints a row for a step that was not run, and why. */
  static void skipped(PrintStream out, String step, String why) {
    out.println("| " + step + " | not run: " + why + " |  |");
  }

  /**
   * A harness's {@code main}: runs it on {@code System.out}; an {@link IllegalArgumentException} (a
   * bad argument, with the usage) is printed to {@code System.err} and exits with status 2.
   */
  static void main(String[] args, BiConsumer<String[], PrintStream> harness) {
    try {
      harness.accept(args, System.out);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
    }
  }
}
