package dev.memhook.benchmarks.postgres;

import dev.memhook.benchmarks.CommandLine;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * The shared PostgreSQL store as several JVMs use it, measured side by side in one run, each part
 * on fresh schemas of its own (dropped at the end) of the database in {@code --url} or {@value
 * BenchDatabase#URL_VARIABLE}:
 *
 * <ol type="a">
 *   <li>durable {@code remember} throughput through one instance and through two instances writing
 *       at once ({@link WriteThroughput});
 *   <li>the delay until a memory written through instance A is found by a search on instance B, and
 *       on A itself for reference ({@link VisibilityDelay});
 *   <li>recall latency through a service at one corpus size, PostgreSQL next to the embedded Lucene
 *       store, same questions ({@link RecallComparison}).
 * </ol>
 *
 * "Instances" are store instances with a connection pool each in this JVM: what separates two JVMs
 * for the store (connections, caches, the change feed) is per instance. No model runs: (a) embeds
 * with the hashing embedder, (b) and (c) with precomputed vectors.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.memhook.benchmarks.postgres.SharedPostgresBench \
 *     [--url JDBC_URL] [--writes N] [--writers N] [--probes N] [--background N] \
 *     [--size N] [--warm-up N] [--queries N]
 * </pre>
 *
 * Progress goes to stderr, the tables to stdout. Exit status 0 if every self-check held, 1 if one
 * failed, 2 on a bad argument or a missing URL.
 */
public final class SharedPostgresBench {

  /**
   * The service's build-time warm-up embeds a fixed question the precomputed embedder does not
   * know, and warns with a stack trace for every service (c) builds; the harness warms each service
   * itself, so that warning is silenced unless the caller chose a level.
   */
  private static final String WARM_UP_LOG_LEVEL =
      "org.slf4j.simpleLogger.log.dev.memhook.core.internal.RecallWarmUp";

  /** HikariCP logs each pool's start and stop; the harness opens and closes several. */
  private static final String POOL_LOG_LEVEL = "org.slf4j.simpleLogger.log.com.zaxxer.hikari";

  private SharedPostgresBench() {}

  /** The run's settings; {@link #USAGE} says what each is and its default. */
  record Options(
      String url,
      int writes,
      int writers,
      int probes,
      int background,
      int size,
      int warmUp,
      int queries) {
    static final Options DEFAULTS = new Options(null, 5_000, 1, 300, 1_000, 10_000, 200, 500);
  }

  static final String USAGE =
      "usage: SharedPostgresBench [--url JDBC_URL (default: $"
          + BenchDatabase.URL_VARIABLE
          + ")]\n"
          + "  [--writes N (a: memories per run, 5000)] [--writers N (a: threads per instance, 1)]\n"
          + "  [--probes N (b: probes per row, 300)] [--background N (b: memories already in the"
          + " scope, 1000)]\n"
          + "  [--size N (c: memories, 10000)] [--warm-up N (c: recalls before timing, 200)]"
          + " [--queries N (c: timed recalls per row, 500)]";

  public static void main(String[] args) throws Exception {
    for (String logger : List.of(WARM_UP_LOG_LEVEL, POOL_LOG_LEVEL)) {
      if (System.getProperty(logger) == null) {
        System.setProperty(logger, "error");
      }
    }
    int status;
    try {
      status = run(parse(args), System.out, System.err) ? 0 : 1;
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      status = 2;
    }
    System.exit(status);
  }

  static Options parse(String[] args) {
    Options d = Options.DEFAULTS;
    String url = d.url();
    int writes = d.writes();
    int writers = d.writers();
    int probes = d.probes();
    int background = d.background();
    int size = d.size();
    int warmUp = d.warmUp();
    int queries = d.queries();
    for (int i = 0; i < args.length; i += 2) {
      String name = args[i];
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException(name + " needs a value\n" + USAGE);
      }
      String value = args[i + 1];
      switch (name) {
        case "--url" -> url = value;
        case "--writes" -> writes = atLeast(1, name, value);
        case "--writers" -> writers = atLeast(1, name, value);
        case "--probes" -> probes = atLeast(1, name, value);
        case "--background" -> background = atLeast(0, name, value);
        case "--size" -> size = atLeast(1, name, value);
        case "--warm-up" -> warmUp = atLeast(0, name, value);
        case "--queries" -> queries = atLeast(1, name, value);
        default -> throw new IllegalArgumentException("unknown option " + name + "\n" + USAGE);
      }
    }
    return new Options(url, writes, writers, probes, background, size, warmUp, queries);
  }

  /**
   * Runs every part with {@code o}, printing the tables to {@code out} and progress to {@code
   * progress}; whether every self-check held.
   *
   * @throws IllegalArgumentException if no database URL is given
   */
  static boolean run(Options o, PrintStream out, PrintStream progress) throws Exception {
    try (BenchDatabase db = BenchDatabase.open(o.url)) {
      out.println("SharedPostgresBench: " + db.describeServer());
      out.printf(
          Locale.ROOT,
          "JVM %s, %d processors%n%n",
          Runtime.version(),
          Runtime.getRuntime().availableProcessors());

      List<WriteThroughput.Row> writes = WriteThroughput.run(db, o.writes, o.writers, progress);
      out.printf(
          Locale.ROOT,
          "(a) remember throughput, durable (each call returns after its commit), hashing"
              + " embedder, %d writer thread(s) per instance%n",
          o.writers);
      out.println("| instances | scopes | memories | seconds | memories/s |");
      out.println("|---|---|---|---|---|");
      for (WriteThroughput.Row r : writes) {
        out.printf(
            Locale.ROOT,
            "| %s | %s | %,d | %.2f | %,.0f |%n",
            r.instances(),
            r.scopes(),
            r.memories(),
            r.seconds(),
            r.perSecond());
      }
      out.println();

      List<VisibilityDelay.Row> delays = VisibilityDelay.run(db, o.probes, o.background, progress);
      out.printf(
          Locale.ROOT,
          "(b) visibility delay: put on A returns -> a top-1 search in a tight loop finds the id;"
              + " %d probes per row, scope of %,d memories%n",
          o.probes,
          o.background);
      out.println(
          "| written on | searched on | search | median ms | p90 ms | p99 ms | max ms |"
              + " searches (max) |");
      out.println("|---|---|---|---|---|---|---|---|");
      for (VisibilityDelay.Row r : delays) {
        Latencies d = r.delay();
        out.printf(
            Locale.ROOT,
            "| %s | %s | %s | %s | %s | %s | %s | %d |%n",
            r.writtenOn(),
            r.searchedOn(),
            r.search(),
            Latencies.ms(d.median()),
            Latencies.ms(d.p90()),
            Latencies.ms(d.p99()),
            Latencies.ms(d.max()),
            r.maxSearches());
      }
      out.println();

      List<RecallComparison.Row> recalls =
          RecallComparison.run(db, o.size, o.warmUp, o.queries, progress);
      out.printf(
          Locale.ROOT,
          "(c) MemoryService.recall (limit 10), %,d memories, %d timed recalls per row after %d"
              + " warm-up; PostgreSQL with a warm cache, Lucene on disk%n",
          o.size,
          o.queries,
          o.warmUp);
      out.println("| mode | store | median ms | p99 ms | on-topic top hit |");
      out.println("|---|---|---|---|---|");
      boolean passed = true;
      for (RecallComparison.Row r : recalls) {
        out.printf(
            Locale.ROOT,
            "| %s | %s | %s | %s | %d/%d%s |%n",
            r.mode(),
            r.store(),
            Latencies.ms(r.latency().median()),
            Latencies.ms(r.latency().p99()),
            r.onTopic(),
            r.latency().count(),
            r.passed() ? "" : " CHECK FAILED: below half");
        passed &= r.passed();
      }
      return passed;
    }
  }

  /**
   * Option {@code name}'s {@code value} as a {@linkplain CommandLine#count count} of at least
   * {@code min}; digits may be grouped with {@code _} or {@code ,} ({@code 10_000}, {@code
   * 10,000}).
   */
  private static int atLeast(int min, String name, String value) {
    int n = CommandLine.count(name, value.replace("_", "").replace(",", ""));
    if (n < min) {
      throw new IllegalArgumentException(name + " must be at least " + min + ", got " + n);
    }
    return n;
  }
}
