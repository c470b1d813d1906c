package dev.memhook.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Memhook's entries in a coding agent's hooks, and the merge that puts them there: under {@code
 * hooks.<Event>}, one matcher group per event holding Memhook's one hook, the layout Claude Code,
 * Codex and Gemini CLI share ({@code {"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":
 * "command",…}]}]}}}), or Memhook's one hook itself in Cursor's and GitHub Copilot's flat lists
 * ({@code {"version":1,"hooks":{"preToolUse":[{"command":…}]}}}).
 *
 * <h2>Design note</h2>
 *
 * Memhook's hooks are recognised by what they run ({@link #ours}): the {@code memhook-hook} script
 * (in {@code command}, or in GitHub Copilot's {@code bash}), a {@code memhook hook} command (as the
 * README showed before {@code install} existed), or an http hook posting to {@code
 * 127.0.0.1:<port>/hook}. No marker field is added, since agents validate their settings. The merge
 * removes every hook of Memhook's, under any event, and puts the new one where the first of them
 * was (else at the end of its event's list), so every other hook and key keeps its place, and a
 * second run with the same arguments changes nothing. A matcher group that held only Memhook's
 * hooks goes with them; one that held others too keeps them. A flat hooks file that has no {@code
 * version} is given {@code 1}, the only one Cursor and Copilot read.
 *
 * <p>Stateless.
 */
final class AgentHooks {
  /** The environment variable an http hook's and the MCP entry's header read the token from. */
  static final String TOKEN_VARIABLE = "MEMHOOK_TOKEN";

  /**
   * A hook's timeout: the script's worst case (connecting, the server's answer, encrypting) with
   * room to spare, so the agent never has to kill it.
   */
  static final int TIMEOUT_SECONDS = 10;

  private static final Pattern OUR_URL =
      Pattern.compile("http://127\\.0\\.0\\.1:\\d+/hook(\\?.*)?");
  private static final Pattern OUR_COMMAND =
      Pattern.compile(
          ".*(memhook-hook|(^|[\\s/'\"])memhook['\"]?\\s+hook)(['\"\\s].*|$)", Pattern.DOTALL);

  private AgentHooks() {}

  /** A command hook running {@code command}, as {@code agent} writes one. */
  static ObjectNode command(CodingAgent agent, String command) {
    ObjectNode hook = JsonRecords.MAPPER.createObjectNode();
    switch (agent) {
      case COPILOT -> {
        // bash only: the script is POSIX sh, and Copilot runs powershell entries on Windows
        return hook.put("type", "command")
            .put("bash", command)
            .put("timeoutSec", agent.timeout(TIMEOUT_SECONDS));
      }
      case CURSOR -> {
        return hook.put("command", command).put("timeout", agent.timeout(TIMEOUT_SECONDS));
      }
      case GEMINI -> hook.put("name", "memhook"); // Gemini CLI lists and disables hooks by name
      case CLAUDE_CODE, CODEX -> {
        // Claude Code's shape, below
      }
    }
    return hook.put("type", "command")
        .put("command", command)
        .put("timeout", agent.timeout(TIMEOUT_SECONDS));
  }

  /** A Claude Code http hook posting to {@code url} with the token from the environment. */
  static ObjectNode http(String url) {
    ObjectNode hook = JsonRecords.MAPPER.createObjectNode().put("type", "http").put("url", url);
    hook.putObject("headers").put("Authorization", "Bearer $" + TOKEN_VARIABLE);
    hook.putArray("allowedEnvVars").add(TOKEN_VARIABLE);
    return hook.put("timeout", TIMEOUT_SECONDS);
  }

  /** Whether {@code hook} is one of Memhook's (see the design note). */
  static boolean ours(JsonNode hook) {
    for (String field : List.of("command", "bash")) { // bash: GitHub Copilot's
      JsonNode command = hook.get(field);
      if (command != null
          && command.isTextual()
          && OUR_COMMAND.matcher(command.textValue()).matches()) {
        return true;
      }
    }
    JsonNode url = hook.get("url");
    return url != null && url.isTextual() && OUR_URL.matcher(url.textValue()).matches();
  }

  /**
   * Puts {@code hookFor(event)} under each of {@code agent}'s events in {@code settings}, replacing
   * Memhook's earlier hooks, and removes Memhook's hooks from every other event.
   *
   * @throws CliException ({@link ExitCode#BAD_INPUT}) if {@code settings.hooks} is not an object
   */
  static void merge(
      ObjectNode settings,
      CodingAgent agent,
      Function<CodingAgent.AgentEvent, ObjectNode> hookFor) {
    JsonNode existing = settings.get("hooks");
    if (existing != null && !existing.isObject()) {
      throw new CliException(
          ExitCode.BAD_INPUT, "the settings' \"hooks\" is not an object; nothing was changed");
    }
    boolean flat = agent.layout() == CodingAgent.HookLayout.FLAT;
    if (flat && !settings.has("version")) {
      settings.put("version", 1); // both agents refuse a hooks file without it
    }
    ObjectNode hooks = existing == null ? settings.putObject("hooks") : (ObjectNode) existing;
    Set<String> installed = new HashSet<>();
    for (CodingAgent.AgentEvent event : agent.events()) {
      installed.add(event.name());
      ObjectNode entry;
      if (flat) {
        entry = hookFor.apply(event);
      } else {
        entry = JsonRecords.MAPPER.createObjectNode();
        if (event.tool() && agent == CodingAgent.CLAUDE_CODE) {
          entry.put("matcher", "*");
        }
        entry.putArray("hooks").add(hookFor.apply(event));
      }
      hooks.set(event.name(), place(hooks.get(event.name()), entry, flat));
    }
    List<String> others = new ArrayList<>();
    hooks.fieldNames().forEachRemaining(others::add);
    for (String name : others) {
      if (!installed.contains(name) && hooks.get(name).isArray()) {
        hooks.set(name, place(hooks.get(name), null, flat));
      }
    }
  }

  /**
   * {@code groups} without Memhook's hooks, and with {@code ours} (unless null) where the first of
   * them was, else at the end. With {@code flat}, the list holds the hooks themselves ({@link
   * CodingAgent.HookLayout#FLAT}) rather than groups of them.
   */
  private static JsonNode place(JsonNode groups, ObjectNode ours, boolean flat) {
    if (groups != null && !groups.isArray()) {
      return groups; // not the layout this knows: left alone, Memhook's goes nowhere else
    }
    ArrayNode out = JsonRecords.MAPPER.createArrayNode();
    boolean placed = false;
    for (JsonNode group : groups == null ? JsonRecords.MAPPER.createArrayNode() : groups) {
      if (flat) {
        if (!ours(group)) {
          out.add(group);
        } else if (!placed && ours != null) {
          out.add(ours);
          placed = true;
        }
        continue;
      }
      JsonNode inner = group.get("hooks");
      if (!group.isObject() || inner == null || !inner.isArray()) {
        out.add(group);
        continue;
      }
      ArrayNode kept = JsonRecords.MAPPER.createArrayNode();
      boolean hadOurs = false;
      for (JsonNode h : inner) {
        if (ours(h)) {
          hadOurs = true;
        } else {
          kept.add(h);
        }
      }
      if (!hadOurs) {
        out.add(group);
        continue;
      }
      if (!kept.isEmpty()) {
        ObjectNode rest = ((ObjectNode) group).deepCopy();
        rest.set("hooks", kept);
        out.add(rest);
      }
      if (!placed && ours != null) {
        out.add(ours);
        placed = true;
      }
    }
    if (!placed && ours != null) {
      out.add(ours);
    }
    return out;
  }

  /** {@code s} quoted for a POSIX shell: in single quotes, each of its own as {@code '\''}. */
  static String shellQuote(String s) {
    return "'" + s.replace("'", "'\\''") + "'";
  }
}
