package dev.memhook.api;

import static dev.memhook.api.internal.BuilderSettings.inRange;

import dev.memhook.api.internal.BuilderSettings;
import dev.memhook.api.trace.MemoryListener;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;

/**
 * How one hook recalls and injects.
 *
 * <p>Immutable and thread-safe; use {@link #builder()} or {@link #defaults()}.
 *
 * @param scopes the scopes the hook recalls from, in order of preference: each message is recalled
 *     in every one, and the lists are fused by rank (a memory ranked high in an earlier scope comes
 *     before one of the same rank in a later scope); the {@code get_memory} tool serves all of them
 *     and, when there is more than one, shows each memory's scope
 * @param captureScope the one scope the hook's captures are written to; one of {@code scopes}, so
 *     that what a conversation leaves behind can be recalled by the next one
 * @param maxPerMessage the most memories recalled for one scanned message
 * @param maxPerCallback the most memories injected by one callback, over all its messages; one
 *     injection is one {@code get_memory} summary call, which takes at most 50 ids, so a callback
 *     injects at most 50 whatever this says
 * @param recallTimeout how long a callback waits for recall before it completes without injecting
 * @param listener receives this hook's receipts, its tool's fetch records, and its injected and
 *     failed notes (besides the service's own listener)
 * @param maxMemoryChars the longest one memory's full {@code get_memory} result may be, in
 *     characters of the JSON the model reads (escapes counted); longer content comes in pages
 * @param maxResultChars the longest one {@code get_memory} result may be, in characters of the JSON
 *     the model reads, whatever the model asked for; at least {@code maxMemoryChars}
 * @param capture whether the hook captures its conversation (user messages, the model's answers,
 *     tool calls and their results; never the {@code get_memory} pairs) through the service's
 *     capture pipeline, into {@code scope}
 * @param sessionId the session captured messages belong to; null names it after the id of the
 *     conversation's first message, so every hook on one conversation captures into one session
 * @param userName who the user is, when the host knows: captured user messages carry it as their
 *     origin's name (questions that name people find what they said); null for unnamed
 * @param assistantName the model's or agent's name for its captured answers; null for unnamed
 * @param toolName the name the hook's {@code get_memory} tool is registered and injected under;
 *     {@value #DEFAULT_TOOL_NAME} unless two services hook one chat, which needs a name each
 * @param standingChars the budget, in characters of what the model reads, of the standing memories
 *     ({@link StandingProfile}) the hook offers with its first injection: the profiles of its
 *     scopes, in scope order, share it; 0 offers none. At most half of {@code maxResultChars}, so
 *     that what the first message recalls fits beside them in one result. It counts their summary
 *     entries; the excerpt the first message's words pick out of a standing memory (the summary
 *     call's {@code focus}) comes on top
 */
public record HookOptions(
    List<Scope> scopes,
    Scope captureScope,
    int maxPerMessage,
    int maxPerCallback,
    Duration recallTimeout,
    MemoryListener listener,
    int maxMemoryChars,
    int maxResultChars,
    boolean capture,
    String sessionId,
    String userName,
    String assistantName,
    String toolName,
    int standingChars) {

  /** Default {@link #toolName()}: {@value}. */
  public static final String DEFAULT_TOOL_NAME = "get_memory";

  /** The most scopes one hook may recall from. */
  public static final int MAX_SCOPES = 8;

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

  /**
   * Default {@link #maxMemoryChars()}: 16,000 characters, a few thousand tokens of prose (a token
   * is about four characters of English, fewer of code or other scripts). A memory meant to be read
   * whole fits; a longer one is read a page at a time, so one fetch never crowds out the
   * conversation.
   */
  public static final int DEFAULT_MAX_MEMORY_CHARS = 16_000;

  /**
   * Default {@link #maxResultChars()}: 40,000 characters, about ten thousand tokens, a small share
   * of a current model's context. It holds 50 summaries of typical length whole, or two full
   * memories at {@link #DEFAULT_MAX_MEMORY_CHARS}; a batch over it is shared out (see the {@code
   * get_memory} tool's rules).
   */
  public static final int DEFAULT_MAX_RESULT_CHARS = 40_000;

  /**
   * The least {@link #maxMemoryChars()} may be: room for a memory's id, metadata and paging hint.
   */
  public static final int MIN_MEMORY_CHARS = 2_000;

  /** The least {@link #maxResultChars()} may be: room for 50 summaries cut to their ids. */
  public static final int MIN_RESULT_CHARS = 10_000;

  /** The most either character budget may be. */
  public static final int MAX_CHARS = 4_000_000;

  /** The most {@link #maxPerCallback()} may be. */
  private static final int MAX_PER_CALLBACK = 1_000;

  /**
   * Default {@link #standingChars()}: {@link StandingProfile#DEFAULT_MAX_CHARS}, so a conversation
   * starts knowing the few standing memories that shape every answer.
   */
  public static final int DEFAULT_STANDING_CHARS = StandingProfile.DEFAULT_MAX_CHARS;

  /** Validates the options and copies {@code scopes}. */
  public HookOptions {
    scopes = checkScopes(scopes);
    Objects.requireNonNull(captureScope, "captureScope");
    if (!scopes.contains(captureScope)) {
      throw new IllegalArgumentException(
          "captureScope "
              + captureScope
              + " must be one of the scopes the hook recalls from "
              + scopes
              + ": a conversation's captures must be recallable by the next one");
    }
    checkToolName(toolName);
    Objects.requireNonNull(recallTimeout, "recallTimeout");
    Objects.requireNonNull(listener, "listener");
    inRange("maxPerMessage", maxPerMessage, 1, RecallQuery.MAX_LIMIT);
    inRange("maxPerCallback", maxPerCallback, 1, MAX_PER_CALLBACK);
    checkPositive(recallTimeout);
    inRange("maxMemoryChars", maxMemoryChars, MIN_MEMORY_CHARS, MAX_CHARS);
    inRange("maxResultChars", maxResultChars, MIN_RESULT_CHARS, MAX_CHARS);
    inRange("standingChars", standingChars, 0, MAX_CHARS);
    FieldLimits.optional("sessionId", sessionId, MemoryDraft.MAX_SESSION);
    FieldLimits.optional("userName", userName, MemoryDraft.MAX_ORIGIN_NAME);
    FieldLimits.optional("assistantName", assistantName, MemoryDraft.MAX_ORIGIN_NAME);
    if (maxMemoryChars > maxResultChars) {
      throw new IllegalArgumentException(
          "maxMemoryChars ("
              + maxMemoryChars
              + ") must not exceed maxResultChars ("
              + maxResultChars
              + "): one memory's result is one tool result; raise maxResultChars or lower"
              + " maxMemoryChars");
    }
    if (standingChars > maxResultChars / 2) {
      throw new IllegalArgumentException(
          "standingChars ("
              + standingChars
              + ") must be at most half of maxResultChars ("
              + maxResultChars
              + "): the first result carries the standing memories and what the message recalls;"
              + " raise maxResultChars or lower standingChars");
    }
  }

  private static List<Scope> checkScopes(List<Scope> scopes) {
    Objects.requireNonNull(scopes, "scopes");
    List<Scope> copy = List.copyOf(scopes); // rejects null elements
    if (copy.isEmpty() || copy.size() > MAX_SCOPES) {
      throw new IllegalArgumentException(
          "a hook recalls from 1 to " + MAX_SCOPES + " scopes, got " + copy.size());
    }
    if (new HashSet<>(copy).size() != copy.size()) {
      throw new IllegalArgumentException("scopes must not repeat a scope, got " + copy);
    }
    return copy;
  }

  private static String checkToolName(String toolName) {
    Objects.requireNonNull(toolName, "toolName");
    if (!toolName.matches("[A-Za-z0-9_-]{1,64}")) {
      throw new IllegalArgumentException(
          "toolName must be 1-64 characters of [A-Za-z0-9_-], got '"
              + FieldLimits.abbreviate(toolName, 40)
              + "'");
    }
    return toolName;
  }

  /**
   * These options with {@code sessionId} as the capture session: what an adapter that keeps one
   * hook per conversation uses to give each conversation its own session.
   *
   * @param sessionId at most {@value MemoryDraft#MAX_SESSION} characters, not blank
   */
  public HookOptions withSessionId(String sessionId) {
    Objects.requireNonNull(sessionId, "sessionId");
    return new HookOptions(
        scopes,
        captureScope,
        maxPerMessage,
        maxPerCallback,
        recallTimeout,
        listener,
        maxMemoryChars,
        maxResultChars,
        capture,
        sessionId,
        userName,
        assistantName,
        toolName,
        standingChars);
  }

  /** The first of {@link #scopes()}: where a one-scope hook both recalls and captures. */
  public Scope scope() {
    return scopes.get(0);
  }

  private static Duration checkPositive(Duration recallTimeout) {
    if (recallTimeout.isNegative() || recallTimeout.isZero()) {
      throw new IllegalArgumentException("recallTimeout must be positive, got " + recallTimeout);
    }
    return recallTimeout;
  }

  /**
   * The defaults: {@link Scope#DEFAULT} for recall and capture, 3 per message, 5 per callback, 250
   * ms, no listener, 16,000 characters per memory and 40,000 per tool result, capture on, a session
   * per hook, the tool named {@value #DEFAULT_TOOL_NAME}, standing memories within 1,000
   * characters.
   */
  public static HookOptions defaults() {
    return builder().build();
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** Builds {@link HookOptions}; each setter validates at once. Not thread-safe. */
  public static final class Builder {
    private List<Scope> scopes = List.of(Scope.DEFAULT);
    private Scope captureScope;
    private String toolName = DEFAULT_TOOL_NAME;
    private int maxPerMessage = DEFAULT_MAX_PER_MESSAGE;
    private int maxPerCallback = DEFAULT_MAX_PER_CALLBACK;
    private Duration recallTimeout = DEFAULT_RECALL_TIMEOUT;
    private MemoryListener listener = MemoryListener.NONE;
    private int maxMemoryChars = DEFAULT_MAX_MEMORY_CHARS;
    private int maxResultChars = DEFAULT_MAX_RESULT_CHARS;
    private boolean capture = true;
    private String sessionId;
    private String userName;
    private String assistantName;
    private int standingChars = DEFAULT_STANDING_CHARS;

    private final BuilderSettings settings = new BuilderSettings();

    private Builder() {}

    /**
     * The one scope the hook recalls from and captures into: the same as {@code
     * scopes(List.of(value))}. Set either this or {@link #scopes(List)}, not both.
     */
    public Builder scope(Scope value) {
      Objects.requireNonNull(value, "scope");
      settings.checkUnset("scopes");
      this.scopes = List.of(value);
      return settings.recorded(this, "scopes");
    }

    /**
     * The scopes the hook recalls from, in order of preference (the user's own before the team's,
     * say): 1 to {@value HookOptions#MAX_SCOPES}, none repeated. Captures go to the first unless
     * {@link #captureScope(Scope)} names another of them.
     */
    public Builder scopes(List<Scope> value) {
      settings.checkUnset("scopes");
      this.scopes = checkScopes(value);
      return settings.recorded(this, "scopes");
    }

    /**
     * The scope the hook's captures are written to: one of the scopes it recalls from (checked by
     * {@link #build()}). Without it, the first of them.
     */
    public Builder captureScope(Scope value) {
      settings.checkUnset("captureScope");
      this.captureScope = Objects.requireNonNull(value, "captureScope");
      return settings.recorded(this, "captureScope");
    }

    /**
     * The name of the hook's memory tool, 1-64 characters of {@code [A-Za-z0-9_-]}; {@value
     * HookOptions#DEFAULT_TOOL_NAME} by default. A chat offers each tool name once, so a second
     * service hooking the same chat needs a name of its own ({@code get_team_memory}, say).
     */
    public Builder toolName(String value) {
      settings.checkUnset("toolName");
      this.toolName = checkToolName(value);
      return settings.recorded(this, "toolName");
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

    /** Receives the hook's receipts, fetch records and notes; see {@link MemoryListener}. */
    public Builder listener(MemoryListener value) {
      settings.checkUnset("listener");
      this.listener = Objects.requireNonNull(value, "listener");
      return settings.recorded(this, "listener");
    }

    /**
     * The longest one memory's full {@code get_memory} result may be, in characters of its JSON,
     * 2,000 to 4,000,000; longer content is returned in pages.
     */
    public Builder maxMemoryChars(int value) {
      settings.checkUnset("maxMemoryChars");
      this.maxMemoryChars = inRange("maxMemoryChars", value, MIN_MEMORY_CHARS, MAX_CHARS);
      return settings.recorded(this, "maxMemoryChars");
    }

    /**
     * The longest one {@code get_memory} result may be, in characters of its JSON, 10,000 to
     * 4,000,000, and at least {@link #maxMemoryChars(int)} (checked by {@link #build()}).
     */
    public Builder maxResultChars(int value) {
      settings.checkUnset("maxResultChars");
      this.maxResultChars = inRange("maxResultChars", value, MIN_RESULT_CHARS, MAX_CHARS);
      return settings.recorded(this, "maxResultChars");
    }

    /** Turns off capture of the hooked conversation; recall and injection are unchanged. */
    public Builder noCapture() {
      settings.checkUnset("capture");
      this.capture = false;
      return settings.recorded(this, "capture");
    }

    /**
     * The session captured messages belong to, at most {@value MemoryDraft#MAX_SESSION} characters
     * and not blank. Give a conversation the same session id each time it is hooked: a message is
     * recognised as captured before by its id within its session.
     */
    public Builder sessionId(String value) {
      settings.checkUnset("sessionId");
      this.sessionId =
          FieldLimits.optional(
              "sessionId", Objects.requireNonNull(value, "sessionId"), MemoryDraft.MAX_SESSION);
      return settings.recorded(this, "sessionId");
    }

    /**
     * Who the user is: captured user messages carry this name as their origin's, at most {@value
     * MemoryDraft#MAX_ORIGIN_NAME} characters and not blank.
     */
    public Builder userName(String value) {
      settings.checkUnset("userName");
      this.userName =
          FieldLimits.optional(
              "userName", Objects.requireNonNull(value, "userName"), MemoryDraft.MAX_ORIGIN_NAME);
      return settings.recorded(this, "userName");
    }

    /** The assistant's name, for its captured answers; as {@link #userName(String)}. */
    public Builder assistantName(String value) {
      settings.checkUnset("assistantName");
      this.assistantName =
          FieldLimits.optional(
              "assistantName",
              Objects.requireNonNull(value, "assistantName"),
              MemoryDraft.MAX_ORIGIN_NAME);
      return settings.recorded(this, "assistantName");
    }

    /**
     * The budget of the standing memories the hook offers with its first injection, in characters
     * of what the model reads, 0 to 4,000,000 and at most half of {@link #maxResultChars(int)}
     * (checked by {@link #build()}); 0 offers none, so every memory comes by recall. The profiles
     * of the hook's scopes share it in scope order; see {@link StandingProfile}.
     */
    public Builder standingChars(int value) {
      settings.checkUnset("standingChars");
      this.standingChars = inRange("standingChars", value, 0, MAX_CHARS);
      return settings.recorded(this, "standingChars");
    }

    /**
     * Builds the options.
     *
     * @throws IllegalArgumentException if {@code maxMemoryChars} exceeds {@code maxResultChars},
     *     {@code standingChars} exceeds half of it, or the capture scope is not one of the scopes
     */
    public HookOptions build() {
      return new HookOptions(
          scopes,
          captureScope == null ? scopes.get(0) : captureScope,
          maxPerMessage,
          maxPerCallback,
          recallTimeout,
          listener,
          maxMemoryChars,
          maxResultChars,
          capture,
          sessionId,
          userName,
          assistantName,
          toolName,
          standingChars);
    }
  }
}
