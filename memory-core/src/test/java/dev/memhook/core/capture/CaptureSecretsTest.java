package dev.memhook.core.capture;

import static dev.memhook.core.capture.CaptureFixtures.filesContaining;
import static dev.memhook.core.capture.CaptureFixtures.flush;
import static dev.memhook.core.capture.CaptureFixtures.observations;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.HookOptions;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecalledMemory;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.ObserveResult;
import dev.memhook.api.chat.ToolResult;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.testkit.FakeChatService;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Privacy before durability: the secrets in a captured tool output reach no recall, no {@code
 * get_memory} fetch and no byte of the store's files or the capture journal.
 */
class CaptureSecretsTest {

  private static final String GITHUB = "ghp_R8x2Kq9Lm4Vt7Yw1Zp3Nd6Hs0Jf5Gb2Ce8Ua";
  private static final String AWS_ID = "AKIAQ3EGTXWZ7N4KD2PL";
  private static final String AWS_SECRET = "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";
  private static final String JWT =
      "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJwYXltZW50cy1zdmMiLCJyb2xlIjoiYWRtaW4ifQ"
          + ".Xq3v9Lr8Tn2Wm5Yk1Pz7Hc4Jd6Fs0Gb8Ue3Ra9Qw";
  private static final String PEM_BODY =
      "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj";
  private static final String PRIVATE = "the vault recovery phrase is orchid-lantern-4411";

  @TempDir Path dir;

  @Test
  void secretsInNestedToolOutput_areFoundNowhereAfterCapture() throws Exception {
    String output =
        "{\"result\":{\"env\":{\"GITHUB_TOKEN\":\""
            + GITHUB
            + "\",\"AWS_ACCESS_KEY_ID\":\""
            + AWS_ID
            + "\"},\"files\":[{\"name\":\"credentials\",\"text\":\"[default]\\naws_secret_access_key = "
            + AWS_SECRET
            + "\\n\"}],\"session\":\"Authorization: Bearer "
            + JWT
            + "\",\"key\":\"-----BEGIN PRIVATE KEY-----\\n"
            + PEM_BODY
            + "\\n-----END PRIVATE KEY-----\",\"notes\":\"deploy checklist <private>"
            + PRIVATE
            + "</private> staging rollout\"}}";
    String json =
        "{\"hookType\":\"PostToolUse\",\"sessionId\":\"s1\",\"project\":\"shop\","
            + "\"cwd\":\"/work/shop\",\"timestamp\":\"2026-11-30T10:00:00Z\","
            + "\"data\":{\"toolName\":\"Bash\",\"input\":{\"command\":\"cat deploy/env.json\"},"
            + "\"output\":"
            + output
            + "}}";
    List<String> secrets = List.of(GITHUB, AWS_ID, AWS_SECRET, JWT, PEM_BODY, PRIVATE, "orchid");
    try (MemoryService memory =
        Memhook.builder().directory(dir).embedder(HashingEmbedder.create()).build()) {
      assertEquals(ObserveResult.ACCEPTED, memory.capture().observeJson(json));
      flush(memory);
      List<Memory> stored = observations(memory);
      assertEquals(1, stored.size());
      Memory observation = stored.get(0);
      assertTrue(observation.content().contains("deploy checklist"), observation.content());
      assertTrue(observation.content().contains("staging rollout"), observation.content());
      for (String secret : secrets) {
        assertFalse(observation.toString().contains(secret), "stored: " + secret);
        for (RecalledMemory r :
            memory.recall(new RecallQuery(Scope.DEFAULT, secret + " deploy env", 10)).memories()) {
          assertFalse(r.memory().toString().contains(secret), "recalled: " + secret);
        }
      }
      String fetched = fetchInFull(memory, observation);
      assertTrue(fetched.contains("staging rollout"), fetched);
      assertTrue(fetched.contains("\"origin\":\"tool:Bash\""), "origin is shown: " + fetched);
      for (String secret : secrets) {
        assertFalse(fetched.contains(secret), "fetched: " + secret);
      }
    }
    for (String secret : secrets) {
      assertEquals(List.of(), filesContaining(dir, secret), "on disk: " + secret);
    }
  }

  /** What the model reads when it calls the real get_memory for the observation. */
  private static String fetchInFull(MemoryService memory, Memory observation) throws Exception {
    FakeChatService chat = FakeChatService.create();
    try (MemoryHook hook = memory.hookInto(chat, HookOptions.builder().noCapture().build())) {
      ToolResult result =
          chat.callTool("get_memory", Map.of("id", observation.id().value()))
              .toCompletableFuture()
              .get();
      return result.content();
    }
  }
}
