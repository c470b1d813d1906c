package dev.memhook.benchmarks.loop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memhook.api.MemoryService;
import dev.memhook.api.capture.ObserveResult;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Replays a session as a coding agent's hooks post it: Claude Code hook payloads, completed as
 * {@code memhook hook} completes them ({@code project}, {@code timestamp}, {@code eventId}, a
 * {@code Stop}'s text as {@code data.message}), each handed to {@link
 * dev.memhook.api.capture.MemoryCapture#observeJson} in one new service lifetime: {@code
 * SessionStart}; per event {@code UserPromptSubmit} (a prompt), {@code PreToolUse} and {@code
 * PostToolUse} (a tool), {@code Stop} with the text as {@code last_assistant_message} (an assistant
 * answer); {@code SessionEnd}; then capture is flushed, the store's census taken and the service
 * closed. A {@code Bash} tool's string output is posted in Claude Code's shape, {@code
 * {"stdout":…,"stderr":"","interrupted":false,"isImage":false}}; any other output as given.
 *
 * <p>Event times are the lifetime's clock, one second apart. Stateless.
 */
final class HookReplay {

  static final ObjectMapper JSON = new ObjectMapper();

  /**
   * What a replay handed over.
   *
   * @param posted events posted
   * @param accepted events capture accepted
   * @param rejected messages of events capture rejected as invalid (none expected)
   * @param census what the store held at the end of the lifetime
   */
  record Replayed(int posted, int accepted, List<String> rejected, StoreCensus census) {
    Replayed {
      rejected = List.copyOf(rejected);
      Objects.requireNonNull(census, "census");
    }
  }

  private HookReplay() {}

  /** The working directory the agent runs in for {@code project}. */
  static String cwd(String project) {
    return "/home/dev/src/" + project;
  }

  /** Replays {@code session} into the store in {@code dir}; see the class comment. */
  static Replayed replay(LoopData.Session session, Path dir, Clock clock, LoopServices services) {
    List<ObjectNode> payloads = payloads(session, clock.instant());
    int accepted = 0;
    List<String> rejected = new ArrayList<>();
    StoreCensus census;
    try (MemoryService memory = services.open(dir, clock)) {
      for (ObjectNode p : payloads) {
        try {
          if (memory.capture().observeJson(p.toString()) == ObserveResult.ACCEPTED) {
            accepted++;
          }
        } catch (IllegalArgumentException e) {
          rejected.add(p.path("hook_event_name").asText() + ": " + e.getMessage());
        }
      }
      if (!memory.capture().flush(LoopServices.FLUSH_TIMEOUT)) {
        throw new IllegalStateException(
            "capture did not store session "
                + session.id()
                + " within "
                + LoopServices.FLUSH_TIMEOUT);
      }
      census = StoreCensus.of(memory);
    }
    return new Replayed(payloads.size(), accepted, rejected, census);
  }

  /** The completed payloads of {@code session}, the first stamped {@code start}. */
  static List<ObjectNode> payloads(LoopData.Session session, Instant start) {
    List<ObjectNode> out = new ArrayList<>();
    Stamp stamp = new Stamp(session, start);
    ObjectNode first = stamp.next("SessionStart");
    first.put("source", "startup");
    out.add(first);
    int tools = 0;
    for (LoopData.Event e : session.events()) {
      if (e instanceof LoopData.Prompt p) {
        ObjectNode n = stamp.next("UserPromptSubmit");
        n.put("prompt", p.text());
        out.add(n);
      } else if (e instanceof LoopData.Assistant a) {
        ObjectNode n = stamp.next("Stop");
        n.put("stop_hook_active", false);
        n.put("last_assistant_message", a.text());
        n.putObject("data").put("message", a.text());
        out.add(n);
      } else if (e instanceof LoopData.Tool t) {
        tools++;
        String use = String.format(Locale.ROOT, "toolu_%s_%03d", session.id(), tools);
        ObjectNode pre = stamp.next("PreToolUse");
        pre.put("tool_name", t.tool());
        pre.set("tool_input", t.input());
        pre.put("tool_use_id", use);
        pre.put("eventId", "PreToolUse:" + use);
        out.add(pre);
        ObjectNode post = stamp.next("PostToolUse");
        post.put("tool_name", t.tool());
        post.set("tool_input", t.input());
        post.set("tool_response", response(t));
        post.put("tool_use_id", use);
        post.put("eventId", "PostToolUse:" + use);
        out.add(post);
      }
    }
    ObjectNode end = stamp.next("SessionEnd");
    end.put("reason", "prompt_input_exit");
    out.add(end);
    return out;
  }

  private static JsonNode response(LoopData.Tool t) {
    JsonNode output = t.output();
    if (t.tool().equals("Bash") && output.isTextual()) {
      ObjectNode r = JSON.createObjectNode();
      r.put("stdout", output.textValue());
      r.put("stderr", "");
      r.put("interrupted", false);
      r.put("isImage", false);
      return r;
    }
    return output;
  }

  /** The fields every payload of a session shares, with times one second apart. */
  private static final class Stamp {
    private final LoopData.Session session;
    private Instant at;

    Stamp(LoopData.Session session, Instant start) {
      this.session = session;
      this.at = start;
    }

    ObjectNode next(String event) {
      ObjectNode n = JSON.createObjectNode();
      n.put("session_id", session.id());
      n.put("transcript_path", "/home/dev/.claude/projects/" + session.id() + ".jsonl");
      n.put("cwd", cwd(session.project()));
      n.put("hook_event_name", event);
      n.put("project", session.project());
      n.put("timestamp", at.toString());
      at = at.plusSeconds(1);
      return n;
    }
  }
}
