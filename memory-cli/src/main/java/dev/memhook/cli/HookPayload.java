package dev.memhook.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memhook.api.capture.LifecycleEventType;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A coding agent's hook payload (Claude Code's format: {@code session_id}, {@code transcript_path},
 * {@code cwd}, {@code hook_event_name}, and per event {@code prompt}, {@code tool_name}, {@code
 * tool_input}, {@code tool_response}, {@code tool_use_id}, {@code error}), completed into what
 * {@code MemoryCapture.observeJson} accepts. {@code observeJson} reads the payload's own field
 * names already; this adds what the agent leaves out:
 *
 * <ul>
 *   <li>{@code project}: the last segment of {@code cwd}, since a session must name one;
 *   <li>{@code timestamp}: when the hook ran, so an event stored later keeps its time;
 *   <li>{@code eventId}: the event name and {@code tool_use_id}, so a redelivered tool event is
 *       stored once;
 *   <li>for {@code Stop} and {@code SubagentStop}, {@code data.message}: the payload's {@code
 *       last_assistant_message}, else the last assistant text of the transcript (a subagent's own,
 *       {@code agent_transcript_path}); and for {@code SubagentStop} {@code data.agentName} from
 *       {@code agent_type} or {@code agent_id};
 *   <li>Gemini CLI's event names, which name the same events in its own words ({@link
 *       #GEMINI_NAMES}), with its {@code prompt_response} as the {@code AfterAgent} message.
 * </ul>
 *
 * Stateless.
 */
final class HookPayload {
  /** How much of a transcript's end is read for its last assistant message. */
  static final int TRANSCRIPT_TAIL_BYTES = 512 * 1024;

  /**
   * What {@code HookCommand} does with an event.
   *
   * @param type the event's type
   * @param wireName the name the agent gave it, echoed in the answer
   * @param event the completed event, for {@code observeJson}; empty if it cannot be captured (a
   *     {@code Stop} without any assistant text)
   */
  record Prepared(LifecycleEventType type, String wireName, Optional<ObjectNode> event) {}

  /**
   * Gemini CLI's hook events, whose payloads are Claude Code's but for their names, by the name
   * Memhook reads. Its model-level events ({@code BeforeModel}, {@code AfterModel}, {@code
   * BeforeToolSelection}) and {@code Notification} have no Memhook event and are not installed.
   */
  static final Map<String, String> GEMINI_NAMES =
      Map.of(
          "BeforeAgent", "UserPromptSubmit",
          "AfterAgent", "Stop",
          "BeforeTool", "PreToolUse",
          "AfterTool", "PostToolUse",
          "PreCompress", "PreCompact");

  private HookPayload() {}

  /**
   * Completes {@code payload}.
   *
   * @throws IllegalArgumentException if it is not an object, or names no known event
   */
  static Prepared prepare(JsonNode payload, Instant now) {
    if (payload == null || !payload.isObject()) {
      throw new IllegalArgumentException("the hook input is not one JSON object");
    }
    ObjectNode event = ((ObjectNode) payload).deepCopy();
    String name = text(event, "hook_event_name", text(event, "hookType", null));
    if (name == null) {
      throw new IllegalArgumentException("the hook input names no event (no hook_event_name)");
    }
    LifecycleEventType type =
        LifecycleEventType.fromWire(GEMINI_NAMES.getOrDefault(name, name))
            .orElseThrow(
                () -> new IllegalArgumentException("unknown hook_event_name '" + name + "'"));
    String cwd = text(event, "cwd", null);
    if (!event.has("project") && cwd != null) {
      Path last = Path.of(cwd).getFileName();
      event.put("project", last == null ? cwd : last.toString());
    }
    if (name != null && GEMINI_NAMES.containsKey(name)) {
      event.put("hook_event_name", GEMINI_NAMES.get(name)); // what observeJson reads
    }
    if (!event.has("timestamp")) {
      event.put("timestamp", now.toString());
    }
    String toolUse = text(event, "tool_use_id", null);
    if (!event.has("eventId") && !event.has("event_id") && toolUse != null) {
      event.put("eventId", name + ":" + toolUse);
    }
    ObjectNode data = event.get("data") instanceof ObjectNode d ? d : event.putObject("data");
    if (type == LifecycleEventType.SUBAGENT_STOP
        && !data.has("agentName")
        && !data.has("agent_name")) {
      data.put("agentName", text(event, "agent_type", text(event, "agent_id", "subagent")));
    }
    if (type == LifecycleEventType.AGENT_RESPONSE && !data.has("message")) {
      String message = text(event, "last_assistant_message", text(event, "prompt_response", null));
      if (message == null) {
        message = lastAssistantText(text(event, "transcript_path", null)).orElse(null);
      }
      if (message == null || message.isBlank()) {
        return new Prepared(type, name, Optional.empty());
      }
      data.put("message", message);
    }
    if (type == LifecycleEventType.SUBAGENT_STOP && !data.has("message")) {
      // the subagent's report; its own transcript, not the session's, holds its last answer
      String message = text(event, "last_assistant_message", null);
      if (message == null) {
        message = lastAssistantText(text(event, "agent_transcript_path", null)).orElse(null);
      }
      if (message != null && !message.isBlank()) {
        data.put("message", message); // without one, the stop is still kept, as the subagent's
      }
    }
    return new Prepared(type, name, Optional.of(event));
  }

  /** The last assistant text in the transcript at {@code path}, or empty. */
  static Optional<String> lastAssistantText(String path) {
    if (path == null) {
      return Optional.empty();
    }
    Path file = Path.of(path);
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    String tail;
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
      long start = Math.max(0, f.length() - TRANSCRIPT_TAIL_BYTES);
      byte[] bytes = new byte[(int) (f.length() - start)];
      f.seek(start);
      f.readFully(bytes);
      tail = new String(bytes, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return Optional.empty();
    }
    List<String> lines = tail.lines().toList();
    for (int i = lines.size() - 1; i >= 0; i--) {
      Optional<String> text = assistantText(lines.get(i));
      if (text.isPresent()) {
        return text;
      }
    }
    return Optional.empty();
  }

  private static Optional<String> assistantText(String line) {
    JsonNode n;
    try {
      n = JsonRecords.MAPPER.readTree(line);
    } catch (IOException e) {
      return Optional.empty(); // the first line of the tail may be cut
    }
    if (n == null || !"assistant".equals(n.path("type").asText())) {
      return Optional.empty();
    }
    StringBuilder sb = new StringBuilder();
    for (JsonNode part : n.path("message").path("content")) {
      if ("text".equals(part.path("type").asText())) {
        sb.append(sb.length() == 0 ? "" : "\n").append(part.path("text").asText());
      }
    }
    return sb.toString().isBlank() ? Optional.empty() : Optional.of(sb.toString());
  }

  private static String text(JsonNode n, String field, String otherwise) {
    JsonNode v = n.get(field);
    return v != null && v.isTextual() ? v.textValue() : otherwise;
  }
}
