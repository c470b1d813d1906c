package dev.memhook.api;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A scope's standing memories, as a session should receive them at its start: the preferences,
 * decisions, designs, conventions, ways of working and facts of a project or a person. They are
 * instructions rather than answers to one question, so they are offered whatever the session's
 * first message says; what happened (bugs, captured turns) is left to recall, per message.
 *
 * <p>A profile holds the latest version of each memory of the {@linkplain #TYPES standing types} (a
 * superseded version never; {@link MemoryType#OBSERVATION} and {@link MemoryType#BUG} never),
 * captured, consolidated or remembered by the host alike, in this order: by type as {@link #TYPES}
 * lists them, then the most important first, then the newest first. It is cut to a budget in
 * characters counted on what the model reads (each memory's {@code {"id", "summary"}} entry of a
 * {@code get_memory} summary result) and to {@link #MAX_MEMORIES}: each memory in order is taken if
 * it fits in what is left of the budget, and passed over otherwise. What was left out is counted in
 * {@link #omitted()}, so a host can tell that the profile is not the whole of it.
 *
 * <p>Obtain one from {@link MemoryService#standing(Scope, int)} or {@link
 * ScopedMemory#standing(int)}; a hook offers its scopes' profiles with its first injection ({@link
 * HookOptions#standingChars()}). Immutable and thread-safe; null components are rejected.
 *
 * @param scope the scope the memories are of
 * @param memories the standing memories offered, in order, none twice; at most {@link
 *     #MAX_MEMORIES}
 * @param characters what the memories take as the model reads them: the length of each one's
 *     summary entry in a {@code get_memory} result plus one for the comma or bracket beside it; at
 *     most the budget asked for
 * @param omitted how many standing memories of the scope are not in {@code memories}: passed over
 *     by the budget or past {@link #MAX_MEMORIES}
 */
public record StandingProfile(Scope scope, List<Memory> memories, int characters, long omitted) {

  /**
   * The standing types, in the order a profile lists them: what a user or team wants first, then
   * what they chose, how the system is built, the conventions it follows, how work gets done, and
   * the facts of the environment.
   */
  public static final List<MemoryType> TYPES =
      List.of(
          MemoryType.PREFERENCE,
          MemoryType.DECISION,
          MemoryType.ARCHITECTURE,
          MemoryType.PATTERN,
          MemoryType.WORKFLOW,
          MemoryType.FACT);

  /**
   * The default budget, in characters: 1,000, a few hundred tokens, room for the handful of
   * standing memories that shape every answer (about ten summaries of a line each) without crowding
   * the conversation; the rest stays findable by recall.
   */
  public static final int DEFAULT_MAX_CHARS = 1_000;

  /**
   * The most memories one profile holds: 25, half of the ids one batched {@code get_memory} summary
   * call carries, so the hook's first call keeps the other half for what the message recalls.
   */
  public static final int MAX_MEMORIES = 25;

  /** The largest budget accepted: {@link HookOptions#MAX_CHARS}. */
  public static final int MAX_CHARS = HookOptions.MAX_CHARS;

  /** Validates and copies. */
  public StandingProfile {
    Objects.requireNonNull(scope, "scope");
    memories = List.copyOf(Objects.requireNonNull(memories, "memories"));
    if (memories.size() > MAX_MEMORIES) {
      throw new IllegalArgumentException(
          "a profile holds at most " + MAX_MEMORIES + " memories, got " + memories.size());
    }
    Set<MemoryId> ids = new HashSet<>();
    for (Memory m : memories) {
      if (!ids.add(m.id())) {
        throw new IllegalArgumentException("a profile holds " + m.id() + " twice");
      }
    }
    if (characters < 0 || omitted < 0) {
      throw new IllegalArgumentException(
          "characters and omitted must be >= 0, got " + characters + " and " + omitted);
    }
  }

  /** Whether {@code type} is one of the {@link #TYPES} a profile holds. */
  public static boolean isStanding(MemoryType type) {
    return TYPES.contains(Objects.requireNonNull(type, "type"));
  }

  /**
   * {@code maxChars} if it is a budget {@link MemoryService#standing} accepts: 1 to {@link
   * #MAX_CHARS}. For implementations of {@link MemoryService}, which check it this one way.
   *
   * @throws IllegalArgumentException naming the value otherwise
   */
  public static int checkBudget(int maxChars) {
    if (maxChars < 1 || maxChars > MAX_CHARS) {
      throw new IllegalArgumentException(
          "maxChars must be in [1, " + MAX_CHARS + "], got " + maxChars);
    }
    return maxChars;
  }
}
