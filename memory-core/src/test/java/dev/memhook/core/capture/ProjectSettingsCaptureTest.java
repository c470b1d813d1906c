package dev.memhook.core.capture;

import static dev.memhook.core.capture.CaptureFixtures.all;
import static dev.memhook.core.capture.CaptureFixtures.flush;
import static dev.memhook.core.capture.CaptureFixtures.postTool;
import static dev.memhook.core.capture.CaptureFixtures.prompt;
import static dev.memhook.core.capture.CaptureFixtures.sessionEnd;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an agent read of the project's configuration becomes through capture: a standing fact in
 * words, replaced when a later session reads the file again, and never holding a secret's value.
 */
class ProjectSettingsCaptureTest {

  @TempDir Path dir;

  private static List<Memory> latestFacts(MemoryService memory) {
    return all(memory).stream().filter(m -> m.type() == MemoryType.FACT && m.latest()).toList();
  }

  private static String printed(String stdout) {
    return "{\"stdout\":\"" + stdout.replace("\n", "\\n") + "\",\"stderr\":\"\"}";
  }

  /**
   * A session, starting at second {@code at}, that prints application.properties holding {@code
   * text}.
   */
  private static void catInASession(MemoryService memory, String session, int at, String text) {
    memory.capture().observe(prompt(session, at, "check the config"));
    memory
        .capture()
        .observe(
            postTool(
                session,
                at + 1,
                "Bash",
                "{\"command\":\"cat src/main/resources/application.properties\"}",
                printed(text)));
    memory.capture().observe(sessionEnd(session, at + 2));
    flush(memory);
  }

  private MemoryService service() {
    return Memhook.builder()
        .directory(dir)
        .embedder(HashingEmbedder.create())
        .capture(CaptureOptions.defaults())
        .build();
  }

  @Test
  void aPinReadAgainInALaterSession_replacesWhatTheEarlierReadSaid() {
    try (MemoryService memory = service()) {
      memory.capture().observe(prompt("s1", 1, "check the setup for me"));
      memory
          .capture()
          .observe(postTool("s1", 2, "Bash", "{\"command\":\"cat .nvmrc\"}", printed("20.11.1\n")));
      memory.capture().observe(sessionEnd("s1", 3));
      flush(memory);
      List<Memory> first = latestFacts(memory);
      assertEquals(1, first.size(), first.toString());
      assertEquals(
          "This project pins its Node.js runtime to version 20.11.1 (.nvmrc).",
          first.get(0).content());

      memory.capture().observe(prompt("s2", 10, "is the setup still right?"));
      memory
          .capture()
          .observe(postTool("s2", 11, "Bash", "{\"command\":\"cat .nvmrc\"}", printed("22.2.0\n")));
      memory.capture().observe(sessionEnd("s2", 12));
      flush(memory);

      List<Memory> latest = latestFacts(memory);
      assertEquals(1, latest.size(), latest.toString());
      assertEquals(
          "This project pins its Node.js runtime to version 22.2.0 (.nvmrc).",
          latest.get(0).content());
      assertEquals(first.get(0).id(), latest.get(0).supersedes(), "a new version of the first");
      assertTrue(
          memory.standing(Scope.DEFAULT, 2_000).memories().stream()
              .noneMatch(m -> m.content().contains("20.11.1")),
          "the old pin is no longer offered");
    }
  }

  @Test
  void aLongConfigurationReadAgain_replacesEachPartItRestates_andLeavesNoStaleValue() {
    StringBuilder file = new StringBuilder();
    for (int i = 0; i < 8; i++) {
      file.append("quarkus.datasource.setting-").append(i).append("=value-").append(i).append('\n');
    }
    file.append("mp.messaging.outgoing.rate-updates.topic=fx.rates.v2\n");
    file.append("mp.messaging.outgoing.rate-updates.retries=3\n");
    String before = file.toString();
    String after = before.replace("fx.rates.v2", "fx.rates.v3");
    try (MemoryService memory = service()) {
      catInASession(memory, "s1", 1, before);
      List<Memory> first = latestFacts(memory);
      assertTrue(first.size() >= 2, first.toString());
      first.forEach(m -> assertTrue(m.content().length() <= 300, m.content()));

      catInASession(memory, "s2", 10, after);

      List<Memory> latest = latestFacts(memory);
      assertEquals(
          first.stream().map(Memory::title).sorted().toList(),
          latest.stream().map(Memory::title).sorted().toList(),
          "the same parts");
      assertTrue(
          latest.stream().anyMatch(m -> m.content().contains("fx.rates.v3")), latest.toString());
      assertTrue(
          latest.stream().noneMatch(m -> m.content().contains("fx.rates.v2")),
          "the part that changed is replaced: " + latest);
    }
  }

  @Test
  void aConfigurationRead_neverRestatesASecretsValue_norALiveEnvironmentFile() {
    try (MemoryService memory = service()) {
      memory.capture().observe(prompt("s1", 1, "have a look at the project config"));
      memory
          .capture()
          .observe(
              postTool(
                  "s1",
                  2,
                  "Read",
                  "{\"file_path\":\"/work/shop/config/application.properties\"}",
                  "server.port=8081\nspring.datasource.password=Tr0ub4dor-and-3\n"
                      + "payments.api-key=pk_test_notreallyasecretvalue\n"));
      memory
          .capture()
          .observe(
              postTool(
                  "s1",
                  3,
                  "Bash",
                  "{\"command\":\"cat .env\"}",
                  printed("REGION=eu-west-1\nSHOP_MODE=live\n")));
      memory.capture().observe(sessionEnd("s1", 4));
      flush(memory);

      List<Memory> facts = latestFacts(memory);
      assertEquals(1, facts.size(), facts.toString());
      String said = facts.get(0).content();
      assertEquals("Settings in application.properties: server port (server.port): 8081.", said);
      for (Memory m : all(memory)) {
        if (m.type() != MemoryType.OBSERVATION) {
          assertFalse(m.content().contains("Tr0ub4dor"), m.toString());
          assertFalse(m.content().contains("notreallyasecret"), m.toString());
          assertFalse(m.content().contains("eu-west-1"), m.toString());
        }
      }
    }
  }
}
