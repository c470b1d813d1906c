package dev.memhook.cli;

import static dev.memhook.cli.PlantedSecrets.AWS_KEY_ID;
import static dev.memhook.cli.PlantedSecrets.AWS_SECRET;
import static dev.memhook.cli.PlantedSecrets.GITHUB_TOKEN;
import static dev.memhook.cli.PlantedSecrets.PASSWORD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.MemoryService;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * memhook hook fed tool events that carry credentials: after every single event no file under the
 * store directory holds any of them (the spool, hook.log, and once drained the journal, the session
 * files and the index), nor does standard error, and what is not secret still reaches memory.
 */
class HookSecretsTest {

  private static final String COMMON =
      "\"session_id\":\"s-sec\",\"transcript_path\":\"/nowhere/t.jsonl\",\"cwd\":\"/home/dev/shop\"";

  @TempDir Path dir;

  @Test
  void toolEventSecrets_neverReachTheDisk_andTheRestIsCaptured() throws Exception {
    Cli cli = new Cli(dir);
    List<String> events =
        List.of(
            event(
                "PreToolUse",
                "\"tool_name\":\"Bash\",\"tool_use_id\":\"toolu_1\",\"tool_input\":{\"command\":"
                    + "\"AWS_ACCESS_KEY_ID="
                    + AWS_KEY_ID
                    + " AWS_SECRET_ACCESS_KEY="
                    + AWS_SECRET
                    + " aws s3 ls s3://shop-assets\",\"description\":\"List the shop assets\"}"),
            event(
                "PostToolUse",
                "\"tool_name\":\"Bash\",\"tool_use_id\":\"toolu_2\",\"tool_input\":{\"command\":"
                    + "\"cat ~/.aws/credentials\"},\"tool_response\":{\"stdout\":\"[default]\\n"
                    + "aws_access_key_id = "
                    + AWS_KEY_ID
                    + "\\naws_secret_access_key = "
                    + AWS_SECRET
                    + "\\n\",\"stderr\":\"\",\"interrupted\":false}"),
            event(
                "PreToolUse",
                "\"tool_name\":\"mcp__db__connect\",\"tool_use_id\":\"toolu_3\",\"tool_input\":"
                    + "{\"host\":\"db.internal\",\"user\":\"shop\",\"password\":\""
                    + PASSWORD
                    + "\"}"),
            event(
                "PostToolUse",
                "\"tool_name\":\"mcp__db__connect\",\"tool_use_id\":\"toolu_3\",\"tool_input\":"
                    + "{\"host\":\"db.internal\",\"user\":\"shop\",\"password\":\""
                    + PASSWORD
                    + "\"},\"tool_response\":{\"connected\":true,\"pool\":\"orders-primary\"}"),
            event(
                "PostToolUse",
                "\"tool_name\":\"Bash\",\"tool_use_id\":\"toolu_4\",\"tool_input\":{\"command\":"
                    + "\"gh auth status\"},\"tool_response\":{\"stdout\":\"Logged in to github.com"
                    + " with token "
                    + GITHUB_TOKEN
                    + "\",\"stderr\":\"\"}"),
            event(
                "PostToolUseFailure",
                "\"tool_name\":\"Bash\",\"tool_use_id\":\"toolu_5\",\"tool_input\":{\"command\":"
                    + "\"git push\"},\"error\":\"fatal: Authentication failed for"
                    + " 'https://x-access-token:"
                    + GITHUB_TOKEN
                    + "@github.com/acme/shop.git/'\""),
            // not an event memhook knows: only reported, and the report names what it was given
            event("Bogus password=" + PASSWORD, "\"tool_name\":\"Bash\""));

    for (String payload : events) {
      Cli.Result r = cli.withStdin(payload, "hook", "--embedder", "hashing");
      assertEquals(0, r.code(), payload);
      PlantedSecrets.assertNoneIn("stderr after " + payload, r.err());
      PlantedSecrets.assertNoneUnder(dir, "after " + payload);
    }
    assertTrue(
        Files.readString(dir.resolve(HookLog.FILE), StandardCharsets.UTF_8).contains("Bogus"),
        "the log still says what was wrong");

    Cli.Result end =
        cli.withStdin(event("SessionEnd", "\"reason\":\"exit\""), "hook", "--embedder", "hashing");
    assertEquals(0, end.code());
    PlantedSecrets.assertNoneIn("stderr after SessionEnd", end.err());
    PlantedSecrets.assertNoneUnder(dir, "after the spool was drained");
    try (Stream<Path> left = Files.list(dir.resolve(HookSpool.DIRECTORY))) {
      assertEquals(List.of(), left.toList(), "every sanitized event was taken in");
    }

    try (MemoryService memory =
        Memhook.builder().directory(dir).embedder(HashingEmbedder.create()).build()) {
      assertTrue(memory.capture().flush(Duration.ofSeconds(30)));
      assertEquals("shop", memory.capture().session("s-sec").orElseThrow().project());
      List<String> texts = new ArrayList<>();
      memory
          .maintenance()
          .export(
              m -> {
                if ("s-sec".equals(m.sourceSession())) {
                  texts.add(PlantedSecrets.memoryText(m));
                }
              });
      String all = String.join("\n", texts);
      PlantedSecrets.assertNoneIn("the captured memories", all);
      for (String kept :
          List.of(
              "aws s3 ls s3://shop-assets",
              "cat ~/.aws/credentials",
              "db.internal",
              "orders-primary",
              "Logged in to github.com",
              "github.com/acme/shop.git",
              "[redacted:")) {
        assertTrue(all.contains(kept), kept + " is not in " + all);
      }
    }
    PlantedSecrets.assertNoneUnder(dir, "after the store was opened again");
  }

  private static String event(String name, String fields) {
    return "{" + COMMON + ",\"hook_event_name\":\"" + name + "\"," + fields + "}";
  }
}
