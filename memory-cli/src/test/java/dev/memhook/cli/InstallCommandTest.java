package dev.memhook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import dev.memhook.core.Memhook;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * memhook install: merges Memhook's hooks into an agent's settings keeping everything else, with a
 * backup, in each agent's layout (Cursor's and Copilot's flat lists naming the agent and event for
 * the script), changes nothing when run again, refuses a file that is not JSON and unknown agents.
 */
class InstallCommandTest {
  private static final List<String> CLAUDE_EVENTS =
      List.of(
          "SessionStart",
          "UserPromptSubmit",
          "PreToolUse",
          "PostToolUse",
          "PostToolUseFailure",
          "PreCompact",
          "Stop",
          "SubagentStop",
          "SessionEnd");

  /** A project's settings with a permission, another tool's hooks and an old memhook hook entry. */
  private static final String EXISTING =
      """
      {
        "permissions": { "allow": ["Bash(mvn test)"] },
        "hooks": {
          "PreToolUse": [
            { "matcher": "Bash", "hooks": [{ "type": "command", "command": "./guard.sh" }] },
            { "matcher": "*", "hooks": [
              { "type": "command", "command": "/opt/memhook/memory-cli/bin/memhook hook --dir ~/.memhook" },
              { "type": "command", "command": "./audit.sh" }
            ] }
          ],
          "Notification": [{ "hooks": [{ "type": "command", "command": "notify-send done" }] }]
        },
        "model": "opus"
      }
      """;

  @TempDir Path store;
  @TempDir Path project;

  @Test
  void claudeCode_isIdempotent_keepsEverythingElse_andKeepsABackup() throws IOException {
    Path settings = project.resolve(".claude/settings.json");
    Files.createDirectories(settings.getParent());
    Files.writeString(settings, EXISTING, StandardCharsets.UTF_8);

    Cli.Result first = install("claude-code", "--scope", "me/shop", "--settings", settings);
    assertEquals(0, first.code(), first.err());
    JsonNode s = JsonRecords.MAPPER.readTree(settings.toFile());
    assertEquals("Bash(mvn test)", s.at("/permissions/allow/0").asText());
    assertEquals("opus", s.path("model").asText());
    assertEquals("notify-send done", s.at("/hooks/Notification/0/hooks/0/command").asText());
    String command = "'" + store.resolve("bin/memhook-hook") + "' 'me/shop'";
    for (String event : CLAUDE_EVENTS) {
      List<String> ours = new ArrayList<>();
      for (JsonNode group : s.path("hooks").path(event)) {
        for (JsonNode hook : group.path("hooks")) {
          if (AgentHooks.ours(hook)) {
            ours.add(hook.path("command").asText());
          }
        }
      }
      assertEquals(List.of(command), ours, event);
    }
    // the other tool's hooks stay, in their place; the old memhook entry is replaced, not doubled
    JsonNode pre = s.at("/hooks/PreToolUse");
    assertEquals(3, pre.size(), pre.toString());
    assertEquals("./guard.sh", pre.at("/0/hooks/0/command").asText());
    assertEquals("./audit.sh", pre.at("/1/hooks/0/command").asText());
    assertEquals(1, pre.at("/1/hooks").size());
    assertEquals("*", pre.at("/2/matcher").asText());
    assertEquals(command, pre.at("/2/hooks/0/command").asText());

    assertTrue(s.path("mcpServers").isMissingNode(), "Claude Code's MCP servers live elsewhere");
    assertTrue(
        first.out().contains("MCP server: " + mcpFile("claude-code") + " (created)"), first.out());

    List<Path> backups = backups(settings);
    assertEquals(1, backups.size(), backups.toString());
    assertEquals(EXISTING, Files.readString(backups.get(0), StandardCharsets.UTF_8));
    Path script = store.resolve("bin/memhook-hook");
    assertTrue(Files.isExecutable(script));
    assertEquals(
        "rw-------",
        PosixFilePermissions.toString(Files.getPosixFilePermissions(store.resolve("spool.key"))));
    assertEquals(65, Files.readString(store.resolve("spool.key")).length(), "64 hex and a newline");

    byte[] settingsBefore = Files.readAllBytes(settings);
    String keyBefore = Files.readString(store.resolve("spool.key"));
    Cli.Result second = install("claude-code", "--scope", "me/shop", "--settings", settings);
    assertEquals(0, second.code(), second.err());
    assertTrue(second.out().contains("hook script: " + script + " (unchanged)"), second.out());
    assertTrue(second.out().contains(settings + " (unchanged)"), second.out());
    assertTrue(second.out().contains(mcpFile("claude-code") + " (unchanged)"), second.out());
    assertEquals(new String(settingsBefore, StandardCharsets.UTF_8), Files.readString(settings));
    assertEquals(keyBefore, Files.readString(store.resolve("spool.key")), "the key is kept");
    assertEquals(backups, backups(settings), "no backup when nothing changes");
  }

  @Test
  void anotherScope_replacesMemhooksEntries_andBacksUpAgain() throws IOException {
    Path settings = project.resolve("settings.json");
    assertEquals(0, install("claude-code", "--settings", settings).code());
    Cli.Result again = install("claude-code", "--scope", "team", "--settings", settings);
    assertEquals(0, again.code(), again.err());
    JsonNode s = JsonRecords.MAPPER.readTree(settings.toFile());
    for (String event : CLAUDE_EVENTS) {
      assertEquals(1, s.at("/hooks/" + event).size(), event);
      assertTrue(
          s.at("/hooks/" + event + "/0/hooks/0/command").asText().endsWith(" 'team'"), event);
    }
    assertEquals(1, backups(settings).size());
  }

  @Test
  void httpTransport_writesHttpHooksReadingTheTokenFromTheEnvironment() throws IOException {
    Path settings = project.resolve("settings.json");
    install("claude-code", "--settings", settings);
    Cli.Result r =
        install("claude-code", "--transport", "http", "--port", "7400", "--settings", settings);
    assertEquals(0, r.code(), r.err());
    JsonNode s = JsonRecords.MAPPER.readTree(settings.toFile());
    for (String event : CLAUDE_EVENTS) {
      JsonNode groups = s.at("/hooks/" + event);
      assertEquals(1, groups.size(), "the command hook was replaced: " + groups);
      JsonNode hook = groups.at("/0/hooks/0");
      assertEquals("http", hook.path("type").asText());
      assertEquals("http://127.0.0.1:7400/hook?scope=default", hook.path("url").asText());
      assertEquals("Bearer $MEMHOOK_TOKEN", hook.at("/headers/Authorization").asText());
      assertEquals("MEMHOOK_TOKEN", hook.at("/allowedEnvVars/0").asText());
    }
  }

  @Test
  void aStoreOfAModelMemhookLacks_isRefused_andNothingIsWritten() throws IOException {
    try (MemoryService memory =
        Memhook.builder().directory(store).embedder(new HostModel()).noCapture().build()) {
      memory.remember(MemoryDraft.of(Scope.DEFAULT, "We deploy on Thursdays."));
    }
    Path settings = project.resolve("settings.json");
    Files.writeString(settings, EXISTING);
    Cli.Result r = install("claude-code", "--settings", settings);
    assertEquals(ExitCode.STORE_UNAVAILABLE, r.code(), r.out() + r.err());
    assertTrue(r.err().contains("'" + HostModel.ID + "'"), r.err());
    assertTrue(r.err().contains("nothing was installed"), r.err());
    assertEquals(EXISTING, Files.readString(settings));
    assertEquals(List.of(), backups(settings));
    assertFalse(Files.exists(store.resolve("bin")), "not even the script");
  }

  @Test
  void settingsThatAreNotJson_areAClearError_andLeftUntouched() throws IOException {
    Path settings = project.resolve("settings.json");
    String broken = "{ \"hooks\": { \"Stop\": [ }\n";
    Files.writeString(settings, broken);
    Cli.Result r = install("claude-code", "--settings", settings);
    assertEquals(ExitCode.BAD_INPUT, r.code());
    assertTrue(r.err().contains(settings + " is not valid JSON at line 1"), r.err());
    assertEquals(broken, Files.readString(settings));
    assertEquals(List.of(), backups(settings));
    assertFalse(Files.exists(store.resolve("bin")), "not even the script");
  }

  @Test
  void settingsWithContentAfterTheirObject_areAClearError_andLeftUntouched() throws IOException {
    // a brace closed too early: the agent refuses the file, and rewriting only its first object
    // would drop the permissions after it
    Path settings = project.resolve("settings.json");
    String broken =
        "{\n  \"model\": \"opus\"\n  },\n  \"permissions\": {\"allow\": [\"Bash(mvn test)\"]}\n}\n";
    Files.writeString(settings, broken);
    Cli.Result r = install("claude-code", "--settings", settings);
    assertEquals(ExitCode.BAD_INPUT, r.code(), r.out());
    assertTrue(r.err().contains(settings + " is not valid JSON at line 3"), r.err());
    assertEquals(broken, Files.readString(settings));
    assertEquals(List.of(), backups(settings));
    assertFalse(Files.exists(store.resolve("bin")), "not even the script");
  }

  @Test
  void symlinkedSettings_areWrittenThroughTheLink_whichStays() throws IOException {
    // settings kept in a dotfiles repository and linked into place, as many users keep them
    Path dotfiles = Files.createDirectories(project.resolve("dotfiles"));
    Path real = dotfiles.resolve("settings.json");
    Files.writeString(real, EXISTING, StandardCharsets.UTF_8);
    Path settings = project.resolve(".claude/settings.json");
    Files.createDirectories(settings.getParent());
    Files.createSymbolicLink(settings, Path.of("../dotfiles/settings.json"));
    Path realToml = dotfiles.resolve("config.toml");
    Files.writeString(realToml, "model = \"o3\"\n");
    Path toml = project.resolve("codex-config.toml");
    Files.createSymbolicLink(toml, realToml);

    assertEquals(0, install("claude-code", "--settings", settings).code());
    assertEquals(0, install("codex", "--settings", project.resolve("hooks.json")).code());

    assertTrue(Files.isSymbolicLink(settings), "the link is kept");
    assertTrue(Files.isSymbolicLink(toml), "the link is kept");
    JsonNode s = JsonRecords.MAPPER.readTree(real.toFile());
    assertEquals("opus", s.path("model").asText());
    assertTrue(AgentHooks.ours(s.at("/hooks/SessionStart/0/hooks/0")), s.toString());
    assertTrue(Files.readString(realToml).contains("[mcp_servers.memhook]"));
    assertEquals(EXISTING, Files.readString(backups(settings).get(0)), "backed up beside the link");
    try (Stream<Path> files = Files.list(dotfiles)) {
      assertEquals(2, files.count(), "nothing but the two files in the linked directory");
    }
    byte[] before = Files.readAllBytes(real);
    assertEquals(0, install("claude-code", "--settings", settings).code());
    assertEquals(new String(before), Files.readString(real), "idempotent through the link");
  }

  @Test
  void readOnlySettings_areRefusedWhenTheyWouldChange_andLeftUntouched() throws IOException {
    Path settings = project.resolve("settings.json");
    Files.writeString(settings, EXISTING);
    Files.setPosixFilePermissions(settings, PosixFilePermissions.fromString("r--r--r--"));
    Cli.Result r = install("claude-code", "--settings", settings);
    assertEquals(ExitCode.BAD_INPUT, r.code(), r.out());
    assertTrue(r.err().contains(settings + " is read-only"), r.err());
    assertEquals(EXISTING, Files.readString(settings));
    assertEquals(List.of(), backups(settings));
    assertFalse(Files.exists(store.resolve("bin")), "not even the script");

    // Codex's config.toml, checked before any file is written
    Path toml = mcpFile("codex");
    Files.writeString(toml, "model = \"o3\"\n");
    Files.setPosixFilePermissions(toml, PosixFilePermissions.fromString("r--r--r--"));
    Path hooks = project.resolve("codex-hooks.json");
    r = install("codex", "--settings", hooks);
    assertEquals(ExitCode.BAD_INPUT, r.code(), r.out());
    assertTrue(r.err().contains(toml + " is read-only"), r.err());
    assertEquals("model = \"o3\"\n", Files.readString(toml));
    assertFalse(Files.exists(hooks), "the hooks are not written either");

    // a read-only file that already holds what install writes is no error: nothing is written
    Files.setPosixFilePermissions(settings, PosixFilePermissions.fromString("rw-r--r--"));
    assertEquals(0, install("claude-code", "--settings", settings).code());
    Files.setPosixFilePermissions(settings, PosixFilePermissions.fromString("r--r--r--"));
    r = install("claude-code", "--settings", settings);
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains(settings + " (unchanged)"), r.out());
  }

  @Test
  void theCommandsToStartTheServer_areQuotedForTheShell() throws IOException {
    Path odd = Files.createDirectories(project.resolve("it's $HOME"));
    Cli.Result r =
        new Cli(odd)
            .run(
                "install",
                "--agent",
                "claude-code",
                "--dir",
                odd.toString(),
                "--settings",
                project.resolve("settings.json").toString(),
                "--no-mcp");
    assertEquals(0, r.code(), r.err());
    String quoted = AgentHooks.shellQuote(odd.toString());
    assertTrue(r.out().contains("`memhook serve --dir " + quoted + "`"), r.out());
    assertTrue(
        r.out().contains("=$(cat " + AgentHooks.shellQuote(odd.resolve("serve.token").toString())),
        r.out());
  }

  @Test
  void codexAndGemini_getTheirOwnEventsAndLayout() throws IOException {
    Path codex = project.resolve("codex-hooks.json");
    assertEquals(0, install("codex", "--settings", codex).code());
    JsonNode c = JsonRecords.MAPPER.readTree(codex.toFile()).path("hooks");
    assertEquals(
        List.of(
            "SessionStart",
            "UserPromptSubmit",
            "PreToolUse",
            "PostToolUse",
            "PreCompact",
            "Stop",
            "SubagentStop"),
        names(c));
    assertEquals(10, c.at("/PreToolUse/0/hooks/0/timeout").asInt());
    assertTrue(c.at("/PreToolUse/0/matcher").isMissingNode(), "no matcher: every tool");

    Path gemini = project.resolve("gemini-settings.json");
    Files.writeString(gemini, "{\"theme\":\"Dracula\"}");
    assertEquals(0, install("gemini", "--scope", "me/shop", "--settings", gemini).code());
    JsonNode g = JsonRecords.MAPPER.readTree(gemini.toFile());
    assertEquals("Dracula", g.path("theme").asText());
    assertEquals(
        List.of(
            "SessionStart",
            "BeforeAgent",
            "BeforeTool",
            "AfterTool",
            "AfterAgent",
            "PreCompress",
            "SessionEnd"),
        names(g.path("hooks")));
    assertEquals(10_000, g.at("/hooks/BeforeTool/0/hooks/0/timeout").asInt(), "milliseconds");
    assertEquals("memhook", g.at("/hooks/BeforeTool/0/hooks/0/name").asText());
    assertEquals(
        "http://127.0.0.1:7373/mcp?scope=me/shop", g.at("/mcpServers/memhook/httpUrl").asText());
    assertEquals(
        "Bearer ${MEMHOOK_TOKEN}", g.at("/mcpServers/memhook/headers/Authorization").asText());
    assertEquals(1, backups(gemini).size(), "hooks and MCP in one write, one backup");
    for (String wire : HookPayload.GEMINI_NAMES.keySet()) {
      assertTrue(names(g.path("hooks")).contains(wire), wire + " is installed and read");
    }
  }

  @Test
  void cursor_getsFlatHooksNamingItsAgentAndEvent_keepsTheOthers_idempotentWithABackup()
      throws IOException {
    Path hooks = project.resolve(".cursor/hooks.json");
    Files.createDirectories(hooks.getParent());
    String existing =
        """
        {
          "version": 1,
          "hooks": {
            "afterFileEdit": [{ "command": "./format.sh" }],
            "preToolUse": [
              { "command": "./guard.sh", "matcher": "Shell" },
              { "command": "/opt/memhook/bin/memhook-hook 'default'", "timeout": 3 }
            ]
          }
        }
        """;
    Files.writeString(hooks, existing, StandardCharsets.UTF_8);

    Cli.Result first = install("cursor", "--scope", "me/shop", "--settings", hooks);
    assertEquals(0, first.code(), first.err());
    JsonNode h = JsonRecords.MAPPER.readTree(hooks.toFile());
    assertEquals(1, h.path("version").asInt());
    assertEquals(
        List.of(
            "afterFileEdit",
            "preToolUse",
            "sessionStart",
            "beforeSubmitPrompt",
            "postToolUse",
            "postToolUseFailure",
            "afterAgentResponse",
            "preCompact",
            "subagentStop",
            "sessionEnd"),
        names(h.path("hooks")));
    String script = "'" + store.resolve("bin/memhook-hook") + "' 'me/shop'";
    for (CodingAgent.AgentEvent event : CodingAgent.CURSOR.events()) {
      JsonNode list = h.path("hooks").path(event.name());
      List<JsonNode> ours = new ArrayList<>();
      for (JsonNode e : list) {
        if (AgentHooks.ours(e)) {
          ours.add(e);
        }
      }
      assertEquals(1, ours.size(), event.name() + ": " + list);
      assertEquals(
          JsonRecords.MAPPER
              .createObjectNode()
              .put("command", script + " cursor " + event.name())
              .put("timeout", 10),
          ours.get(0),
          event.name());
    }
    // the guard stays first; the old memhook entry is replaced where it was, not doubled
    JsonNode pre = h.at("/hooks/preToolUse");
    assertEquals(2, pre.size(), pre.toString());
    assertEquals("./guard.sh", pre.at("/0/command").asText());
    assertEquals(script + " cursor preToolUse", pre.at("/1/command").asText());
    assertEquals("./format.sh", h.at("/hooks/afterFileEdit/0/command").asText());
    List<Path> backups = backups(hooks);
    assertEquals(1, backups.size());
    assertEquals(existing, Files.readString(backups.get(0), StandardCharsets.UTF_8));

    byte[] before = Files.readAllBytes(hooks);
    Cli.Result second = install("cursor", "--scope", "me/shop", "--settings", hooks);
    assertEquals(0, second.code(), second.err());
    assertTrue(second.out().contains(hooks + " (unchanged)"), second.out());
    assertEquals(new String(before, StandardCharsets.UTF_8), Files.readString(hooks));
    assertEquals(backups, backups(hooks), "no backup when nothing changes");
  }

  @Test
  void copilot_getsABashHookPerEvent_inANewVersionedFile_idempotentWithABackup()
      throws IOException {
    Path hooks = project.resolve(".github/hooks/memhook.json");
    Cli.Result first = install("copilot", "--settings", hooks);
    assertEquals(0, first.code(), first.err());
    JsonNode h = JsonRecords.MAPPER.readTree(hooks.toFile());
    assertEquals(List.of("version", "hooks"), names(h));
    assertEquals(1, h.path("version").asInt());
    List<String> events =
        List.of(
            "sessionStart",
            "userPromptSubmitted",
            "preToolUse",
            "postToolUse",
            "postToolUseFailure",
            "preCompact",
            "subagentStop",
            "sessionEnd");
    assertEquals(events, names(h.path("hooks")));
    String script = "'" + store.resolve("bin/memhook-hook") + "' 'default'";
    for (String event : events) {
      assertEquals(
          JsonRecords.MAPPER
              .createObjectNode()
              .put("type", "command")
              .put("bash", script + " copilot " + event)
              .put("timeoutSec", 10),
          h.at("/hooks/" + event + "/0"),
          event);
      assertEquals(1, h.at("/hooks/" + event).size(), event);
    }
    assertEquals(List.of(), backups(hooks), "a new file has nothing to back up");

    byte[] before = Files.readAllBytes(hooks);
    assertEquals(0, install("copilot", "--settings", hooks).code());
    assertEquals(new String(before, StandardCharsets.UTF_8), Files.readString(hooks));
    assertEquals(List.of(), backups(hooks), "no backup when nothing changes");

    // another scope replaces each of Memhook's entries, and keeps a backup of what was there
    assertEquals(0, install("copilot", "--scope", "me/other", "--settings", hooks).code());
    JsonNode again = JsonRecords.MAPPER.readTree(hooks.toFile());
    assertEquals(
        "'" + store.resolve("bin/memhook-hook") + "' 'me/other' copilot preToolUse",
        again.at("/hooks/preToolUse/0/bash").asText());
    assertEquals(1, again.at("/hooks/preToolUse").size());
    List<Path> backups = backups(hooks);
    assertEquals(1, backups.size());
    assertEquals(
        new String(before, StandardCharsets.UTF_8),
        Files.readString(backups.get(0), StandardCharsets.UTF_8));
  }

  @Test
  void anUnknownAgent_isAClearError_andNothingIsWritten() throws IOException {
    Cli.Result unknown = install("vim", "--settings", project.resolve("x.json"));
    assertEquals(ExitCode.USAGE, unknown.code());
    assertTrue(
        unknown
            .err()
            .contains(
                "unknown agent 'vim'; expected one of claude-code, codex, gemini, copilot, cursor"),
        unknown.err());
    assertFalse(Files.exists(project.resolve("x.json")));
    try (Stream<Path> files = Files.list(store)) {
      assertEquals(List.of(), files.toList(), "not even the script");
    }
  }

  @Test
  void userInstall_writesUnderHome() throws IOException {
    Cli cli = new Cli(store);
    Cli.Result r =
        cli.withStdinAndEnv(
            "",
            Map.of("HOME", project.toString()),
            "install",
            "--agent",
            "claude-code",
            "--user",
            "--dir",
            store.toString());
    assertEquals(0, r.code(), r.err());
    assertTrue(Files.exists(project.resolve(".claude/settings.json")));
    JsonNode mcp = JsonRecords.MAPPER.readTree(project.resolve(".claude.json").toFile());
    assertEquals("http", mcp.at("/mcpServers/memhook/type").asText());
    assertEquals(
        "http://127.0.0.1:7373/mcp?scope=default", mcp.at("/mcpServers/memhook/url").asText());
    assertTrue(r.out().contains("MCP server: " + project.resolve(".claude.json")), r.out());
    for (String agent : List.of("copilot", "cursor")) {
      Cli.Result u =
          cli.withStdinAndEnv(
              "",
              Map.of("HOME", project.toString()),
              "install",
              "--agent",
              agent,
              "--user",
              "--dir",
              store.toString());
      assertEquals(0, u.code(), u.err());
      if (agent.equals("copilot")) {
        assertTrue(u.out().contains("MCP server: not registered: copilot"), u.out());
        assertTrue(
            u.out().contains("\"url\": \"http://127.0.0.1:7373/mcp?scope=default\""), u.out());
      }
    }
    assertTrue(
        Files.exists(project.resolve(".copilot/hooks/memhook.json")), "Copilot's user hooks");
    assertTrue(Files.exists(project.resolve(".cursor/hooks.json")), "Cursor's user hooks");
    JsonNode cursorMcp = JsonRecords.MAPPER.readTree(project.resolve(".cursor/mcp.json").toFile());
    assertEquals(
        "http://127.0.0.1:7373/mcp?scope=default",
        cursorMcp.at("/mcpServers/memhook/url").asText());
    assertEquals(
        "Bearer ${env:MEMHOOK_TOKEN}",
        cursorMcp.at("/mcpServers/memhook/headers/Authorization").asText(),
        "Cursor's syntax for a variable of the environment");
    assertFalse(
        Files.exists(project.resolve(".copilot/mcp-config.json")),
        "Copilot's MCP entry is printed, not written");
  }

  @Test
  void claudeCode_registersMcpOverHttp_keepingOtherServers_idempotently_withABackup()
      throws IOException {
    Path settings = project.resolve("settings.json");
    Path mcp = project.resolve(".mcp.json");
    Files.writeString(
        mcp,
        """
        {
          "mcpServers": {
            "github": { "type": "http", "url": "https://api.githubcopilot.com/mcp/" },
            "memhook": { "command": "memhook", "args": ["mcp", "--scope", "me/shop"] },
            "fs": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem"] }
          },
          "other": true
        }
        """);
    Cli.Result first =
        install("claude-code", "--scope", "me/shop", "--settings", settings, "--mcp-settings", mcp);
    assertEquals(0, first.code(), first.err());
    JsonNode m = JsonRecords.MAPPER.readTree(mcp.toFile());
    assertEquals(List.of("github", "memhook", "fs"), names(m.path("mcpServers")), "in place");
    assertTrue(m.path("other").asBoolean());
    assertEquals("https://api.githubcopilot.com/mcp/", m.at("/mcpServers/github/url").asText());
    JsonNode ours = m.at("/mcpServers/memhook");
    assertEquals(List.of("type", "url", "headers"), names(ours), "the stdio entry is replaced");
    assertEquals("http", ours.path("type").asText());
    assertEquals("http://127.0.0.1:7373/mcp?scope=me/shop", ours.path("url").asText());
    assertEquals("Bearer ${MEMHOOK_TOKEN}", ours.at("/headers/Authorization").asText());
    assertEquals(1, backups(mcp).size());
    assertTrue(first.out().contains("MCP server: " + mcp + " (updated"), first.out());
    assertFalse(first.out().contains("memhook mcp --dir"), "no stdio advice any more");

    String written = Files.readString(mcp);
    Cli.Result again =
        install("claude-code", "--scope", "me/shop", "--settings", settings, "--mcp-settings", mcp);
    assertEquals(0, again.code(), again.err());
    assertEquals(written, Files.readString(mcp));
    assertEquals(1, backups(mcp).size(), "nothing changed, nothing backed up");
    assertTrue(again.out().contains("MCP server: " + mcp + " (unchanged)"), again.out());
  }

  @Test
  void codex_registersMcpInConfigToml_keepingEveryOtherLine() throws IOException {
    Path toml = project.resolve("config.toml");
    String before =
        """
        # my Codex settings
        model = "gpt-5-codex"   # the default

        [mcp_servers.docs]
        url = "https://docs.example/mcp"

        # projects I trust
        [projects."/home/me/shop"]
        trust_level = "trusted"
        """;
    Files.writeString(toml, before);
    Cli.Result r =
        install("codex", "--settings", project.resolve("hooks.json"), "--mcp-settings", toml);
    assertEquals(0, r.code(), r.err());
    assertEquals(
        before
            + """

            [mcp_servers.memhook]
            url = "http://127.0.0.1:7373/mcp?scope=default"
            bearer_token_env_var = "MEMHOOK_TOKEN"
            """,
        Files.readString(toml));
    assertEquals(1, backups(toml).size());
    assertEquals(before, Files.readString(backups(toml).get(0)));

    String written = Files.readString(toml);
    assertEquals(
        0,
        install("codex", "--settings", project.resolve("hooks.json"), "--mcp-settings", toml)
            .code());
    assertEquals(written, Files.readString(toml), "idempotent");
    assertEquals(1, backups(toml).size());

    assertEquals(
        0,
        install(
                "codex",
                "--port",
                "7400",
                "--scope",
                "me/shop",
                "--settings",
                project.resolve("hooks.json"),
                "--mcp-settings",
                toml)
            .code());
    assertEquals(
        before
            + """

            [mcp_servers.memhook]
            url = "http://127.0.0.1:7400/mcp?scope=me/shop"
            bearer_token_env_var = "MEMHOOK_TOKEN"
            """,
        Files.readString(toml),
        "replaced in place");
    assertEquals(2, backups(toml).size());
  }

  @Test
  void noMcp_registersNoServer() throws IOException {
    Path settings = project.resolve("settings.json");
    Cli.Result r = install("claude-code", "--settings", settings, "--no-mcp");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("MCP server: not registered (--no-mcp)"), r.out());
    assertFalse(Files.exists(mcpFile("claude-code")));
    Path gemini = project.resolve("gemini.json");
    assertEquals(0, install("gemini", "--settings", gemini, "--no-mcp").code());
    assertTrue(JsonRecords.MAPPER.readTree(gemini.toFile()).path("mcpServers").isMissingNode());
  }

  @Test
  void mcpSettingsThatAreNotAnObject_areRefused_andNoFileIsWritten() throws IOException {
    Path settings = project.resolve("settings.json");
    Path mcp = project.resolve("mcp.json");
    Files.writeString(mcp, "{\"mcpServers\": []}");
    Cli.Result r = install("claude-code", "--settings", settings, "--mcp-settings", mcp);
    assertEquals(ExitCode.BAD_INPUT, r.code());
    assertTrue(r.err().contains("\"mcpServers\" is not an object"), r.err());
    assertFalse(Files.exists(settings), "the hooks are not written either");
    assertFalse(Files.exists(store.resolve("bin")), "not even the script");
  }

  private Cli.Result install(String agent, Object... args) {
    List<String> all =
        new ArrayList<>(List.of("install", "--agent", agent, "--dir", store.toString()));
    for (Object a : args) {
      all.add(a.toString());
    }
    if ((agent.equals("claude-code") || agent.equals("codex") || agent.equals("cursor"))
        && !all.contains("--mcp-settings")
        && !all.contains("--no-mcp")) {
      // never the project's file, which would be the working directory's
      all.addAll(List.of("--mcp-settings", mcpFile(agent).toString()));
    }
    return new Cli(store).run(all.toArray(String[]::new));
  }

  private Path mcpFile(String agent) {
    return project.resolve(agent.equals("codex") ? "codex-config.toml" : agent + "-mcp.json");
  }

  private static List<String> names(JsonNode object) {
    List<String> names = new ArrayList<>();
    object.fieldNames().forEachRemaining(names::add);
    return names;
  }

  private static List<Path> backups(Path file) throws IOException {
    try (Stream<Path> all = Files.list(file.getParent())) {
      return all.filter(
              f ->
                  f.getFileName()
                      .toString()
                      .startsWith(file.getFileName() + SettingsFile.BACKUP_INFIX))
          .sorted()
          .toList();
    }
  }
}
