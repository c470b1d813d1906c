package dev.memhook.benchmarks.soak;

/**
 * The soak, as a program: 16 hooked chat services, direct remember / recall / forget callers and
 * two observers posting a coding agent's lifecycle events, over one service preloaded with 100,000
 * memories, for 10 minutes by default; prints a report and exits with status 1 if any check failed
 * (see {@link SoakRun} and the workers for the checks, and {@link SoakConfig#parse} for the
 * options).
 *
 * <pre>
 * java -Xmx2g -cp benchmarks/target/benchmarks.jar dev.memhook.benchmarks.soak.Soak [--duration 10m] [--memories 100000] ...
 * </pre>
 */
public final class Soak {

  /**
   * The hook's logger warns on every recall timeout; a soak on a loaded machine has thousands, and
   * its listener counts them for the report, so they are silenced unless the caller chose a level.
   */
  private static final String HOOK_LOG_LEVEL =
      "org.slf4j.simpleLogger.log.dev.memhook.core.internal.inject";

  private Soak() {}

  /** Runs the soak; exit status 0 if every check held, 1 if not, 2 on bad arguments. */
  public static void main(String[] args) throws Exception {
    if (System.getProperty(HOOK_LOG_LEVEL) == null) {
      System.setProperty(HOOK_LOG_LEVEL, "error");
    }
    SoakConfig config;
    try {
      config = SoakConfig.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println("soak: " + e.getMessage());
      System.exit(2);
      return;
    }
    SoakReport report = SoakRun.run(config, System.err);
    System.out.print(report.format());
    System.out.flush();
    System.exit(report.ok() ? 0 : 1);
  }
}
