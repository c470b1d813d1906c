package dev.memhook.benchmarks.loop;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A memory-loop scenario file: JSON Lines, one object a line, either a session ({@code
 * "type":"session"}: scenario, session, project, events) or a probe ({@code "type":"probe"}:
 * scenario, session, project, prompt, expect, category). Events are {@code {"kind":"prompt",
 * "text":…}}, {@code {"kind":"assistant","text":…}} or {@code {"kind":"tool","tool":…,
 * "input":{…},"output":…}}. A probe whose {@code expect} is empty is off-topic. Blank lines are
 * skipped; anything malformed fails with its line number.
 *
 * <p>Scenarios keep the order of their first line; a scenario's sessions and probes keep file
 * order. Every probe of a scenario runs after all of its sessions were replayed, wherever it stands
 * in the file. Immutable.
 *
 * @param scenarios the scenarios, in order of first appearance
 */
record LoopData(List<Scenario> scenarios) {

  /** The category an off-topic probe is counted under, whatever its file says. */
  static final String OFF_TOPIC = "off-topic";

  private static final ObjectMapper JSON = new ObjectMapper();

  LoopData {
    scenarios = List.copyOf(scenarios);
  }

  /**
   * One scenario: what a user said and did over some sessions, then asked later.
   *
   * @param id the scenario id
   * @param sessions its sessions, replayed in this order
   * @param probes its probes
   */
  record Scenario(String id, List<Session> sessions, List<Probe> probes) {
    Scenario {
      Objects.requireNonNull(id, "id");
      sessions = List.copyOf(sessions);
      probes = List.copyOf(probes);
    }
  }

  /**
   * One replayed session.
   *
   * @param scenario its scenario
   * @param id the agent's session id
   * @param project the project (the last segment of the agent's working directory)
   * @param events what happened, in order
   */
  record Session(String scenario, String id, String project, List<Event> events) {
    Session {
      Objects.requireNonNull(scenario, "scenario");
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(project, "project");
      events = List.copyOf(events);
    }
  }

  /** One thing that happened in a session. */
  sealed interface Event permits Prompt, Assistant, Tool {}

  /** The user's prompt. */
  record Prompt(String text) implements Event {
    Prompt {
      Objects.requireNonNull(text, "text");
    }
  }

  /** The assistant's visible answer. */
  record Assistant(String text) implements Event {
    Assistant {
      Objects.requireNonNull(text, "text");
    }
  }

  /**
   * A tool the assistant ran.
   *
   * @param tool the tool's name ({@code Bash}, {@code Read}, …)
   * @param input its input object; copied, never exposed
   * @param output what it returned: a string, or any JSON value; copied, never exposed
   */
  record Tool(String tool, ObjectNode input, JsonNode output) implements Event {
    Tool {
      Objects.requireNonNull(tool, "tool");
      input = Objects.requireNonNull(input, "input").deepCopy();
      output = Objects.requireNonNull(output, "output").deepCopy();
    }

    /** A copy of the input. */
    @Override
    public ObjectNode input() {
      return input.deepCopy();
    }

    /** A copy of the output. */
    @Override
    public JsonNode output() {
      return output.deepCopy();
    }

    /** The output as the model reads it: a string as is, anything else as compact JSON. */
    String outputText() {
      return output.isTextual() ? output.textValue() : output.toString();
    }
  }

  /**
   * A later question, asked in a session of its own.
   *
   * @param scenario its scenario
   * @param session the probe's session id
   * @param project its project
   * @param prompt what the user asks
   * @param expect strings of which one, in injected text (ignoring case), makes a hit; empty for an
   *     off-topic probe
   * @param category the kind of fact probed; {@value #OFF_TOPIC} for an off-topic probe
   */
  record Probe(
      String scenario,
      String session,
      String project,
      String prompt,
      List<String> expect,
      String category) {
    Probe {
      Objects.requireNonNull(scenario, "scenario");
      Objects.requireNonNull(session, "session");
      Objects.requireNonNull(project, "project");
      Objects.requireNonNull(prompt, "prompt");
      expect = List.copyOf(expect);
      category = expect.isEmpty() ? OFF_TOPIC : Objects.requireNonNull(category, "category");
    }

    /** Whether no memory answers it. */
    boolean offTopic() {
      return expect.isEmpty();
    }

    /** Whether {@code text} holds one of the expected strings, ignoring case. */
    boolean matches(String text) {
      String lower = text.toLowerCase(Locale.ROOT);
      for (String e : expect) {
        if (lower.contains(e.toLowerCase(Locale.ROOT))) {
          return true;
        }
      }
      return false;
    }
  }

  /** The scenarios of {@code file}; see the class comment. */
  static LoopData read(Path file) throws IOException {
    return parse(Files.readAllLines(file, StandardCharsets.UTF_8));
  }

  /**
   * The scenarios of {@code lines}.
   *
   * @throws IllegalArgumentException naming the line, if one is malformed, a probe's session is one
   *     of its scenario's replayed sessions, or a scenario has no session or no probe
   */
  static LoopData parse(List<String> lines) {
    Map<String, List<Session>> sessions = new LinkedHashMap<>();
    Map<String, List<Probe>> probes = new LinkedHashMap<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty()) {
        continue;
      }
      String where = "line " + (i + 1) + ": ";
      JsonNode n;
      try {
        n = JSON.readTree(line);
      } catch (JsonProcessingException e) {
        throw new IllegalArgumentException(where + "not JSON: " + e.getOriginalMessage(), e);
      }
      if (n == null || !n.isObject()) {
        throw new IllegalArgumentException(where + "not a JSON object");
      }
      String type = text(n, "type", where);
      String scenario = text(n, "scenario", where);
      sessions.computeIfAbsent(scenario, s -> new ArrayList<>());
      probes.computeIfAbsent(scenario, s -> new ArrayList<>());
      switch (type) {
        case "session" -> sessions.get(scenario).add(session(n, scenario, where));
        case "probe" -> probes.get(scenario).add(probe(n, scenario, where));
        default -> throw new IllegalArgumentException(where + "unknown type '" + type + "'");
      }
    }
    List<Scenario> out = new ArrayList<>();
    for (String id : sessions.keySet()) {
      List<Session> ss = sessions.get(id);
      List<Probe> ps = probes.get(id);
      if (ss.isEmpty() || ps.isEmpty()) {
        throw new IllegalArgumentException(
            "scenario '" + id + "' needs at least one session and one probe");
      }
      Set<String> replayed = new HashSet<>();
      ss.forEach(s -> replayed.add(s.id()));
      for (Probe p : ps) {
        if (replayed.contains(p.session())) {
          throw new IllegalArgumentException(
              "scenario '" + id + "': probe session '" + p.session() + "' is a replayed session");
        }
      }
      out.add(new Scenario(id, ss, ps));
    }
    return new LoopData(out);
  }

  /**
   * The scenario {@code id} alone.
   *
   * @throws IllegalArgumentException when no scenario has that id
   */
  LoopData only(String id) {
    return new LoopData(
        List.of(
            scenarios.stream()
                .filter(s -> s.id().equals(id))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no scenario '" + id + "'"))));
  }

  /** The first {@code n} scenarios. */
  LoopData limit(int n) {
    return new LoopData(scenarios.subList(0, Math.min(n, scenarios.size())));
  }

  private static Session session(JsonNode n, String scenario, String where) {
    JsonNode events = n.get("events");
    if (events == null || !events.isArray() || events.isEmpty()) {
      throw new IllegalArgumentException(where + "a session needs a non-empty 'events' array");
    }
    List<Event> out = new ArrayList<>();
    for (JsonNode e : events) {
      out.add(event(e, where));
    }
    return new Session(scenario, text(n, "session", where), text(n, "project", where), out);
  }

  private static Event event(JsonNode e, String where) {
    if (!e.isObject()) {
      throw new IllegalArgumentException(where + "an event must be an object");
    }
    String kind = text(e, "kind", where);
    return switch (kind) {
      case "prompt" -> new Prompt(text(e, "text", where));
      case "assistant" -> new Assistant(text(e, "text", where));
      case "tool" -> {
        JsonNode input = e.get("input");
        if (input != null && !input.isObject() && !input.isNull()) {
          throw new IllegalArgumentException(where + "a tool's 'input' must be an object");
        }
        JsonNode output = e.get("output");
        yield new Tool(
            text(e, "tool", where),
            input instanceof ObjectNode o ? o : JSON.createObjectNode(),
            output == null || output.isNull() ? JSON.getNodeFactory().textNode("") : output);
      }
      default -> throw new IllegalArgumentException(where + "unknown event kind '" + kind + "'");
    };
  }

  private static Probe probe(JsonNode n, String scenario, String where) {
    JsonNode expect = n.get("expect");
    if (expect == null || !expect.isArray()) {
      throw new IllegalArgumentException(where + "a probe needs an 'expect' array");
    }
    List<String> strings = new ArrayList<>();
    for (JsonNode e : expect) {
      if (!e.isTextual() || e.textValue().isBlank()) {
        throw new IllegalArgumentException(where + "'expect' holds non-blank strings only");
      }
      strings.add(e.textValue());
    }
    String category =
        strings.isEmpty()
            ? OFF_TOPIC
            : text(n, "category", where).toLowerCase(Locale.ROOT).replace(' ', '-');
    return new Probe(
        scenario,
        text(n, "session", where),
        text(n, "project", where),
        text(n, "prompt", where),
        strings,
        category);
  }

  private static String text(JsonNode n, String field, String where) {
    JsonNode v = n.get(field);
    if (v == null || !v.isTextual() || v.textValue().isBlank()) {
      throw new IllegalArgumentException(where + "'" + field + "' must be a non-blank string");
    }
    return v.textValue();
  }
}
