package dev.memhook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryService;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.io.IOException;
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
  private static final String AWS_KEY_ID = "AKIAZ3MHQ7RT2XK5PLNV";
  private static final String AWS_SECRET = "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";
  private static final String PASSWORD = "hunter2-Sup3r-s3cret";
  private static final String GITHUB_TOKEN = "ghp_R7tYq2LmX9vB4nK8sD1fH6jP3wZ5cA0eU2gM";

  /** Each secret, and a piece of each long enough to be found only if it leaked. */
  private static final List<String> SECRETS =
      List.of(
          AWS_KEY_ID,
          AWS_SECRET,
          PASSWORD,
          GITHUB_TOKEN,
          "Z3MHQ7RT2XK5",
          "EMIK7MDENGbPxR",
          "Sup3r-s3cret",
          "R7tYq2LmX9vB4nK8");

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
      assertNoSecret("stderr after " + payload, r.err());
      assertNoSecretOnDisk("after " + payload);
    }
    assertTrue(
        Files.readString(dir.resolve(HookLog.FILE), StandardCharsets.UTF_8).contains("Bogus"),
        "the log still says what was wrong");

    Cli.Result end =
        cli.withStdin(event("SessionEnd", "\"reason\":\"exit\""), "hook", "--embedder", "hashing");
    assertEquals(0, end.code());
    assertNoSecret("stderr after SessionEnd", end.err());
    assertNoSecretOnDisk("after the spool was drained");
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
                  texts.add(text(m));
                }
              });
      String all = String.join("\n", texts);
      assertNoSecret("the captured memories", all);
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
    assertNoSecretOnDisk("after the store was opened again");
  }

  private static String event(String name, String fields) {
    return "{" + COMMON + ",\"hook_event_name\":\"" + name + "\"," + fields + "}";
  }

  private static String text(Memory m) {
    return String.join(" | ", m.title(), m.summary(), m.content(), String.valueOf(m.context()));
  }

  private static void assertNoSecret(String where, String text) {
    for (String secret : SECRETS) {
      assertTrue(!text.contains(secret), where + " holds " + secret + ": " + text);
    }
  }

  /** Every byte of every file under the store directory, searched for every secret. */
  private void assertNoSecretOnDisk(String when) throws IOException {
    List<Path> files;
    try (Stream<Path> all = Files.walk(dir)) {
      files = all.filter(Files::isRegularFile).toList();
    }
    for (Path f : files) {
      String bytes = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
      for (String secret : SECRETS) {
        assertTrue(!bytes.contains(secret), when + ": " + dir.relativize(f) + " holds " + secret);
      }
    }
  }
}
