package dev.memhook.core.internal.compress;

import dev.memhook.api.Memory;
import dev.memhook.api.capture.LifecycleEventType;
import dev.memhook.api.capture.ObservationKind;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A stored observation memory as consolidation reads it: its hook type and kind (from the
 * attributes {@value #HOOK_TYPE} and {@value #KIND}, else from the content's header line), what the
 * user or agent said, the command it ran, and how the run went.
 *
 * <p>Immutable and thread-safe.
 *
 * @param memory the stored observation
 * @param type its event's type, or null if neither attribute nor header names one
 * @param kind its kind ({@link ObservationKind#CONVERSATION} when unknown)
 * @param said the prompt or answer, or ""
 * @param command the first line of the command it ran, or ""
 * @param outcome how its run went, from the output, else the summary
 */
record ObservationView(
    Memory memory,
    LifecycleEventType type,
    ObservationKind kind,
    String said,
    String command,
    RunSignals.Outcome outcome) {

  /**
   * The name of the tool the observation's event ran, from its header line ({@code "PostToolUse
   * Read"} is {@code "Read"}), as the agent spelled it; "" for an event with no tool.
   */
  String tool() {
    String header = TextCuts.firstLine(memory.content(), 400);
    int space = header.indexOf(' ');
    return space < 0 ? "" : header.substring(space + 1).strip();
  }

  /** The attribute holding the observation's hook type (wire or enum name). */
  static final String HOOK_TYPE = "memhook.hookType";

  /** The attribute holding the observation's {@link ObservationKind} name. */
  static final String KIND = "memhook.kind";

  static ObservationView of(Memory memory) {
    Map<String, String> attributes = memory.attributes();
    String content = memory.content();
    String header = TextCuts.firstLine(content, 400);
    int space = header.indexOf(' ');
    LifecycleEventType hook =
        LifecycleEventType.fromWire(attributes.get(HOOK_TYPE))
            .or(() -> LifecycleEventType.fromWire(space < 0 ? header : header.substring(0, space)))
            .or(() -> turnByOrigin(memory))
            .orElse(null);
    ObservationKind kind = kind(attributes.get(KIND));
    String said = "";
    boolean rendered = hook != null && content.startsWith(hook.wireName());
    if (hook == LifecycleEventType.PROMPT_SUBMIT) {
      // capture stores a conversation turn as what was said; a rendered event has a header
      said = rendered ? ObservationText.part(content, "prompt") : content;
    } else if (hook == LifecycleEventType.AGENT_RESPONSE) {
      said = rendered ? ObservationText.part(content, "message") : content;
    }
    String command = "";
    RunSignals.Outcome outcome = RunSignals.Outcome.UNKNOWN;
    if (hook == LifecycleEventType.POST_TOOL_USE || hook == LifecycleEventType.TOOL_FAILURE) {
      ToolPayload input = ToolPayload.of(ObservationText.part(content, "input"));
      command = TextCuts.firstLine(input.field("command", "cmd", "script"), 4_000);
      String output = ToolPayload.of(ObservationText.part(content, "output")).text();
      outcome = RunSignals.of(output + "\n" + ObservationText.part(content, "error")).outcome();
    }
    if (outcome == RunSignals.Outcome.UNKNOWN) {
      outcome = RunSignals.of(memory.summary()).outcome();
    }
    if (kind == ObservationKind.ERROR || hook == LifecycleEventType.TOOL_FAILURE) {
      outcome = RunSignals.Outcome.FAILED;
    }
    return new ObservationView(memory, hook, kind, said, command, outcome);
  }

  /**
   * A conversation turn capture stored as what was said carries no attributes: its origin says
   * whose turn it was.
   */
  private static Optional<LifecycleEventType> turnByOrigin(Memory memory) {
    return switch (memory.origin().kind()) {
      case USER -> Optional.of(LifecycleEventType.PROMPT_SUBMIT);
      case AGENT -> Optional.of(LifecycleEventType.AGENT_RESPONSE);
      default -> Optional.empty();
    };
  }

  private static ObservationKind kind(String name) {
    if (name != null) {
      try {
        return ObservationKind.valueOf(name.strip().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) { // an unknown name: treat as plain conversation
        return ObservationKind.CONVERSATION;
      }
    }
    return ObservationKind.CONVERSATION;
  }

  /** Whether it records a failure: an error, or tests or a build that failed. */
  boolean failed() {
    return kind == ObservationKind.ERROR
        || (kind == ObservationKind.TEST_RESULT && outcome == RunSignals.Outcome.FAILED);
  }

  /** Whether it records a run that passed: tests, a build or a command that succeeded. */
  boolean passed() {
    return (kind == ObservationKind.TEST_RESULT || kind == ObservationKind.COMMAND_RUN)
        && outcome == RunSignals.Outcome.PASSED;
  }
}
