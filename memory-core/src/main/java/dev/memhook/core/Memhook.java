package dev.memhook.core;

import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.EmbedderProvider;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.SessionStore;
import dev.memhook.api.trace.MemoryListener;
import dev.memhook.core.internal.inject.RecallPool;
import dev.memhook.lucene.LuceneMemoryStore;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.Executor;

/**
 * The entry point: builds a {@link MemoryService}.
 *
 * <pre>{@code
 * try (MemoryService memory = Memhook.builder().directory(Path.of("memory")).build();
 *      MemoryHook hook = memory.hookInto(chat)) {
 *   ...
 * }
 * }</pre>
 *
 * <p>Stateless; thread-safe.
 */
public final class Memhook {

  /** The capture journal's directory inside a {@link Builder#directory(Path)}. */
  public static final String JOURNAL_DIRECTORY = "journal";

  private Memhook() {}

  /** A new builder. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Builds a {@link MemoryService}. Not thread-safe.
   *
   * <p><b>Setters only record.</b> Nothing is opened, locked, loaded or started before {@link
   * #build()}: a setter checks its argument and remembers it. Each setter may be called at most
   * once per builder (a second call throws {@link IllegalStateException} naming what was already
   * set), as in Caffeine's builders: a repeated or conflicting choice is a mistake to report, not
   * to resolve silently. A builder builds one service.
   *
   * <p>Required: where memories live, by {@link #directory(Path)} (the embedded default, Lucene on
   * disk), {@link #inMemory()} (Lucene on a heap directory) or {@link #store(MemoryStore)}.
   * Optional: the embedder (default: the highest-priority {@link EmbedderProvider} found by {@link
   * ServiceLoader}, such as the local MiniLM model of {@code memory-djl-embeddings}, else {@link
   * HashingEmbedder} with a logged notice), recall options (default {@link
   * RecallOptions#defaults()}), the executor hooks recall on (default: see below), the clock
   * (default UTC), and what is redacted before anything is stored (default {@link
   * Redaction#defaults()}).
   *
   * <p><b>The default executor</b> is a daemon pool of {@code max(2, cores)} threads named {@code
   * memhook-recall-N} whose queue holds at most {@value RecallPool#QUEUED_PER_THREAD} waiting
   * recalls per thread. When it is full, a new recall is refused at once: that callback completes
   * without injecting and reports a {@link java.util.concurrent.RejectedExecutionException} to its
   * {@link dev.memhook.api.trace.MemoryListener}, and the host's turn goes on. The reason for the
   * bound: a callback stops waiting after its recall timeout, so a recall queued deep behind others
   * would mostly run after nobody waits for it, and an unbounded queue of such dead work makes
   * every later recall wait behind it. A callback that stops waiting also withdraws its recall if
   * it has not started. An executor set with {@link #executor(Executor)} is used as given: its
   * queue and its rejection policy are the host's.
   *
   * <p><b>Ownership</b> (the one place it is stated):
   *
   * <ul>
   *   <li>The built service owns the store, the embedder and the session store, whether the builder
   *       opened them or the host passed them in, and closes them when it is closed. To share one
   *       store or embedder between services, pass each a view whose {@code close()} does nothing
   *       and close the real one yourself.
   *   <li>The service shuts down the executor only if the builder created it; an executor the host
   *       passed in is the host's, used and never shut down.
   *   <li>If {@code build()} fails, it closes everything it opened itself (the store of {@code
   *       directory} or {@code inMemory}, a discovered embedder, the executor it created) and none
   *       of what the host passed in, which stays the host's. So a failed build leaves no lock
   *       held, and a retry in the same JVM can open the same directory.
   * </ul>
   */
  public static final class Builder {
    private MemoryStore givenStore;
    private Path directory;
    private boolean inMemory;
    private boolean readOnly;
    private Embedder embedder;
    private RecallOptions recallOptions;
    private Executor executor;
    private Clock clock;
    private Redaction redaction;
    private CaptureOptions captureOptions;
    private boolean noCapture;
    private SessionStore sessionStore;
    private MemoryListener listener;
    private boolean built;

    private Builder() {}

    /**
     * Stores memories in {@code store}, which the built service then owns (see ownership above).
     */
    public Builder store(MemoryStore value) {
      Objects.requireNonNull(value, "store");
      checkStoreUnset();
      this.givenStore = value;
      return this;
    }

    /**
     * Stores memories in the embedded default: a {@link LuceneMemoryStore} in {@code directory}
     * (created by {@link #build()} if missing), durable when {@code remember}, {@code update},
     * {@code forget} or {@code rememberAll} returns. A write is acknowledged once it is in the
     * write-ahead journal in the {@value #JOURNAL_DIRECTORY} subdirectory (the one capture uses)
     * and the journal is forced to the disk, with one fsync shared by the writers waiting at the
     * time; the index commits in the background about every second, and the next {@code build()} on
     * the directory replays what a crash kept from the index. The same directory reopens every
     * acknowledged memory; it is locked while the service is open. Nothing touches the directory
     * before {@link #build()}.
     */
    public Builder directory(Path directory) {
      Objects.requireNonNull(directory, "directory");
      checkStoreUnset();
      this.directory = directory;
      return this;
    }

    /**
     * Opens the {@link #directory(Path)} read-only ({@link LuceneMemoryStore.Builder#readOnly()}):
     * no lock, works on a read-only directory and on a damaged index (its readable segments);
     * recall, get and {@link dev.memhook.api.MemoryMaintenance#export} work, every write throws
     * {@link IllegalStateException}. Needs {@code directory}. It reads the index's last commit and
     * not the journal: writes acknowledged since that commit (about the last second of them, or
     * more after a crash) show once a writable service has opened the directory and replayed them.
     * It captures nothing, so {@link #build()} throws with {@link #capture(CaptureOptions)} or
     * {@link #sessionStore(SessionStore)}.
     */
    public Builder readOnly() {
      checkUnset("readOnly", readOnly ? Boolean.TRUE : null);
      this.readOnly = true;
      return this;
    }

    /**
     * Stores memories in a new {@link LuceneMemoryStore} on a heap directory, opened by {@link
     * #build()}: the same ranking as the embedded default, and nothing survives {@link
     * MemoryService#close()}.
     */
    public Builder inMemory() {
      checkStoreUnset();
      this.inMemory = true;
      return this;
    }

    /** Embeds with {@code value}, which the built service then owns (see ownership above). */
    public Builder embedder(Embedder value) {
      Objects.requireNonNull(value, "embedder");
      checkUnset("embedder", embedder);
      this.embedder = value;
      return this;
    }

    /** Ranks and filters recall with {@code value}. */
    public Builder recallOptions(RecallOptions value) {
      Objects.requireNonNull(value, "recallOptions");
      checkUnset("recallOptions", recallOptions);
      this.recallOptions = value;
      return this;
    }

    /** Runs hook recalls on {@code value}; the service never shuts it down. */
    public Builder executor(Executor value) {
      Objects.requireNonNull(value, "executor");
      checkUnset("executor", executor);
      this.executor = value;
      return this;
    }

    /** Reads time from {@code value}. */
    public Builder clock(Clock value) {
      Objects.requireNonNull(value, "clock");
      checkUnset("clock", clock);
      this.clock = value;
      return this;
    }

    /**
     * Redacts every stored text with {@code value}: the built-in rules, plus the host rules and
     * personal-data rules it adds. A host rule that spends its time budget on a text makes that
     * write fail with {@link IllegalArgumentException}; nothing of it is stored.
     */
    public Builder redaction(Redaction value) {
      Objects.requireNonNull(value, "redaction");
      checkUnset("redaction", redaction);
      this.redaction = value;
      return this;
    }

    /**
     * Captures lifecycle events and hooked conversations with {@code value} instead of {@link
     * CaptureOptions#defaults()}. Capture is on by default: {@link
     * dev.memhook.api.capture.MemoryCapture#observe} works and hooks capture their conversations
     * (each hook can turn that off in its {@link dev.memhook.api.HookOptions}). With {@link
     * #directory(Path)}, the capture journal and session records live in its {@code journal}
     * subdirectory unless {@code value} names another; with {@link #inMemory()} or {@link
     * #store(MemoryStore)} and no journal directory, accepted events are kept in memory until
     * processed and do not survive a crash. {@link #build()} throws with {@link #readOnly()}, which
     * captures nothing.
     */
    public Builder capture(CaptureOptions value) {
      Objects.requireNonNull(value, "capture");
      checkUnset("capture", captureOptions != null ? captureOptions : noCapture ? "off" : null);
      this.captureOptions = value;
      return this;
    }

    /**
     * Turns capture off: {@link dev.memhook.api.capture.MemoryCapture#observe} throws {@link
     * IllegalStateException}, and hooks capture nothing. With {@link #directory(Path)} the journal
     * is still opened for the store's writes; events a capturing service of the same directory
     * accepted and had not stored stay in it, untouched, for the next service that captures (a
     * warning at build says how many: until such a service opens, the journal also keeps every
     * write made after them).
     */
    public Builder noCapture() {
      checkUnset("capture", captureOptions != null ? captureOptions : noCapture ? "off" : null);
      this.noCapture = true;
      return this;
    }

    /**
     * Keeps capture's session records in {@code value} instead of the default (files in the journal
     * directory's {@code sessions} subdirectory, or memory when there is no journal directory); the
     * journal itself stays where it was. For several services sharing one PostgreSQL store, pass
     * each its {@code sessionStore()}: each then continues the sessions the others captured (see
     * {@link SessionStore#shared()}). The built service owns the store, as it owns the memory store
     * (see ownership above). Needs capture: {@link #build()} throws with {@link #noCapture()} or
     * {@link #readOnly()}.
     */
    public Builder sessionStore(SessionStore value) {
      Objects.requireNonNull(value, "sessionStore");
      checkUnset("sessionStore", sessionStore);
      this.sessionStore = value;
      return this;
    }

    /**
     * Receives the service's injection receipts, the model's {@code get_memory} fetches and capture
     * events, on a thread of its own (see {@link MemoryListener}); a hook's own listener ({@link
     * dev.memhook.api.HookOptions.Builder#listener}) gets that hook's besides.
     */
    public Builder listener(MemoryListener value) {
      Objects.requireNonNull(value, "listener");
      checkUnset("listener", listener);
      this.listener = value;
      return this;
    }

    /**
     * Opens what was chosen and builds the service, then warms its recall path: the embedder embeds
     * one fixed question, so the first hooked turn does not pay for the model's first run and time
     * out (a failed warm-up is logged and ignored; the store is not touched). On failure, closes
     * what it opened (see ownership above) and rethrows.
     *
     * @throws IllegalStateException if no store was chosen, two choices conflict ({@code
     *     readOnly()} with {@code capture(...)} or {@code sessionStore(...)}, say), or this builder
     *     already built a service
     * @throws dev.memhook.api.MemoryStoreException if the store cannot be opened (for example, its
     *     directory is locked by another open store)
     * @throws dev.memhook.api.IncompatibleStoreException if the store holds vectors of another
     *     model
     */
    public MemoryService build() {
      if (built) {
        throw new IllegalStateException(
            "this builder already built a service; use a new builder for another");
      }
      if (givenStore == null && directory == null && !inMemory) {
        throw new IllegalStateException(
            "choose where memories live: directory(path), store(...) or inMemory()");
      }
      if (readOnly && directory == null) {
        throw new IllegalStateException("readOnly() opens a directory: choose directory(path)");
      }
      if (captureOptions != null && readOnly) {
        throw new IllegalStateException(
            "capture("
                + captureOptions
                + ") captures, but readOnly() writes nothing: drop one of them");
      }
      if (sessionStore != null && (noCapture || readOnly)) {
        throw new IllegalStateException(
            "sessionStore("
                + sessionStore
                + ") keeps captured sessions, but capture is off by "
                + (noCapture ? "noCapture()" : "readOnly()"));
      }
      built = true;
      return ServiceAssembly.open(config());
    }

    /** What this builder resolved: every default filled in, every mode explicit. */
    private ServiceConfig config() {
      ServiceConfig.Storage storage =
          givenStore != null
              ? new ServiceConfig.HostStore(givenStore)
              : directory != null
                  ? new ServiceConfig.OnDisk(
                      directory,
                      readOnly ? ServiceConfig.Access.READ_ONLY : ServiceConfig.Access.READ_WRITE)
                  : new ServiceConfig.InMemory();
      return new ServiceConfig(
          storage,
          Optional.ofNullable(embedder),
          recallOptions != null ? recallOptions : RecallOptions.defaults(),
          clock != null ? clock : Clock.systemUTC(),
          Optional.ofNullable(executor),
          redaction != null ? redaction : Redaction.defaults(),
          noCapture || readOnly
              ? Optional.empty()
              : Optional.of(captureOptions != null ? captureOptions : CaptureOptions.defaults()),
          Optional.ofNullable(sessionStore),
          listener != null ? listener : MemoryListener.NONE);
    }

    private void checkStoreUnset() {
      if (givenStore != null || directory != null || inMemory) {
        String chosen =
            givenStore != null
                ? "store(" + givenStore + ")"
                : directory != null ? "directory(" + directory + ")" : "inMemory()";
        throw new IllegalStateException("where memories live was already chosen: " + chosen);
      }
    }

    private static void checkUnset(String name, Object current) {
      if (current != null) {
        throw new IllegalStateException(name + " was already set to " + current);
      }
    }
  }
}
