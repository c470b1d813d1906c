package dev.memhook.cli;

import dev.memhook.api.IncompatibleStoreException;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryStoreException;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.spi.Embedder;
import dev.memhook.core.Memhook;
import dev.memhook.core.Redaction;
import dev.memhook.lucene.IndexInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import picocli.CommandLine.Option;

/**
 * The options every command that opens a store shares ({@code --dir}, {@code --embedder}, {@code
 * --json}), and the two ways a command opens it: read-only, beside any other process, or for
 * writing, alone. Not thread-safe; one per command run.
 */
final class StoreArguments {

  /** The directory used without {@code --dir} and {@code MEMHOOK_DIR}, relative to the cwd. */
  static final String DEFAULT_DIRECTORY = "memhook-data";

  /** The environment variable naming the store directory. */
  static final String DIR_VARIABLE = "MEMHOOK_DIR";

  /**
   * What the stores the command writes redact, and so what the hook's spool and log redact before
   * they write anything: the built-in rules.
   */
  static final Redaction REDACTION = Redaction.defaults();

  /**
   * How long closing a store the command wrote waits for capture: a minute, as long as capture
   * waited before it had a bound of its own. A {@code SessionEnd}'s consolidation runs in the hook
   * run that takes the event in, or in the next one that replays it; a bound shorter than the work
   * would leave it to the next run, which could cut it short again.
   */
  static final Duration CLOSE_TIMEOUT = Duration.ofMinutes(1);

  @Option(
      names = "--dir",
      paramLabel = "DIR",
      description =
          "The store directory. Default: $" + DIR_VARIABLE + ", else ./" + DEFAULT_DIRECTORY + ".")
  Path dir;

  @Option(
      names = "--embedder",
      paramLabel = "NAME",
      description =
          "auto (the model the store was built with; MiniLM for a new store), minilm or hashing."
              + " Default: ${DEFAULT-VALUE}.")
  EmbedderChoice embedder = EmbedderChoice.AUTO;

  @Option(names = "--json", description = "Print JSON with stable field names, for scripts.")
  boolean json;

  /** The store directory this run works on. */
  Path directory(CliContext context) {
    return directory(dir, context);
  }

  /** {@code given}, else {@code $MEMHOOK_DIR}, else {@value #DEFAULT_DIRECTORY}. */
  static Path directory(Path given, CliContext context) {
    if (given != null) {
      return given;
    }
    String fromEnv = context.env().get(DIR_VARIABLE);
    return Path.of(fromEnv != null && !fromEnv.isBlank() ? fromEnv : DEFAULT_DIRECTORY);
  }

  /**
   * What the last commit of the store says about itself.
   *
   * @throws CliException ({@link ExitCode#STORE_UNAVAILABLE}) if there is no readable store
   */
  IndexInfo info(CliContext context) {
    Path directory = directory(context);
    try {
      return IndexInfo.read(directory);
    } catch (MemoryStoreException e) {
      throw new CliException(
          ExitCode.STORE_UNAVAILABLE,
          e.getMessage()
              + " (the store directory is --dir, else $"
              + DIR_VARIABLE
              + ", else ./"
              + DEFAULT_DIRECTORY
              + ")",
          e);
    }
  }

  /**
   * The store opened read-only: no lock, so it works while another process has it open; it shows
   * that process's writes as of its last commit (about a second old).
   *
   * @throws CliException ({@link ExitCode#STORE_UNAVAILABLE}) if it cannot be opened
   */
  MemoryService openReadOnly(CliContext context, RecallOptions recall) {
    IndexInfo info = info(context);
    Memhook.Builder builder =
        Memhook.builder().directory(directory(context)).readOnly().recallOptions(recall);
    return open(builder, info, context);
  }

  /** {@link #openReadOnly(CliContext, RecallOptions)} with the default recall options. */
  MemoryService openReadOnly(CliContext context) {
    return openReadOnly(context, RecallOptions.defaults());
  }

  /**
   * The store opened for writing, capturing into {@code captureScope}; the directory is created if
   * {@code create}, else it must hold a store.
   *
   * <p>Closing it leaves the captured sessions open ({@code keepSessionsOpenOnClose}), whatever the
   * command: the sessions in a store the CLI writes are a coding agent's, taken in by {@code
   * memhook hook} one short process per event and by {@code memhook mcp}, and every command that
   * opens the store for writing replays what another left in the journal. A session ends with its
   * agent's {@code SessionEnd} event, or when a later run finds it idle past the timeout.
   *
   * @throws CliException ({@link ExitCode#STORE_UNAVAILABLE}) if it cannot be opened, naming a lock
   *     another process holds
   */
  MemoryService openWritable(CliContext context, Scope captureScope, boolean create) {
    Path directory = directory(context);
    IndexInfo info = create && !hasIndex(directory) ? null : info(context);
    if (info != null && info.writeLocked()) {
      throw new CliException(
          ExitCode.STORE_UNAVAILABLE,
          "the store at "
              + directory
              + " is open in another process, and this command writes: close that process and"
              + " retry (stats, list, show, search, export and doctor work meanwhile)");
    }
    Memhook.Builder builder =
        Memhook.builder()
            .directory(directory)
            .redaction(REDACTION)
            .capture(
                CaptureOptions.builder()
                    .scope(captureScope)
                    .keepSessionsOpenOnClose()
                    .closeTimeout(CLOSE_TIMEOUT)
                    .build());
    return open(builder, info, context);
  }

  private MemoryService open(Memhook.Builder builder, IndexInfo info, CliContext context) {
    Embedder chosen = embedder.create(info == null ? null : info.space());
    builder.embedder(chosen);
    try {
      return builder.build();
    } catch (RuntimeException e) {
      chosen.close(); // a failed build leaves what it was given to its caller
      throw mapped(e, context);
    }
  }

  private RuntimeException mapped(RuntimeException failure, CliContext context) {
    try {
      throw failure;
    } catch (IncompatibleStoreException e) {
      return new CliException(
          ExitCode.STORE_UNAVAILABLE,
          e.getMessage() + " (choose the model with --embedder; auto picks the store's own)",
          e);
    } catch (MemoryStoreException e) {
      return new CliException(
          ExitCode.STORE_UNAVAILABLE,
          "cannot open the store at " + directory(context) + ": " + e.getMessage(),
          e);
    } catch (RuntimeException e) {
      return e;
    }
  }

  private static boolean hasIndex(Path directory) {
    try (Stream<Path> files = Files.list(directory)) {
      return files.anyMatch(f -> f.getFileName().toString().startsWith("segments_"));
    } catch (IOException e) {
      return false;
    }
  }
}
