package dev.memhook.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Memhook's MCP server in a coding agent's JSON settings: the entry {@code mcpServers.memhook} for
 * {@code memhook serve}'s {@code /mcp} endpoint, in the agent's documented form, its {@code
 * Authorization} header read from {@value AgentHooks#TOKEN_VARIABLE} in the agent's environment
 * (both agents expand {@code ${VAR}} there), so no token is written to a settings file:
 *
 * <ul>
 *   <li>Claude Code ({@code .mcp.json}, {@code ~/.claude.json}): {@code {"type":"http","url":…,
 *       "headers":{"Authorization":"Bearer ${MEMHOOK_TOKEN}"}}};
 *   <li>Gemini CLI ({@code settings.json}): {@code {"httpUrl":…,"headers":{…}}}, {@code httpUrl}
 *       being its key for a Streamable HTTP server.
 *   <li>Cursor ({@code .cursor/mcp.json}): {@code {"url":…,"headers":{"Authorization":"Bearer
 *       ${env:MEMHOOK_TOKEN}"}}}, Cursor's own syntax for a variable of the environment.
 * </ul>
 *
 * Codex keeps its servers in TOML ({@link CodexConfig}). The entry is Memhook's by its name: the
 * merge replaces an entry named {@value CodexConfig#SERVER} (an older {@code memhook mcp} stdio
 * entry too) and keeps every other server and key. Stateless.
 */
final class AgentMcp {
  private AgentMcp() {}

  /** The entry for {@code agent}, a JSON-settings agent, pointing at {@code url}. */
  static ObjectNode entry(CodingAgent agent, String url) {
    ObjectNode entry = JsonRecords.MAPPER.createObjectNode();
    switch (agent) {
      case CLAUDE_CODE -> entry.put("type", "http").put("url", url);
      case GEMINI -> entry.put("httpUrl", url);
      case CURSOR -> entry.put("url", url);
      default ->
          throw new IllegalArgumentException(agent.id() + " keeps no MCP servers in JSON settings");
    }
    // Cursor interpolates ${env:NAME}; Claude Code and Gemini CLI ${NAME}
    String variable =
        agent == CodingAgent.CURSOR
            ? "${env:" + AgentHooks.TOKEN_VARIABLE + "}"
            : "${" + AgentHooks.TOKEN_VARIABLE + "}";
    entry.putObject("headers").put("Authorization", "Bearer " + variable);
    return entry;
  }

  /**
   * Puts {@code entry} under {@code mcpServers} in {@code settings} as {@value CodexConfig#SERVER},
   * where an entry of that name was, else last.
   *
   * @throws CliException ({@link ExitCode#BAD_INPUT}) if {@code settings.mcpServers} is not an
   *     object
   */
  static void merge(ObjectNode settings, ObjectNode entry) {
    JsonNode existing = settings.get("mcpServers");
    if (existing != null && !existing.isObject()) {
      throw new CliException(
          ExitCode.BAD_INPUT, "the settings' \"mcpServers\" is not an object; nothing was changed");
    }
    ObjectNode servers =
        existing == null ? settings.putObject("mcpServers") : (ObjectNode) existing;
    servers.set(CodexConfig.SERVER, entry); // replaces in place, keeping the entry's position
  }
}
