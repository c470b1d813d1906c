package dev.memhook.cli;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Which agent sent a hook payload, and for which of its events, as the installed hook says: {@code
 * memhook hook --agent NAME --event NAME}, {@code POST /hook?agent=NAME&event=NAME}, or the
 * script's {@code memhook-hook SCOPE AGENT EVENT}, which carries them into its spool files. A
 * payload is translated by the agent it is declared to come from ({@link AgentPayloads}), never by
 * guessing from its fields: several agents send look-alike fields that mean different things.
 *
 * @param agent the agent; {@link CodingAgent#CLAUDE_CODE} when the hook names none, as hooks
 *     installed before agents were named do (Codex's and Gemini CLI's payloads are read that way)
 * @param event the agent's name for the event, or empty when the hook names none: the payload's own
 *     {@code hook_event_name} then says, which GitHub Copilot's camelCase payloads lack
 */
record HookOrigin(CodingAgent agent, String event) {
  /** Claude Code's format, the event named by the payload: what a hook that names nothing sends. */
  static final HookOrigin DEFAULT = new HookOrigin(CodingAgent.CLAUDE_CODE, "");

  /** An event name: letters only, as every agent spells them. */
  private static final Pattern EVENT = Pattern.compile("[A-Za-z]{1,64}");

  /**
   * @throws NullPointerException if either is null
   * @throws IllegalArgumentException if {@code event} is neither empty nor a name of letters
   */
  HookOrigin {
    Objects.requireNonNull(agent, "agent");
    Objects.requireNonNull(event, "event");
    if (!event.isEmpty() && !EVENT.matcher(event).matches()) {
      // the value is not echoed: a malformed argument may be anything, a secret included
      throw new IllegalArgumentException("an event name is 1-64 letters; the one given is not");
    }
  }

  /**
   * The origin {@code agent} and {@code event} name, each null or blank when not given.
   *
   * @throws IllegalArgumentException naming the agents known, if {@code agent} is none of them, or
   *     if {@code event} is malformed
   */
  static HookOrigin of(String agent, String event) {
    CodingAgent a =
        agent == null || agent.isBlank() ? CodingAgent.CLAUDE_CODE : CodingAgent.of(agent.strip());
    return new HookOrigin(a, event == null ? "" : event.strip());
  }

  /**
   * The origin a query names ({@code agent=…&event=…}), else {@link #DEFAULT}.
   *
   * @throws IllegalArgumentException if it names an unknown agent or a malformed event
   */
  static HookOrigin fromQuery(String rawQuery) {
    String agent = null;
    String event = null;
    if (rawQuery != null) {
      for (String pair : rawQuery.split("&")) {
        int eq = pair.indexOf('=');
        if (eq < 0) {
          continue;
        }
        String key = URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8);
        String value = URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
        if (key.equals("agent")) {
          agent = value;
        } else if (key.equals("event")) {
          event = value;
        }
      }
    }
    return of(agent, event);
  }
}
