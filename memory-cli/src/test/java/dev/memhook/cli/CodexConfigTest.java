package dev.memhook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link CodexConfig#merge} on realistic {@code config.toml} files: Memhook's table is added or
 * replaced, with its sub-tables, and every other line, comment and table stays as it was.
 */
class CodexConfigTest {
  private static final Path FILE = Path.of("config.toml");
  private static final List<String> TABLE =
      CodexConfig.table("http://127.0.0.1:7373/mcp?scope=me/shop", "MEMHOOK_TOKEN");
  private static final String OURS =
      """
      [mcp_servers.memhook]
      url = "http://127.0.0.1:7373/mcp?scope=me/shop"
      bearer_token_env_var = "MEMHOOK_TOKEN"
      """;

  @Test
  void anEmptyFile_getsTheTableAlone() {
    assertEquals(OURS, CodexConfig.merge("", TABLE, FILE));
  }

  @Test
  void aFileWithoutTheTable_getsItAppendedAfterABlankLine_evenWithoutAFinalNewline() {
    assertEquals("model = \"o3\"\n\n" + OURS, CodexConfig.merge("model = \"o3\"", TABLE, FILE));
    assertEquals(
        "model = \"o3\"\n\n" + OURS, CodexConfig.merge("model = \"o3\"\n\n\n", TABLE, FILE));
  }

  @Test
  void anOldTable_isReplacedInPlace_withItsSubTables_keepingTheNextTablesComments() {
    String before =
        """
        approval_policy = "on-request"

        [mcp_servers.memhook]
        command = "memhook"
        args = ["mcp", "--scope", "me/shop"]
        startup_timeout_sec = 20

        [mcp_servers.memhook.env]
        MEMHOOK_DIR = "/home/me/.memhook"

        # the docs server, keep it
        [mcp_servers."docs"]
        url = "https://docs.example/mcp" # remote
        """;
    assertEquals(
        """
        approval_policy = "on-request"

        """
            + OURS
            + """

            # the docs server, keep it
            [mcp_servers."docs"]
            url = "https://docs.example/mcp" # remote
            """,
        CodexConfig.merge(before, TABLE, FILE));
  }

  @Test
  void aQuotedTableName_atTheEnd_isReplaced_andMergingAgainChangesNothing() {
    String before = "[tui]\nnotifications = true\n\n[mcp_servers.\"memhook\"]\nurl = \"x\"\n";
    String after = CodexConfig.merge(before, TABLE, FILE);
    assertEquals("[tui]\nnotifications = true\n\n" + OURS, after);
    assertEquals(after, CodexConfig.merge(after, TABLE, FILE));
  }

  @Test
  void aHeaderInsideAMultiLineString_isNotATable() {
    String before =
        """
        instructions = \"\"\"
        [mcp_servers.memhook]
        is only text here
        \"\"\"
        """;
    assertEquals(before + "\n" + OURS, CodexConfig.merge(before, TABLE, FILE));
  }

  @Test
  void memhookDefinedWithDottedKeysOrInline_isRefused_notDuplicated() {
    for (String before :
        List.of(
            "mcp_servers.memhook.url = \"http://127.0.0.1:7373/mcp\"\n",
            "[mcp_servers]\nmemhook = { url = \"http://127.0.0.1:7373/mcp\" }\n",
            "[mcp_servers]\nmemhook.command = \"memhook\"\n")) {
      CliException e =
          assertThrows(CliException.class, () -> CodexConfig.merge(before, TABLE, FILE), before);
      assertEquals(ExitCode.BAD_INPUT, e.exitCode());
      assertTrue(e.getMessage().contains("does not edit"), e.getMessage());
    }
  }

  @Test
  void mcpServersWrittenAsOneInlineTable_isRefused_sinceNoTableCanBeAddedToIt() {
    // TOML closes an inline table: a [mcp_servers.memhook] after it defines the table twice, and
    // Codex would refuse the whole file
    for (String before :
        List.of(
            "model = \"o3\"\nmcp_servers = { docs = { command = \"docs-mcp\" } }\n",
            "mcp_servers = {}\n[profiles.fast]\nmodel = \"o4-mini\"\n")) {
      CliException e =
          assertThrows(CliException.class, () -> CodexConfig.merge(before, TABLE, FILE), before);
      assertEquals(ExitCode.BAD_INPUT, e.exitCode());
      assertTrue(e.getMessage().contains("inline table"), e.getMessage());
    }
    // a server defined with dotted keys at the top takes a [mcp_servers.memhook] beside it
    String dotted = "mcp_servers.docs.command = \"docs-mcp\"\n";
    assertEquals(dotted + "\n" + OURS, CodexConfig.merge(dotted, TABLE, FILE));
  }

  @Test
  void otherServersUnderMcpServers_areLeftAlone() {
    String before = "[mcp_servers]\n\n[mcp_servers.memhook-old]\ncommand = \"x\"\n";
    assertEquals(before + "\n" + OURS, CodexConfig.merge(before, TABLE, FILE));
  }
}
