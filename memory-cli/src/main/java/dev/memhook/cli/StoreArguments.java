package dev.memhook.cli;

import dev.memhook.api.IncompatibleStoreException;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryStoreException;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.EmbeddingSpace;
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
  static final String DEFAULT_DIRECTORY = StoreDirectory.DEFAULT_DIRECTORY;

  /** The environment variable naming the store directory. */
  static final String DIR_VARIABLE = StoreDirectory.DIR_VARIABLE;

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
          "auto (the model the store was built with; MiniLM for a new store; a store of a model"
              + " memhook does not have is read, edited and searched by words without it), minilm"
              + " or hashing. Default: ${DEFAULT-VALUE}.")
  EmbedderChoice embedder = EmbedderChoice.AUTO;

  @Option(names = "--json", description = "Print JSON with stable field names, for scripts.")
  boolean json;

  /** The store directory this run works on: the server's own when it runs the command. */
  Path directory(CliContext context) {
    return context.served().map(ServedStore::directory).orElseGet(() -> directory(dir, context));
  }

  /** The store directory as the user named it, to print: the client's name when served. */
  Path namedDirectory(CliContext context) {
    return context.served().map(ServedStore::named).orElseGet(() -> directory(dir, context));
  }

  /** {@code given}, else {@code $MEMHOOK_DIR}, else {@value #DEFAULT_DIRECTORY}. */
  static Path directory(Path given, CliContext context) {
    return StoreDirectory.resolve(given, context.env());
  }

  /**
   * Refuses to run the command in a server ({@link ServedStore#decline}) when it runs in one, for
   * {@code why}; the client then runs it in its own process. Does nothing otherwise.
   */
  void runHere(CliContext context, String why) {
    if (context.served().isPresent()) {
      throw context.served().get().decline(why);
    }
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
   * Whether a store that recorded {@code info}'s space opens here without its model ({@link
   * UnbundledModel}): with {@code --embedder auto}, when memhook does not have the model.
   */
  boolean readsWithoutModel(IndexInfo info) {
    return embedder == EmbedderChoice.AUTO
        && info.space() != null
        && !EmbedderChoice.offers(info.space());
  }

  /**
   * The store opened read-only: no lock, so it works while another process has it open; it shows
   * that process's writes as of its last commit (about a second old).
   *
   * @throws CliException ({@link ExitCode#STORE_UNAVAILABLE}) if it cannot be opened
   */
  MemoryService openReadOnly(CliContext context, RecallOptions recall) {
    runHere(context, "the server's store recalls with the default recall options");
    IndexInfo info = info(context);
    Memhook.Builder builder =
        Memhook.builder().directory(directory(context)).readOnly().recallOptions(recall);
    return open(builder, info, context);
  }

  /**
   * {@link #openReadOnly(CliContext, RecallOptions)} with the default recall options; in a server,
   * the server's store, lent ({@link ServedStore#lend}).
   */
  MemoryService openReadOnly(CliContext context) {
    if (context.served().isPresent()) {
      return lent(context.served().get());
    }
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
    return openWritable(context, captureScope, create, null);
  }

  /**
   * {@link #openWritable(CliContext, Scope, boolean)}, where a new store's embedder, if {@code
   * --embedder} is {@code auto}, is chosen for {@code preferred} as for a store that recorded it
   * ({@code import} of an export whose vectors are in that space); null chooses as for any new
   * store.
   */
  MemoryService openWritable(
      CliContext context, Scope captureScope, boolean create, EmbeddingSpace preferred) {
    if (context.served().isPresent()) {
      // a command a server runs captures nothing: the server's capture scope does not matter
      return lent(context.served().get());
    }
    Path directory = directory(context);
    IndexInfo info = create && !hasIndex(directory) ? null : info(context);
    refuseLocked(info, directory);
    EmbeddingSpace recorded = info == null ? null : info.space();
    Embedder chosen = embedder.create(recorded == null ? preferred : recorded);
    if (chosen instanceof UnbundledModel) {
      if (recorded != null) {
        throw new CliException(
            ExitCode.STORE_UNAVAILABLE,
            "this command writes to the store at "
                + directory
                + ", and "
                + UnbundledModel.explain(recorded));
      }
      chosen = embedder.create(null); // a new store: the import embeds again what it cannot reuse
    }
    return open(writable(directory).capture(captureOptions(captureScope)), chosen, context);
  }

  /**
   * The store opened for writing what needs no new vector ({@code forget}, {@code compact}): as
   * {@link #openWritable(CliContext, Scope, boolean)} into {@link Scope#DEFAULT}, except that a
   * store built with a model memhook does not have opens too, without capture, whose replay would
   * need the model (the events an earlier process left in the journal stay there for the next
   * process that captures with it).
   *
   * @throws CliException ({@link ExitCode#STORE_UNAVAILABLE}) if it cannot be opened, naming a lock
   *     another process holds
   */
  MemoryService openForUpkeep(CliContext context) {
    if (context.served().isPresent()) {
      return lent(context.served().get());
    }
    Path directory = directory(context);
    IndexInfo info = info(context);
    refuseLocked(info, directory);
    Embedder chosen = embedder.create(info.space());
    Memhook.Builder builder = writable(directory);
    if (chosen instanceof UnbundledModel) {
      builder.noCapture();
    } else {
      builder.capture(captureOptions(Scope.DEFAULT));
    }
    return open(builder, chosen, context);
  }

  private static void refuseLocked(IndexInfo info, Path directory) {
    if (info != null && info.writeLocked()) {
      throw new CliException(
          ExitCode.STORE_UNAVAILABLE,
          "the store at "
              + directory
              + " is open in another process, and this command writes: close that process and"
              + " retry (stats, list, show, search, export and doctor work meanwhile)");
    }
  }

  private static Memhook.Builder writable(Path directory) {
    return Memhook.builder().directory(directory).redaction(REDACTION);
  }

  private static CaptureOptions captureOptions(Scope captureScope) {
    return CaptureOptions.builder()
        .scope(captureScope)
        .keepSessionsOpenOnClose()
        .closeTimeout(CLOSE_TIMEOUT)
        .build();
  }

  /**
   * The server's store for this command, unless {@code --embedder} names a model: the server's
   * store was opened with its own choice, which a command cannot change.
   */
  private MemoryService lent(ServedStore served) {
    if (embedder != EmbedderChoice.AUTO) {
      throw served.decline("--embedder chooses a model; the server's store has its own");
    }
    return served.lend();
  }

  private MemoryService open(Memhook.Builder builder, IndexInfo info, CliContext context) {
    return open(builder, embedder.create(info == null ? null : info.space()), context);
  }

  private MemoryService open(Memhook.Builder builder, Embedder chosen, CliContext context) {
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
          e.getMessage()
              + " (--embedder auto opens the store with its own model, or reads it when memhook"
              + " does not have that model)",
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

  /** Whether {@code directory} holds a store's index (it may not be readable). */
  static boolean hasIndex(Path directory) {
    try (Stream<Path> files = Files.list(directory)) {
      return files.anyMatch(f -> f.getFileName().toString().startsWith("segments_"));
    } catch (IOException e) {
      return false;
    }
  }
}
