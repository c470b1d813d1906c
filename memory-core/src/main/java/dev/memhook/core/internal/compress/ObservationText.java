package dev.memhook.core.internal.compress;

import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEventType;
import java.util.List;
import java.util.Objects;

/**
 * The text of an observation as it is stored and shown by a full fetch: a header line naming the
 * hook type and the tool ({@code PostToolUse Bash}, {@code PromptSubmit}), then one labelled part
 * per present field of the event's data, in a fixed order: {@code agent:}, {@code prompt:}, {@code
 * input:}, {@code output:}, {@code error:}, {@code message:}. Absent and blank parts are left out.
 * The caller has already sanitized and cut each part; nothing is cut here.
 *
 * <p>{@link #part} reads one part back. Parts are free text, so a part holding a line that starts
 * with a later part's label reads short; this only matters to heuristics, which is all that uses
 * it.
 *
 * <p>Stateless and thread-safe; the rendering is deterministic.
 */
public final class ObservationText {

  /** The part labels, in the order parts appear. */
  static final List<String> LABELS =
      List.of("agent", "prompt", "input", "output", "error", "message");

  private ObservationText() {}

  /**
   * The text of an event of {@code hookType} by {@code toolName} (null for none) carrying {@code
   * data}.
   */
  public static String render(LifecycleEventType hookType, String toolName, EventData data) {
    Objects.requireNonNull(hookType, "hookType");
    Objects.requireNonNull(data, "data");
    StringBuilder sb = new StringBuilder(header(hookType, toolName));
    append(sb, "agent", data.agentName());
    append(sb, "prompt", data.prompt());
    append(sb, "input", data.input());
    append(sb, "output", data.output());
    append(sb, "error", data.error());
    append(sb, "message", data.message());
    return sb.toString();
  }

  /** The header line: the hook type's wire name, then the tool's name on one line, if any. */
  public static String header(LifecycleEventType hookType, String toolName) {
    if (toolName == null || toolName.isBlank()) {
      return hookType.wireName();
    }
    return hookType.wireName() + " " + oneLine(toolName.strip());
  }

  /**
   * The part labelled {@code label} (one of {@link #LABELS}) of a text {@link #render} made, or
   * {@code ""} when it has none.
   */
  public static String part(String text, String label) {
    int index = LABELS.indexOf(label);
    if (index < 0) {
      throw new IllegalArgumentException("no part is labelled '" + label + "'");
    }
    int at = text.indexOf("\n" + label + ": ");
    if (at < 0) {
      return "";
    }
    int start = at + label.length() + 3;
    int end = text.length();
    for (int i = index + 1; i < LABELS.size(); i++) {
      int next = text.indexOf("\n" + LABELS.get(i) + ": ", start);
      if (next >= 0 && next < end) {
        end = next;
      }
    }
    return text.substring(start, end);
  }

  private static void append(StringBuilder sb, String label, String value) {
    if (value != null && !value.isBlank()) {
      sb.append('\n').append(label).append(": ").append(value);
    }
  }

  private static String oneLine(String text) {
    return text.replace('\r', ' ').replace('\n', ' ');
  }
}
