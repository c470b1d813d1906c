package dev.memhook.api.capture;

import dev.memhook.api.MemoryDraft;
import dev.memhook.api.Scope;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;

/**
 * How the service captures lifecycle events ({@link dev.memhook.api.MemoryService#observe}) and the
 * conversations it is hooked into.
 *
 * <p>Immutable and thread-safe; use {@link #builder()} or {@link #defaults()}. {@code compressor},
 * {@code consolidator} and {@code journalDirectory} may be null (the local defaults, and the
 * journal placed by the service); every other component is non-null.
 *
 * @param scope the scope observations and consolidated memories are stored in
 * @param scopePerProject whether each project gets its own scope below {@code scope}: the project
 *     name with every character outside {@code [A-Za-z0-9._@+-]} replaced by {@code -}, cut to 64
 * @param queueCapacity how many accepted events may wait for the pipeline
 * @param shedPolicy what a full queue does
 * @param batchSize how many events the pipeline stores (and embeds) together at most
 * @param maxRawChars the longest raw observation kept, in characters; each longer part of an event
 *     is cut with a visible marker
 * @param sessionIdleTimeout how long a session may go without events before it is abandoned
 * @param consolidateOnSessionEnd whether an ended or abandoned session is consolidated at once
 * @param endSessionsOnClose whether closing the service ends the sessions it holds open: each
 *     session an event was captured of in this lifetime of the service (a hooked conversation, an
 *     observed session without its {@code SessionEnd} yet) is ended as {@link
 *     dev.memhook.api.SessionStatus#CLOSED} and, with {@code consolidateOnSessionEnd}, consolidated
 * @param closeTimeout how long {@code close} waits for capture to process what it accepted and end
 *     the sessions it holds open. When it passes, close cuts capture short: a provider call in
 *     flight is cancelled, a consolidation not yet stored is dropped without recording its session
 *     ended, and what is left stays in the journal, where the next open on the same journal
 *     finishes it, each session end once (a service without a journal directory loses it)
 * @param compressor an optional provider compressor; null compresses locally
 * @param compressorTimeout how long one compressor call may take
 * @param compressorCallsPerMinute how many compressor calls one minute may take; the rest are
 *     compressed locally
 * @param consolidator an optional provider consolidator; null consolidates heuristically
 * @param consolidatorTimeout how long one consolidator call may take; capture waits for it
 * @param consolidatorCallsPerMinute how many consolidator calls one minute may take; the rest of
 *     the sessions are consolidated heuristically
 * @param journalDirectory where the capture journal lives; null puts it in a {@code journal}
 *     directory inside the store's directory, or, for a store without one, keeps accepted events in
 *     memory only (then they do not survive a crash)
 * @param syncInterval how often the journal is forced to the disk; an accepted event survives a
 *     crash of the JVM at once, and a crash of the machine after the next sync
 */
public record CaptureOptions(
    Scope scope,
    boolean scopePerProject,
    int queueCapacity,
    ShedPolicy shedPolicy,
    int batchSize,
    int maxRawChars,
    Duration sessionIdleTimeout,
    boolean consolidateOnSessionEnd,
    boolean endSessionsOnClose,
    Duration closeTimeout,
    Compressor compressor,
    Duration compressorTimeout,
    int compressorCallsPerMinute,
    Consolidator consolidator,
    Duration consolidatorTimeout,
    int consolidatorCallsPerMinute,
    Path journalDirectory,
    Duration syncInterval) {

  /** Default {@link #queueCapacity()}: 4,096 events, a few seconds of a busy agent. */
  public static final int DEFAULT_QUEUE_CAPACITY = 4_096;

  /** Default {@link #batchSize()}: 64 events, where batched embedding stops getting cheaper. */
  public static final int DEFAULT_BATCH_SIZE = 64;

  /**
   * Default {@link #maxRawChars()}: the longest memory content, {@value MemoryDraft#MAX_CONTENT}.
   */
  public static final int DEFAULT_MAX_RAW_CHARS = MemoryDraft.MAX_CONTENT;

  /** The least {@link #maxRawChars()} may be. */
  public static final int MIN_RAW_CHARS = 1_000;

  /** Default {@link #sessionIdleTimeout()}: 30 minutes. */
  public static final Duration DEFAULT_SESSION_IDLE_TIMEOUT = Duration.ofMinutes(30);

  /**
   * Default {@link #closeTimeout()}: 5 seconds. Long enough to store what is queued and consolidate
   * a few sessions locally; short enough to fit the grace period a container runtime gives a
   * stopping process before it kills it (Docker's is ten seconds), so what a kill would cut off is
   * left whole in the journal instead.
   */
  public static final Duration DEFAULT_CLOSE_TIMEOUT = Duration.ofSeconds(5);

  /**
   * The longest {@link #closeTimeout()}: an hour, past any shutdown grace period, which keeps the
   * deadline's arithmetic exact.
   */
  public static final Duration MAX_CLOSE_TIMEOUT = Duration.ofHours(1);

  /** Default {@link #compressorTimeout()}: 10 seconds. */
  public static final Duration DEFAULT_COMPRESSOR_TIMEOUT = Duration.ofSeconds(10);

  /** Default {@link #compressorCallsPerMinute()}: 60. */
  public static final int DEFAULT_COMPRESSOR_CALLS_PER_MINUTE = 60;

  /**
   * Default {@link #consolidatorTimeout()}: 30 seconds. A model reads a whole session, which takes
   * longer than one observation; capture waits for it, so not much longer.
   */
  public static final Duration DEFAULT_CONSOLIDATOR_TIMEOUT = Duration.ofSeconds(30);

  /**
   * Default {@link #consolidatorCallsPerMinute()}: 10. Sessions end a few times an hour; a sweep of
   * many abandoned sessions at once is consolidated heuristically beyond ten a minute.
   */
  public static final int DEFAULT_CONSOLIDATOR_CALLS_PER_MINUTE = 10;

  /** Default {@link #syncInterval()}: 200 ms. */
  public static final Duration DEFAULT_SYNC_INTERVAL = Duration.ofMillis(200);

  /** Validates the options. */
  public CaptureOptions {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(shedPolicy, "shedPolicy");
    Objects.requireNonNull(sessionIdleTimeout, "sessionIdleTimeout");
    Objects.requireNonNull(closeTimeout, "closeTimeout");
    Objects.requireNonNull(compressorTimeout, "compressorTimeout");
    Objects.requireNonNull(consolidatorTimeout, "consolidatorTimeout");
    Objects.requireNonNull(syncInterval, "syncInterval");
    inRange("queueCapacity", queueCapacity, 1, 1_000_000);
    inRange("batchSize", batchSize, 1, 10_000);
    inRange("maxRawChars", maxRawChars, MIN_RAW_CHARS, MemoryDraft.MAX_CONTENT);
    inRange("compressorCallsPerMinute", compressorCallsPerMinute, 0, 1_000_000);
    inRange("consolidatorCallsPerMinute", consolidatorCallsPerMinute, 0, 1_000_000);
    positive("sessionIdleTimeout", sessionIdleTimeout);
    withinCloseBound("closeTimeout", closeTimeout);
    positive("compressorTimeout", compressorTimeout);
    positive("consolidatorTimeout", consolidatorTimeout);
    positive("syncInterval", syncInterval);
    if (scopePerProject && scope.value().split("/").length >= 8) {
      throw new IllegalArgumentException(
          "scopePerProject adds a segment to scope " + scope + ", which has the most a scope may");
    }
  }

  /**
   * {@code value} if it is in {@code [min, max]}; the rule of every API builder (see {@code
   * HookOptions}), repeated here because this package cannot see that one's helper.
   */
  private static int inRange(String name, int value, int min, int max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          name + " must be in [" + min + ", " + max + "], got " + value);
    }
    return value;
  }

  private static Duration positive(String name, Duration value) {
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, got " + value);
    }
    return value;
  }

  private static Duration withinCloseBound(String name, Duration value) {
    positive(name, value);
    if (value.compareTo(MAX_CLOSE_TIMEOUT) > 0) {
      throw new IllegalArgumentException(
          name + " must be at most " + MAX_CLOSE_TIMEOUT + ", got " + value);
    }
    return value;
  }

  /**
   * The defaults: {@link Scope#DEFAULT} for every project, 4,096 queued events dropping the newest
   * when full, batches of 64, raw observations up to 100,000 characters, sessions abandoned after
   * 30 idle minutes and consolidated when they end, the sessions still open ended when the service
   * closes, within 5 seconds, local compression and consolidation (a provider's compressor gets 10
   * seconds and 60 calls a minute, a provider's consolidator 30 seconds and 10 calls a minute), the
   * journal in the store's directory, synced every 200 ms.
   */
  public static CaptureOptions defaults() {
    return builder().build();
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** Each setting may be set once on a builder; a rejected value sets nothing. */
  private static final class Settings {
    private final Set<String> set = new HashSet<>();

    void checkUnset(String name) {
      if (set.contains(name)) {
        throw new IllegalStateException(
            name + " was already set on this builder; each setting may be set once");
      }
    }

    <B> B recorded(B builder, String name) {
      set.add(name);
      return builder;
    }
  }

  /**
   * Builds {@link CaptureOptions}; each setter validates at once and may be called once. Not
   * thread-safe: one thread builds.
   */
  public static final class Builder {
    private Scope scope = Scope.DEFAULT;
    private boolean scopePerProject;
    private int queueCapacity = DEFAULT_QUEUE_CAPACITY;
    private ShedPolicy shedPolicy = ShedPolicy.DROP_NEWEST;
    private int batchSize = DEFAULT_BATCH_SIZE;
    private int maxRawChars = DEFAULT_MAX_RAW_CHARS;
    private Duration sessionIdleTimeout = DEFAULT_SESSION_IDLE_TIMEOUT;
    private boolean consolidateOnSessionEnd = true;
    private boolean endSessionsOnClose = true;
    private Duration closeTimeout = DEFAULT_CLOSE_TIMEOUT;
    private Compressor compressor;
    private Duration compressorTimeout = DEFAULT_COMPRESSOR_TIMEOUT;
    private int compressorCallsPerMinute = DEFAULT_COMPRESSOR_CALLS_PER_MINUTE;
    private Consolidator consolidator;
    private Duration consolidatorTimeout = DEFAULT_CONSOLIDATOR_TIMEOUT;
    private int consolidatorCallsPerMinute = DEFAULT_CONSOLIDATOR_CALLS_PER_MINUTE;
    private Path journalDirectory;
    private Duration syncInterval = DEFAULT_SYNC_INTERVAL;

    private final Settings settings = new Settings();

    private Builder() {}

    /** The scope observations are stored in. */
    public Builder scope(Scope value) {
      settings.checkUnset("scope");
      this.scope = Objects.requireNonNull(value, "scope");
      return settings.recorded(this, "scope");
    }

    /** Gives each project its own scope below {@link #scope(Scope)}. */
    public Builder scopePerProject() {
      settings.checkUnset("scopePerProject");
      this.scopePerProject = true;
      return settings.recorded(this, "scopePerProject");
    }

    /** How many accepted events may wait, 1 to 1,000,000. */
    public Builder queueCapacity(int value) {
      settings.checkUnset("queueCapacity");
      this.queueCapacity = inRange("queueCapacity", value, 1, 1_000_000);
      return settings.recorded(this, "queueCapacity");
    }

    /** What a full queue does. */
    public Builder shedPolicy(ShedPolicy value) {
      settings.checkUnset("shedPolicy");
      this.shedPolicy = Objects.requireNonNull(value, "shedPolicy");
      return settings.recorded(this, "shedPolicy");
    }

    /** How many events are stored together at most, 1 to 10,000. */
    public Builder batchSize(int value) {
      settings.checkUnset("batchSize");
      this.batchSize = inRange("batchSize", value, 1, 10_000);
      return settings.recorded(this, "batchSize");
    }

    /** The longest raw observation kept, 1,000 to 100,000 characters. */
    public Builder maxRawChars(int value) {
      settings.checkUnset("maxRawChars");
      this.maxRawChars = inRange("maxRawChars", value, MIN_RAW_CHARS, MemoryDraft.MAX_CONTENT);
      return settings.recorded(this, "maxRawChars");
    }

    /** How long a session may be idle before it is abandoned; positive. */
    public Builder sessionIdleTimeout(Duration value) {
      settings.checkUnset("sessionIdleTimeout");
      this.sessionIdleTimeout =
          positive("sessionIdleTimeout", Objects.requireNonNull(value, "sessionIdleTimeout"));
      return settings.recorded(this, "sessionIdleTimeout");
    }

    /** Leaves ended sessions unconsolidated until {@code consolidate} is called. */
    public Builder consolidateOnDemandOnly() {
      settings.checkUnset("consolidateOnSessionEnd");
      this.consolidateOnSessionEnd = false;
      return settings.recorded(this, "consolidateOnSessionEnd");
    }

    /**
     * Leaves the sessions open when the service closes, for a host whose lifetimes are each a step
     * of longer sessions: a coding agent's hook command, one short process per event, whose
     * sessions end with their {@code SessionEnd} event or the idle timeout instead. Without it,
     * closing ends them (see {@link CaptureOptions#endSessionsOnClose()}).
     */
    public Builder keepSessionsOpenOnClose() {
      settings.checkUnset("endSessionsOnClose");
      this.endSessionsOnClose = false;
      return settings.recorded(this, "endSessionsOnClose");
    }

    /**
     * How long {@code close} waits for capture to process what it accepted and end the sessions it
     * holds open; positive, at most {@link CaptureOptions#MAX_CLOSE_TIMEOUT}. Default {@link
     * CaptureOptions#DEFAULT_CLOSE_TIMEOUT}.
     *
     * @throws NullPointerException if {@code value} is null
     * @throws IllegalArgumentException if {@code value} is not positive or over the maximum
     */
    public Builder closeTimeout(Duration value) {
      settings.checkUnset("closeTimeout");
      this.closeTimeout =
          withinCloseBound("closeTimeout", Objects.requireNonNull(value, "closeTimeout"));
      return settings.recorded(this, "closeTimeout");
    }

    /** Compresses with {@code value} (a language model, say), falling back to the local form. */
    public Builder compressor(Compressor value) {
      settings.checkUnset("compressor");
      this.compressor = Objects.requireNonNull(value, "compressor");
      return settings.recorded(this, "compressor");
    }

    /** How long one compressor call may take; positive. */
    public Builder compressorTimeout(Duration value) {
      settings.checkUnset("compressorTimeout");
      this.compressorTimeout =
          positive("compressorTimeout", Objects.requireNonNull(value, "compressorTimeout"));
      return settings.recorded(this, "compressorTimeout");
    }

    /** How many compressor calls one minute may take, 0 to 1,000,000. */
    public Builder compressorCallsPerMinute(int value) {
      settings.checkUnset("compressorCallsPerMinute");
      this.compressorCallsPerMinute = inRange("compressorCallsPerMinute", value, 0, 1_000_000);
      return settings.recorded(this, "compressorCallsPerMinute");
    }

    /**
     * Consolidates with {@code value} (a language model, say), falling back to the local
     * heuristics.
     */
    public Builder consolidator(Consolidator value) {
      settings.checkUnset("consolidator");
      this.consolidator = Objects.requireNonNull(value, "consolidator");
      return settings.recorded(this, "consolidator");
    }

    /** How long one consolidator call may take; positive. */
    public Builder consolidatorTimeout(Duration value) {
      settings.checkUnset("consolidatorTimeout");
      this.consolidatorTimeout =
          positive("consolidatorTimeout", Objects.requireNonNull(value, "consolidatorTimeout"));
      return settings.recorded(this, "consolidatorTimeout");
    }

    /** How many consolidator calls one minute may take, 0 to 1,000,000. */
    public Builder consolidatorCallsPerMinute(int value) {
      settings.checkUnset("consolidatorCallsPerMinute");
      this.consolidatorCallsPerMinute = inRange("consolidatorCallsPerMinute", value, 0, 1_000_000);
      return settings.recorded(this, "consolidatorCallsPerMinute");
    }

    /** Keeps the capture journal in {@code value} (created if missing). */
    public Builder journalDirectory(Path value) {
      settings.checkUnset("journalDirectory");
      this.journalDirectory = Objects.requireNonNull(value, "journalDirectory");
      return settings.recorded(this, "journalDirectory");
    }

    /** How often the journal is forced to the disk; positive. */
    public Builder syncInterval(Duration value) {
      settings.checkUnset("syncInterval");
      this.syncInterval = positive("syncInterval", Objects.requireNonNull(value, "syncInterval"));
      return settings.recorded(this, "syncInterval");
    }

    /** Builds the options. */
    public CaptureOptions build() {
      return new CaptureOptions(
          scope,
          scopePerProject,
          queueCapacity,
          shedPolicy,
          batchSize,
          maxRawChars,
          sessionIdleTimeout,
          consolidateOnSessionEnd,
          endSessionsOnClose,
          closeTimeout,
          compressor,
          compressorTimeout,
          compressorCallsPerMinute,
          consolidator,
          consolidatorTimeout,
          consolidatorCallsPerMinute,
          journalDirectory,
          syncInterval);
    }
  }
}
