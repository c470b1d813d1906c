package dev.memhook.benchmarks.loop;

import dev.memhook.benchmarks.BenchEmbedders;
import dev.memhook.benchmarks.CommandLine;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The memory loop end to end (issue 29): replays scenarios of what a user said and did in some
 * sessions, then asks later questions (probes) in sessions of their own, and reports what the hook
 * injected, in three modes:
 *
 * <ul>
 *   <li>{@link Mode#HOOK_CHAT}: sessions replayed as a coding agent's hook payloads through {@code
 *       observeJson} ({@link HookReplay}), probes asked through {@code hookInto} a {@code
 *       FakeChatService} ({@link ChatProbe});
 *   <li>{@link Mode#HOOK_CLI}: the same replay, probes asked through {@code memhook hook}'s {@code
 *       SessionStart} and {@code UserPromptSubmit} answers ({@link CliProbe});
 *   <li>{@link Mode#CHAT_CHAT}: sessions replayed as hooked chat conversations ({@link
 *       ChatReplay}), probes as in the first mode.
 * </ul>
 *
 * <p>Each scenario gets stores of its own in a new temporary directory (one per replay kind), so
 * scenarios never see each other; its sessions are replayed in file order, each in a new service
 * lifetime whose clock is set one day per session before the probes (the last session a day before
 * them), so sessions are as far apart as a user's days. Every probe then runs in a new lifetime on
 * a fresh copy of the replayed store, with the real clock, so probes do not see each other's
 * captures either. The figures are in {@link LoopMetrics}; {@link LoopReportPrinter} prints them.
 *
 * <p>Run from the repository root:
 *
 * <pre>
 * mvn -B -q -pl benchmarks -am -DskipTests package
 * java -cp benchmarks/target/benchmarks.jar dev.memhook.benchmarks.loop.MemoryLoopEval \
 *     --scenarios benchmarks/eval/loop-dev.jsonl [--embedder hashing|djl-int8] [--limit N] \
 *     [--modes hook-chat,hook-cli,chat-chat] [--examples N] [--json out.json] \
 *     [--scenario ID] [--keep DIR]
 * </pre>
 *
 * With {@code --keep DIR} the replayed stores stay in {@code DIR}, one directory per scenario
 * ({@code 00-<id>/hook}, {@code 00-<id>/chat}: its place in the run and its id), for {@code memhook
 * search --dir DIR/00-<id>/hook --explain "a probe"} to show why a probe missed; {@code --scenario
 * ID} replays that scenario alone.
 *
 * <p>Exit status 0 after a run, 2 on a bad argument (an option, or a scenario file, {@code
 * --scenario} or {@code --keep} the run cannot use). Progress goes to standard error, the report to
 * standard output. Not thread-safe; one run at a time.
 */
public final class MemoryLoopEval {

  static final String USAGE =
      "usage: MemoryLoopEval [--scenarios FILE.jsonl] [--embedder hashing|djl-int8]"
          + " [--limit N] [--modes hook-chat,hook-cli,chat-chat] [--examples N]"
          + " [--recall-timeout-ms N] [--json OUT.json] [--consolidator local|scripted]"
          + " [--scenario ID] [--keep DIR]";

  /** The scenario file used without {@code --scenarios}, relative to the working directory. */
  static final Path DEFAULT_SCENARIOS = Path.of("benchmarks/eval/loop-dev.jsonl");

  /**
   * The hook's recall timeout in the harness: far above the library's default, so that a loaded
   * machine measures what recall finds, not how fast it is; failures are counted apart.
   */
  static final Duration DEFAULT_RECALL_TIMEOUT = Duration.ofSeconds(10);

  /** How a scenario's sessions are replayed and its probes asked. */
  enum Mode {
    HOOK_CHAT("hook-chat", "observeJson replay, hookInto(FakeChatService) probe"),
    HOOK_CLI("hook-cli", "observeJson replay, memhook hook probe"),
    CHAT_CHAT("chat-chat", "hooked-chat replay, hookInto(FakeChatService) probe");

    final String key;
    final String title;

    Mode(String key, String title) {
      this.key = key;
      this.title = title;
    }

    boolean hookReplay() {
      return this != CHAT_CHAT;
    }

    static Mode of(String key) {
      for (Mode m : values()) {
        if (m.key.equals(key)) {
          return m;
        }
      }
      throw new IllegalArgumentException("unknown mode '" + key + "'\n" + USAGE);
    }
  }

  /**
   * The command line.
   *
   * @param scenarios the scenario file
   * @param embedder the embedder's name ({@link BenchEmbedders})
   * @param limit at most this many scenarios, from the start of the file
   * @param modes the modes to run, in {@link Mode} order
   * @param examples how many misses to print per mode
   * @param recallTimeout the hooks' recall timeout
   * @param json where to write the report as JSON, or null
   * @param scriptedConsolidator whether capture consolidates through {@link ScriptedConsolidator},
   *     a provider plugged in through the SPI, instead of the local consolidator
   * @param scenario the id of the one scenario to run, or null for all
   * @param keep where to keep the replayed stores (a directory that does not exist or is empty), or
   *     null to delete them
   */
  record Options(
      Path scenarios,
      String embedder,
      int limit,
      Set<Mode> modes,
      int examples,
      Duration recallTimeout,
      Path json,
      boolean scriptedConsolidator,
      String scenario,
      Path keep) {
    Options {
      Objects.requireNonNull(scenarios, "scenarios");
      Objects.requireNonNull(embedder, "embedder");
      modes = modes.isEmpty() ? EnumSet.noneOf(Mode.class) : EnumSet.copyOf(modes);
      Objects.requireNonNull(recallTimeout, "recallTimeout");
      if (limit < 1) {
        throw new IllegalArgumentException("--limit must be >= 1, got " + limit);
      }
      if (modes.isEmpty()) {
        throw new IllegalArgumentException("--modes names none");
      }
      if (examples < 0) {
        throw new IllegalArgumentException("--examples must be >= 0, got " + examples);
      }
    }

    /** Parses {@code args}; see {@link #USAGE}. */
    static Options parse(String... args) {
      Path scenarios = DEFAULT_SCENARIOS;
      String embedder = "djl-int8";
      int limit = Integer.MAX_VALUE;
      Set<Mode> modes = EnumSet.allOf(Mode.class);
      int examples = 5;
      Duration timeout = DEFAULT_RECALL_TIMEOUT;
      Path json = null;
      boolean scripted = false;
      String scenario = null;
      Path keep = null;
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        switch (a) {
          case "--scenarios" -> scenarios = Path.of(CommandLine.value(args, ++i));
          case "--embedder" -> embedder = CommandLine.value(args, ++i);
          case "--limit" -> limit = CommandLine.count(args, ++i);
          case "--modes" -> {
            modes = EnumSet.noneOf(Mode.class);
            for (String m : CommandLine.value(args, ++i).split(",")) {
              modes.add(Mode.of(m.strip()));
            }
          }
          case "--examples" -> examples = CommandLine.count(args, ++i);
          case "--recall-timeout-ms" -> timeout = Duration.ofMillis(CommandLine.count(args, ++i));
          case "--json" -> json = Path.of(CommandLine.value(args, ++i));
          case "--consolidator" -> {
            String c = CommandLine.value(args, ++i);
            if (!c.equals("local") && !c.equals("scripted")) {
              throw new IllegalArgumentException("unknown consolidator '" + c + "'\n" + USAGE);
            }
            scripted = c.equals("scripted");
          }
          case "--scenario" -> scenario = CommandLine.value(args, ++i);
          case "--keep" -> keep = Path.of(CommandLine.value(args, ++i));
          default -> throw new IllegalArgumentException("unknown option '" + a + "'\n" + USAGE);
        }
      }
      if (!embedder.equals("hashing") && !embedder.startsWith("djl-")) {
        throw new IllegalArgumentException("unknown embedder '" + embedder + "'\n" + USAGE);
      }
      return new Options(
          scenarios, embedder, limit, modes, examples, timeout, json, scripted, scenario, keep);
    }
  }

  /**
   * One probe's outcome, where its fact was in the store it was asked of, and, for a miss, why.
   *
   * @param outcome what was injected
   * @param where where the fact was
   * @param miss why an on-topic probe missed ({@link MissCause#NONE} otherwise)
   */
  record Scored(ProbeOutcome outcome, StoreCensus.Where where, MissCause.Traced miss) {

    /** {@code outcome} scored against the store it was asked of. */
    static Scored of(ProbeOutcome outcome, StoreCensus census) {
      LoopData.Probe p = outcome.probe();
      return new Scored(outcome, census.where(p), MissCause.of(outcome, census.holders(p)));
    }
  }

  /**
   * One mode's figures and outcomes.
   *
   * @param mode the mode
   * @param metrics its figures
   * @param scored every probe's outcome, in file order
   */
  record ModeResult(Mode mode, LoopMetrics metrics, List<Scored> scored) {
    ModeResult {
      scored = List.copyOf(scored);
    }
  }

  /**
   * What the replays stored, summed over scenarios.
   *
   * @param sessions sessions replayed
   * @param posted events posted (hook replay) or turns sent (chat replay)
   * @param accepted events capture accepted (hook replay only)
   * @param rejectedEvents events capture rejected as invalid
   * @param rejected messages of the first ten of them
   * @param observations raw observations in the stores at the end
   * @param distilled distilled memories in the stores at the end
   */
  record ReplayStats(
      int sessions,
      int posted,
      int accepted,
      int rejectedEvents,
      List<String> rejected,
      int observations,
      int distilled) {
    ReplayStats {
      rejected = List.copyOf(rejected);
    }
  }

  /**
   * A run's report.
   *
   * @param options how it ran
   * @param scenarios scenarios run
   * @param modes per mode run, in {@link Mode} order
   * @param replays per replay kind run ({@code hook}, {@code chat})
   * @param elapsed the wall-clock time of the run
   */
  record Report(
      Options options,
      int scenarios,
      List<ModeResult> modes,
      Map<String, ReplayStats> replays,
      Duration elapsed) {
    Report {
      modes = List.copyOf(modes);
      replays = Map.copyOf(replays);
    }

    /** The result of {@code mode}. */
    ModeResult mode(Mode mode) {
      return modes.stream()
          .filter(m -> m.mode() == mode)
          .findFirst()
          .orElseThrow(() -> new IllegalArgumentException("mode " + mode + " did not run"));
    }
  }

  private MemoryLoopEval() {}

  /** Runs the evaluation; see the class comment. */
  public static void main(String[] args) throws IOException {
    // the bundled model is on the class path: never fetch anything, as memhook itself does
    if (System.getProperty("ai.djl.offline") == null) {
      System.setProperty("ai.djl.offline", "true");
    }
    Options options = CommandLine.parseOrExit(Options::parse, args);
    Report report;
    try {
      report = run(options, System.out, System.err);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage()); // a file, scenario or directory the run cannot use
      System.exit(2);
      return;
    }
    if (options.json() != null) {
      LoopReportJson.write(report, options.json());
    }
  }

  /** Runs the evaluation, printing the report on {@code out} and progress on {@code progress}. */
  static Report run(Options options, PrintStream out, PrintStream progress) throws IOException {
    long started = System.nanoTime();
    LoopData data = LoopData.read(options.scenarios());
    if (options.scenario() != null) {
      data = data.only(options.scenario());
    }
    data = data.limit(options.limit());
    Path kept = options.keep() == null ? null : keepDirectory(options.keep());
    Map<Mode, List<Scored>> scored = new EnumMap<>(Mode.class);
    options.modes().forEach(m -> scored.put(m, new ArrayList<>()));
    ReplayTally hookTally = new ReplayTally();
    ReplayTally chatTally = new ReplayTally();
    boolean hookReplay = options.modes().stream().anyMatch(Mode::hookReplay);
    boolean chatReplay = options.modes().contains(Mode.CHAT_CHAT);
    Path root = Files.createTempDirectory("memhook-loop");
    try (LoopServices services =
        new LoopServices(
            BenchEmbedders.create(options.embedder()),
            options.recallTimeout(),
            options.scriptedConsolidator() ? new ScriptedConsolidator() : null)) {
      int done = 0;
      for (LoopData.Scenario s : data.scenarios()) {
        Path dir =
            kept == null
                ? root.resolve("s" + done)
                : kept.resolve(String.format(Locale.ROOT, "%02d-%s", done, fileName(s.id())));
        if (hookReplay) {
          Path store = dir.resolve("hook");
          StoreCensus census = null;
          List<LoopData.Session> sessions = s.sessions();
          for (int k = 0; k < sessions.size(); k++) {
            HookReplay.Replayed r =
                HookReplay.replay(
                    sessions.get(k), store, sessionClock(k, sessions.size()), services);
            hookTally.add(r.posted(), r.accepted(), r.rejected());
            census = r.census();
          }
          hookTally.census(census);
          for (LoopData.Probe p : s.probes()) {
            if (options.modes().contains(Mode.HOOK_CHAT)) {
              Path copy = copy(store, dir.resolve("probe"));
              scored
                  .get(Mode.HOOK_CHAT)
                  .add(Scored.of(ChatProbe.ask(p, copy, Clock.systemUTC(), services), census));
              delete(copy);
            }
            if (options.modes().contains(Mode.HOOK_CLI)) {
              Path copy = copy(store, dir.resolve("probe"));
              scored.get(Mode.HOOK_CLI).add(Scored.of(CliProbe.ask(p, copy), census));
              delete(copy);
            }
          }
        }
        if (chatReplay) {
          Path store = dir.resolve("chat");
          StoreCensus census = null;
          List<LoopData.Session> sessions = s.sessions();
          for (int k = 0; k < sessions.size(); k++) {
            census =
                ChatReplay.replay(
                    sessions.get(k), store, sessionClock(k, sessions.size()), services);
            chatTally.add(ChatReplay.turns(sessions.get(k)).size(), 0, List.of());
          }
          chatTally.census(census);
          for (LoopData.Probe p : s.probes()) {
            Path copy = copy(store, dir.resolve("probe"));
            scored
                .get(Mode.CHAT_CHAT)
                .add(Scored.of(ChatProbe.ask(p, copy, Clock.systemUTC(), services), census));
            delete(copy);
          }
        }
        if (kept == null) {
          delete(dir);
        }
        done++;
        progress.printf(
            Locale.ROOT,
            "[loop] %d/%d scenarios, %s%n",
            done,
            data.scenarios().size(),
            elapsed(started));
      }
    } finally {
      delete(root);
    }
    if (kept != null) {
      progress.printf(Locale.ROOT, "[loop] the replayed stores are kept in %s%n", kept);
    }
    List<ModeResult> modes = new ArrayList<>();
    scored.forEach(
        (mode, list) ->
            modes.add(
                new ModeResult(
                    mode,
                    LoopMetrics.of(mode.key, list.stream().map(Scored::outcome).toList()),
                    list)));
    Map<String, ReplayStats> replays = new TreeMap<>();
    if (hookReplay) {
      replays.put("hook", hookTally.stats());
    }
    if (chatReplay) {
      replays.put("chat", chatTally.stats());
    }
    Report report =
        new Report(
            options,
            data.scenarios().size(),
            modes,
            replays,
            Duration.ofNanos(System.nanoTime() - started));
    LoopReportPrinter.print(report, out);
    return report;
  }

  /**
   * The clock of session {@code k} of {@code n}: {@code n - k} days before now, so the last session
   * is a day before the probes.
   */
  static Clock sessionClock(int k, int n) {
    return Clock.offset(Clock.systemUTC(), Duration.ofDays(-(n - k)));
  }

  private static String elapsed(long started) {
    long s = Duration.ofNanos(System.nanoTime() - started).toSeconds();
    return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
  }

  /** A copy of the directory tree {@code from} at {@code to}, which must not exist. */
  static Path copy(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Path target = to.resolve(from.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(target);
        } else {
          Files.copy(f, target);
        }
      }
    }
    return to;
  }

  /**
   * {@code dir}, created if it does not exist; refused when it is not a directory or holds
   * anything, so that a run never mixes its stores with another's or deletes what it did not make.
   */
  static Path keepDirectory(Path dir) throws IOException {
    if (Files.exists(dir)) {
      if (!Files.isDirectory(dir)) {
        throw new IllegalArgumentException("--keep " + dir + " is not a directory");
      }
      try (var entries = Files.list(dir)) {
        if (entries.findAny().isPresent()) {
          throw new IllegalArgumentException("--keep " + dir + " is not empty");
        }
      }
    }
    return Files.createDirectories(dir);
  }

  /** {@code id} as a file name: every character but a letter, digit, '.', '_' or '-' as '_'. */
  static String fileName(String id) {
    String name = id.replaceAll("[^A-Za-z0-9._-]", "_");
    return name.startsWith(".") ? "_" + name.substring(1) : name;
  }

  /** Deletes the tree at {@code dir}, if any. */
  static void delete(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    Files.walkFileTree(
        dir,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
              throws IOException {
            Files.delete(file);
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
            if (e != null) {
              throw new UncheckedIOException(e);
            }
            Files.delete(d);
            return FileVisitResult.CONTINUE;
          }
        });
  }

  /** Sums replays up. */
  private static final class ReplayTally {
    private int sessions;
    private int posted;
    private int accepted;
    private int rejectedEvents;
    private final List<String> rejected = new ArrayList<>();
    private int observations;
    private int distilled;

    void add(int posted, int accepted, List<String> rejected) {
      this.sessions++;
      this.posted += posted;
      this.accepted += accepted;
      this.rejectedEvents += rejected.size();
      for (String r : rejected) {
        if (this.rejected.size() < 10) {
          this.rejected.add(r);
        }
      }
    }

    void census(StoreCensus census) {
      observations += census.observations();
      distilled += census.distilled();
    }

    ReplayStats stats() {
      return new ReplayStats(
          sessions, posted, accepted, rejectedEvents, rejected, observations, distilled);
    }
  }
}
