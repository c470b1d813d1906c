package dev.memhook.benchmarks.soak;

import dev.memhook.api.HookOptions;
import dev.memhook.benchmarks.CommandLine;
import dev.memhook.testkit.Seeds;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * What one soak run does.
 *
 * @param memories memories preloaded before the mixed phase
 * @param hooks chat services, each with one live hook and one thread driving its turns
 * @param workers threads calling remember, recall and forget directly
 * @param observers threads posting a coding agent's lifecycle events to {@code observeJson}, each
 *     one event per {@link #OBSERVE_PAUSE}; 0 runs the service without capture
 * @param scopes scopes the memories and hooks are spread over (at least 2, so isolation is tested)
 * @param duration length of the mixed phase
 * @param seed the seed of the corpus and every worker's choices
 * @param embedder {@code hashing} (no model, fast ingest) or a {@code BenchEmbedders} model name
 * @param turnsPerConversation turns before a chat service and its hook are replaced by fresh ones
 * @param recallTimeout each hook's recall timeout
 * @param stallWindow a worker that completes no step for this long is a stall
 * @param heapInterval how often the live heap is sampled
 * @param heapGrowthRatio the last quarter's live heap may be at most this times the second's (plus
 *     {@link #HEAP_SLACK_BYTES})
 * @param directory where the index lives; null for a new temporary directory, deleted afterwards
 */
record SoakConfig(
    int memories,
    int hooks,
    int workers,
    int observers,
    int scopes,
    Duration duration,
    long seed,
    String embedder,
    int turnsPerConversation,
    Duration recallTimeout,
    Duration stallWindow,
    Duration heapInterval,
    double heapGrowthRatio,
    Path directory) {

  /** The pause between two events of one observer: a busy agent's pace. */
  static final Duration OBSERVE_PAUSE = Duration.ofMillis(20);

  /** Absolute slack of the heap growth rule, so noise on a small heap is not a leak. */
  static final long HEAP_SLACK_BYTES = 32L << 20;

  SoakConfig {
    if (memories < 1
        || hooks < 1
        || workers < 0
        || observers < 0
        || scopes < 2
        || turnsPerConversation < 1) {
      throw new IllegalArgumentException(
          "need memories >= 1, hooks >= 1, workers >= 0, observers >= 0, scopes >= 2, turns >= 1");
    }
    if (duration.isNegative() || duration.isZero() || stallWindow.isZero()) {
      throw new IllegalArgumentException("duration and stall window must be positive");
    }
  }

  /**
   * The full soak: 100,000 memories, 16 hooks, 4 direct workers, 2 observers, 8 scopes, 10 minutes,
   * the hashing embedder, the library's default recall timeout.
   */
  static SoakConfig full(long seed) {
    return new SoakConfig(
        100_000,
        16,
        4,
        2,
        8,
        Duration.ofMinutes(10),
        seed,
        "hashing",
        40,
        HookOptions.DEFAULT_RECALL_TIMEOUT,
        Duration.ofSeconds(60),
        heapIntervalFor(Duration.ofMinutes(10)),
        1.5,
        null);
  }

  /** This configuration with another size and length (the heap interval follows the length). */
  SoakConfig sized(int newMemories, Duration newDuration, Duration newStallWindow) {
    return new SoakConfig(
        newMemories,
        hooks,
        workers,
        observers,
        scopes,
        newDuration,
        seed,
        embedder,
        turnsPerConversation,
        recallTimeout,
        newStallWindow,
        heapIntervalFor(newDuration),
        heapGrowthRatio,
        directory);
  }

  /** About 40 samples per run, between 2 and 15 seconds apart. */
  static Duration heapIntervalFor(Duration run) {
    long millis = Math.max(2_000, Math.min(15_000, run.toMillis() / 40));
    return Duration.ofMillis(millis);
  }

  /**
   * Parses {@code --memories N --hooks N --workers N --observers N --scopes N --duration 10m|30s
   * --seed N --embedder NAME --turns N --recall-timeout-ms N --stall-seconds N --heap-ratio X --dir
   * PATH}; unset options keep {@link #full(long)}'s values, and without {@code --seed} a new seed
   * is drawn by {@link Seeds}.
   *
   * @throws IllegalArgumentException on an unknown option or a bad value
   */
  static SoakConfig parse(String... args) {
    SoakConfig c = full(Seeds.seed());
    int memories = c.memories;
    int hooks = c.hooks;
    int workers = c.workers;
    int observers = c.observers;
    int scopes = c.scopes;
    Duration duration = c.duration;
    long seed = c.seed;
    String embedder = c.embedder;
    int turns = c.turnsPerConversation;
    Duration recallTimeout = c.recallTimeout;
    Duration stall = c.stallWindow;
    double ratio = c.heapGrowthRatio;
    Path dir = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--memories" -> memories = CommandLine.count(args, ++i);
        case "--hooks" -> hooks = CommandLine.count(args, ++i);
        case "--workers" -> workers = CommandLine.count(args, ++i);
        case "--observers" -> observers = CommandLine.count(args, ++i);
        case "--scopes" -> scopes = CommandLine.count(args, ++i);
        case "--duration" -> duration = parseDuration(CommandLine.value(args, ++i));
        case "--seed" -> seed = CommandLine.whole(args, ++i);
        case "--embedder" -> embedder = CommandLine.value(args, ++i);
        case "--turns" -> turns = CommandLine.count(args, ++i);
        case "--recall-timeout-ms" ->
            recallTimeout = Duration.ofMillis(CommandLine.count(args, ++i));
        case "--stall-seconds" -> stall = Duration.ofSeconds(CommandLine.count(args, ++i));
        case "--heap-ratio" -> ratio = CommandLine.number(args, ++i);
        case "--dir" -> dir = Path.of(CommandLine.value(args, ++i));
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    return new SoakConfig(
        memories,
        hooks,
        workers,
        observers,
        scopes,
        duration,
        seed,
        embedder,
        turns,
        recallTimeout,
        stall,
        heapIntervalFor(duration),
        ratio,
        dir);
  }

  /**
   * {@code 90s}, {@code 10m}, {@code 1h}, or ISO-8601 such as {@code PT10M}.
   *
   * @throws IllegalArgumentException naming {@code --duration} and {@code v} when it is none of
   *     these
   */
  static Duration parseDuration(String v) {
    String s = v.trim().toLowerCase(Locale.ROOT);
    try {
      if (s.startsWith("pt")) {
        return Duration.parse(s.toUpperCase(Locale.ROOT));
      }
      if (s.length() > 1) {
        long n = Long.parseLong(s.substring(0, s.length() - 1));
        Duration d =
            switch (s.charAt(s.length() - 1)) {
              case 's' -> Duration.ofSeconds(n);
              case 'm' -> Duration.ofMinutes(n);
              case 'h' -> Duration.ofHours(n);
              default -> null;
            };
        if (d != null) {
          return d;
        }
      }
    } catch (NumberFormatException | DateTimeParseException | ArithmeticException e) {
      // refused below, with what a duration looks like
    }
    throw new IllegalArgumentException(
        "--duration needs a length like 30s, 10m, 1h or PT10M, not '" + v + "'");
  }
}
