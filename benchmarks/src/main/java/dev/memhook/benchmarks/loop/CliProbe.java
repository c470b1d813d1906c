package dev.memhook.benchmarks.loop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memhook.cli.InProcessMemhook;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Asks a probe as a coding agent's user would: {@code memhook hook --dir DIR} run in process twice,
 * as the agent runs it at the start of the probe's session ({@code SessionStart}) and when the
 * prompt is submitted ({@code UserPromptSubmit}), each time a Claude Code payload on standard
 * input. The outcome is the {@code hookSpecificOutput.additionalContext} of both answers (the
 * session start's marked as standing memories): each memory line ({@code - id (type) title:
 * summary}) one memory whose text is the line without the id; characters are both contexts' length.
 * A line of the prompt's answer whose memory the session start offered is that standing memory's
 * excerpt for the prompt ({@code - id (type) excerpt: …}) and is marked standing too, as the chat
 * hook's first injection shows a standing memory's excerpt inside its standing entry. The command
 * chooses its embedder itself ({@code auto}: the store's own model), so it loads the model on every
 * run, as the agent's hook does. Anything it prints on standard error is noted as a failure.
 * Stateless.
 */
final class CliProbe {

  private CliProbe() {}

  /** Asks {@code probe} of the store in {@code dir}. */
  static ProbeOutcome ask(LoopData.Probe probe, Path dir) {
    List<ProbeOutcome.InjectedMemory> injected = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    int chars = 0;
    ObjectNode start = payload(probe, "SessionStart");
    start.put("source", "startup");
    ObjectNode submit = payload(probe, "UserPromptSubmit");
    submit.put("prompt", probe.prompt());
    for (ObjectNode p : List.of(start, submit)) {
      InProcessMemhook.Result r =
          InProcessMemhook.run(Map.of(), p.toString(), "hook", "--dir", dir.toString());
      if (!r.err().isBlank()) {
        failures.add(p.path("hook_event_name").asText() + ": " + r.err().strip());
      }
      String context = additionalContext(r.out(), failures);
      chars += context.length();
      parse(context, injected, p == start ? Set.of() : standingIds(injected), p == start);
    }
    return new ProbeOutcome(probe, injected, chars, failures);
  }

  /** The additional context in the command's output; empty if it printed none. */
  static String additionalContext(String out, List<String> failures) {
    if (out.isBlank()) {
      return "";
    }
    try {
      JsonNode n = HookReplay.JSON.readTree(out);
      return n.path("hookSpecificOutput").path("additionalContext").asText("");
    } catch (IOException e) {
      failures.add("unparseable hook output");
      return "";
    }
  }

  /**
   * Adds each memory line of {@code context} to {@code injected}, marked standing for the session
   * start's answer ({@code standing}), which offers the scope's standing memories, and for a line
   * of a memory in {@code standingIds}, which that answer offered.
   */
  static void parse(
      String context,
      List<ProbeOutcome.InjectedMemory> injected,
      Set<String> standingIds,
      boolean standing) {
    for (String line : context.lines().toList()) {
      if (!line.startsWith("- ")) {
        continue;
      }
      String rest = line.substring(2);
      int space = rest.indexOf(' ');
      String id = space < 0 ? rest : rest.substring(0, space);
      String text = space < 0 ? "" : rest.substring(space + 1);
      injected.add(new ProbeOutcome.InjectedMemory(id, text, standing || standingIds.contains(id)));
    }
  }

  /** The ids of the standing memories among {@code injected}. */
  private static Set<String> standingIds(List<ProbeOutcome.InjectedMemory> injected) {
    Set<String> ids = new HashSet<>();
    injected.stream().filter(ProbeOutcome.InjectedMemory::standing).forEach(m -> ids.add(m.id()));
    return ids;
  }

  private static ObjectNode payload(LoopData.Probe probe, String event) {
    ObjectNode n = HookReplay.JSON.createObjectNode();
    n.put("session_id", probe.session());
    n.put("transcript_path", "/home/dev/.claude/projects/" + probe.session() + ".jsonl");
    n.put("cwd", HookReplay.cwd(probe.project()));
    n.put("hook_event_name", event);
    return n;
  }
}
