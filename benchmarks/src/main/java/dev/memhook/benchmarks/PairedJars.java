package dev.memhook.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.IntConsumer;

/**
 * Recall latency of two builds side by side in one JVM: each benchmarks jar in a class loader of
 * its own, each over its own copy of {@link SettledRecall}'s kept 100k index, the recalls of one
 * question stream alternated between them question by question (A B B A, each question asked once,
 * on one side), after as many warm-up recalls. Both sides see the same load on the machine and the
 * same moment of the run, and each has its own compiled code; whole runs of one jar, one after the
 * other, differ on a shared machine by more than most changes to a recall (benchmarks/RESULTS.md,
 * section 1, "Each side of a recall works while the other runs"). The ratio of B to A is the
 * result: two stores and two copies of Lucene in one JVM make both sides' absolute times higher
 * than a run of either alone.
 *
 * <p>Run (copy the kept index directory twice first, so that neither side reads the directory the
 * other opened; two copies of one jar, measured this way, show the harness's own spread):
 *
 * <pre>
 * java -Xmx10g -cp benchmarks/target/benchmarks.jar dev.memhook.benchmarks.PairedJars \
 *     A.jar B.jar DIR_A DIR_B [--questions 3000] [--mode fused] [--embed-us 0] [--size 100000]
 * </pre>
 *
 * {@code --size} names the kept index's size (SettledRecall's {@code --size}), whose corpus gives
 * the questions.
 *
 * <p>{@code --embed-us} makes each query's embedding take that long (the precomputed vector,
 * returned after a spin): what a model costs a recall's vector side, without loading one. With it,
 * the sides recall without the query-embedding cache ({@link PairedSide#options}), since the
 * question stream repeats texts and a cache hit would skip the spin.
 *
 * <p>{@link PairedSide} is loaded into each side from the jar that runs this main, whatever the
 * side's jar holds: an older build is compared with the same harness.
 */
public final class PairedJars {
  private PairedJars() {}

  public static void main(String[] args) throws Exception {
    run(args, System.out);
    System.exit(0); // the sides' services hold non-daemon threads of their own class loaders
  }

  static void run(String[] args, PrintStream out) throws Exception {
    if (args.length < 4) {
      throw new IllegalArgumentException(
          "usage: PairedJars A.jar B.jar DIR_A DIR_B [--questions N] [--mode text|vector|fused]"
              + " [--embed-us MICROS] [--size N]");
    }
    int n = 3_000;
    String mode = "fused";
    long embedMicros = 0;
    int size = 100_000;
    for (int i = 4; i < args.length; i++) {
      switch (args[i]) {
        case "--questions" -> n = CommandLine.count(args, ++i);
        case "--mode" -> mode = CommandLine.value(args, ++i);
        case "--embed-us" -> embedMicros = CommandLine.count(args, ++i);
        case "--size" -> size = CommandLine.count(args, ++i);
        default -> throw new IllegalArgumentException("unknown argument: " + args[i]);
      }
    }
    IntConsumer a = side(Path.of(args[0]), args[2], 4 * n, mode, embedMicros, size);
    IntConsumer b = side(Path.of(args[1]), args[3], 4 * n, mode, embedMicros, size);
    long[][] took = alternate(a, b, n);
    long[] ta = took[0];
    long[] tb = took[1];
    out.printf(
        Locale.ROOT,
        "%s recall, %d questions a side after %d warm-up recalls, each query embedded in %d us%n"
            + "A %s: median %.3f ms, p90 %.3f, p99 %.3f%n"
            + "B %s: median %.3f ms, p90 %.3f, p99 %.3f%n"
            + "B / A: median %.3f, p99 %.3f%n",
        mode,
        n,
        2 * n,
        embedMicros,
        args[0],
        ms(ta, 50),
        ms(ta, 90),
        ms(ta, 99),
        args[1],
        ms(tb, 50),
        ms(tb, 90),
        ms(tb, 99),
        ms(tb, 50) / ms(ta, 50),
        ms(tb, 99) / ms(ta, 99));
  }

  /**
   * The nanoseconds of each measured recall of {@code a} and of {@code b}, sorted: {@code 2n}
   * warm-up recalls then {@code 2n} measured ones, questions {@code 0..4n} in order, the sides in
   * the order A B B A for each four.
   */
  static long[][] alternate(IntConsumer a, IntConsumer b, int n) {
    long[] ta = new long[n];
    long[] tb = new long[n];
    for (int phase = 0; phase < 2; phase++) {
      int from = phase * 2 * n;
      for (int i = 0; i < 2 * n; i++) {
        boolean onA = sideA(i);
        long start = System.nanoTime();
        (onA ? a : b).accept(from + i);
        long t = System.nanoTime() - start;
        if (phase == 1) {
          (onA ? ta : tb)[i / 2] = t;
        }
      }
    }
    Arrays.sort(ta);
    Arrays.sort(tb);
    return new long[][] {ta, tb};
  }

  /** Whether the {@code i}th recall of a phase is side A's: A B B A, A B B A, … */
  static boolean sideA(int i) {
    return ((i / 2) % 2 == 0) == (i % 2 == 0);
  }

  private static double ms(long[] sorted, int percentile) {
    return sorted[Math.min(sorted.length - 1, sorted.length * percentile / 100)] / 1e6;
  }

  private static IntConsumer side(
      Path jar, String dir, int questions, String mode, long embedMicros, int size)
      throws Exception {
    if (!Files.isRegularFile(jar)) {
      throw new IllegalArgumentException("no such jar: " + jar);
    }
    ClassLoader loader = new SideLoader(jar);
    Class<?> c = loader.loadClass(PairedSide.class.getName());
    return (IntConsumer)
        c.getMethod("open", String.class, int.class, String.class, long.class, int.class)
            .invoke(null, dir, questions, mode, embedMicros, size);
  }

  /**
   * A jar's own class loader, under the platform loader so that nothing of this JVM's class path is
   * shared; {@link PairedSide} is defined from this main's copy, never the jar's.
   */
  private static final class SideLoader extends URLClassLoader {
    SideLoader(Path jar) throws IOException {
      super(new URL[] {jar.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      String side = PairedSide.class.getName();
      if (!name.equals(side) && !name.startsWith(side + "$")) {
        return super.loadClass(name, resolve);
      }
      synchronized (getClassLoadingLock(name)) {
        Class<?> c = findLoadedClass(name);
        if (c == null) {
          try (InputStream in =
              PairedJars.class.getResourceAsStream("/" + name.replace('.', '/') + ".class")) {
            if (in == null) {
              throw new ClassNotFoundException(name);
            }
            byte[] bytes = in.readAllBytes();
            c = defineClass(name, bytes, 0, bytes.length);
          } catch (IOException io) {
            throw new ClassNotFoundException(name, io);
          }
        }
        if (resolve) {
          resolveClass(c);
        }
        return c;
      }
    }
  }
}
