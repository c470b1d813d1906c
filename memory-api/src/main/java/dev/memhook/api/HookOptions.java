package dev.memhook.api;

import static dev.memhook.api.BuilderSettings.inRange;

import java.time.Duration;
import java.util.Objects;

/**
 * How one hook recalls and injects.
 *
 * <p>Immutable and thread-safe; use {@link #builder()} or {@link #defaults()}.
 *
 * @param scope the scope the hook recalls from and the {@code get_memory} tool serves
 * @param maxPerMessage the most memories recalled for one scanned message
 * @param maxPerCallback the most memories injected by one callback, over all its messages
 * @param recallTimeout how long a callback waits for recall before it completes without injecting
 * @param listener receives injection and failure events
 */
public record HookOptions(
    Scope scope,
    int maxPerMessage,
    int maxPerCallback,
    Duration recallTimeout,
    HookListener listener) {

  /**
   * Default {@link #maxPerMessage()}: 3, enough for the few memories that matter to one message.
   */
  public static final int DEFAULT_MAX_PER_MESSAGE = 3;

  /** Default {@link #maxPerCallback()}: 5, so one injection stays a short read for the model. */
  public static final int DEFAULT_MAX_PER_CALLBACK = 5;

  /**
   * Default {@link #recallTimeout()}: 250 ms. A quarter of a second is below what a user notices
   * beside the model's own latency, and a stalled store must not hold the turn longer than that.
   * (What recall actually takes, and on which first call it may not fit, is in {@code
   * benchmarks/RESULTS.md}.)
   */
  public static final Duration DEFAULT_RECALL_TIMEOUT = Duration.ofMillis(250);

  /** The most {@link #maxPerCallback()} may be. */
  private static final int MAX_PER_CALLBACK = 1_000;

  /** Validates the options. */
  public HookOptions {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(recallTimeout, "recallTimeout");
    Objects.requireNonNull(listener, "listener");
    inRange("maxPerMessage", maxPerMessage, 1, RecallQuery.MAX_LIMIT);
    inRange("maxPerCallback", maxPerCallback, 1, MAX_PER_CALLBACK);
    checkPositive(recallTimeout);
  }

  private static Duration checkPositive(Duration recallTimeout) {
    if (recallTimeout.isNegative() || recallTimeout.isZero()) {
      throw new IllegalArgumentException("recallTimeout must be positive, got " + recallTimeout);
    }
    return recallTimeout;
  }

  /** The defaults: {@link Scope#DEFAULT}, 3 per message, 5 per callback, 250 ms, no listener. */
  public static HookOptions defaults() {
    return builder().build();
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds {@link HookOptions}; each setter validates at once. Not thread-safe. */
  public static final class Builder {
    private Scope scope = Scope.DEFAULT;
    private int maxPerMessage = DEFAULT_MAX_PER_MESSAGE;
    private int maxPerCallback = DEFAULT_MAX_PER_CALLBACK;
    private Duration recallTimeout = DEFAULT_RECALL_TIMEOUT;
    private HookListener listener = HookListener.NONE;

    private final BuilderSettings settings = new BuilderSettings();

    private Builder() {}

    /** The scope the hook is bound to. */
    public Builder scope(Scope value) {
      settings.checkUnset("scope");
      this.scope = Objects.requireNonNull(value, "scope");
      return settings.recorded(this, "scope");
    }

    /** At most this many memories per scanned message, 1 to 100. */
    public Builder maxPerMessage(int value) {
      settings.checkUnset("maxPerMessage");
      this.maxPerMessage = inRange("maxPerMessage", value, 1, RecallQuery.MAX_LIMIT);
      return settings.recorded(this, "maxPerMessage");
    }

    /** At most this many memories per callback, 1 to 1000. */
    public Builder maxPerCallback(int value) {
      settings.checkUnset("maxPerCallback");
      this.maxPerCallback = inRange("maxPerCallback", value, 1, MAX_PER_CALLBACK);
      return settings.recorded(this, "maxPerCallback");
    }

    /** How long a callback waits for recall; positive. */
    public Builder recallTimeout(Duration value) {
      settings.checkUnset("recallTimeout");
      this.recallTimeout = checkPositive(Objects.requireNonNull(value, "recallTimeout"));
      return settings.recorded(this, "recallTimeout");
    }

    /** Receives the hook's events. */
    public Builder listener(HookListener value) {
      settings.checkUnset("listener");
      this.listener = Objects.requireNonNull(value, "listener");
      return settings.recorded(this, "listener");
    }

    /** Builds the options. */
    public HookOptions build() {
      return new HookOptions(scope, maxPerMessage, maxPerCallback, recallTimeout, listener);
    }
  }
}
