package dev.memhook.api.capture;

/**
 * What a lifecycle event carries besides its header: the {@code data} object of the JSON a hook
 * script posts. Which fields a {@link LifecycleEventType} requires is stated on the type.
 *
 * <p>Immutable and thread-safe. Every component may be null (absent). Tool input and output may be
 * any text; an input or output posted as a JSON object or array is kept as its JSON text.
 *
 * @param toolName the tool's name, for tool events
 * @param input what the tool was given
 * @param output what the tool returned
 * @param prompt the user's prompt, for {@link LifecycleEventType#PROMPT_SUBMIT}
 * @param error the failure, for {@link LifecycleEventType#TOOL_FAILURE}
 * @param agentName the subagent's name, for subagent events
 * @param message free text: the agent's answer, a compaction transcript, an end-of-session note
 * @param speaker who said a prompt or an answer, by name ("Caroline", "support-bot"), when the host
 *     knows; stored as the name of the observation's origin, so questions that name people find
 *     what they said
 */
public record EventData(
    String toolName,
    String input,
    String output,
    String prompt,
    String error,
    String agentName,
    String message,
    String speaker) {

  /** No data. */
  public static final EventData EMPTY =
      new EventData(null, null, null, null, null, null, null, null);

  /** A tool's use: its name, input and output (the last two may be null). */
  public static EventData tool(String toolName, String input, String output) {
    return new EventData(toolName, input, output, null, null, null, null, null);
  }

  /** A tool's failure. */
  public static EventData toolFailure(String toolName, String input, String error) {
    return new EventData(toolName, input, null, null, error, null, null, null);
  }

  /** A user's prompt. */
  public static EventData prompt(String prompt) {
    return new EventData(null, null, null, prompt, null, null, null, null);
  }

  /** A free-text message. */
  public static EventData message(String message) {
    return new EventData(null, null, null, null, null, null, message, null);
  }

  /** A subagent, by name, with an optional message. */
  public static EventData agent(String agentName, String message) {
    return new EventData(null, null, null, null, null, agentName, message, null);
  }

  /** This data with {@code speaker} as who said it (null clears it). */
  public EventData withSpeaker(String speaker) {
    return new EventData(toolName, input, output, prompt, error, agentName, message, speaker);
  }
}
