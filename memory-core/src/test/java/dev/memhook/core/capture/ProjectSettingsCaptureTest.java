package dev.memhook.core.capture;

import static dev.memhook.core.capture.CaptureFixtures.all;
import static dev.memhook.core.capture.CaptureFixtures.flush;
import static dev.memhook.core.capture.CaptureFixtures.postTool;
import static dev.memhook.core.capture.CaptureFixtures.prompt;
import static dev.memhook.core.capture.CaptureFixtures.sessionEnd;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.trace.CaptureEvent;
import dev.memhook.api.trace.MemoryListener;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
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
    catInASession(memory, session, at, "application.properties", text);
  }

  private static void catInASession(
      MemoryService memory, String session, int at, String path, String text) {
    memory.capture().observe(prompt(session, at, "check the config"));
    memory
        .capture()
        .observe(
            postTool(session, at + 1, "Bash", "{\"command\":\"cat " + path + "\"}", printed(text)));
    memory.capture().observe(sessionEnd(session, at + 2));
    flush(memory);
  }

  private MemoryService service() {
    return service(new MemoryListener() {});
  }

  private MemoryService service(MemoryListener listener) {
    return Memhook.builder()
        .directory(dir)
        .embedder(HashingEmbedder.create())
        .capture(CaptureOptions.defaults())
        .listener(listener)
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

  /**
   * application.properties with {@code groups} top-level keys of six settings each: "alpha.host"
   * holds "alpha-host-value".
   */
  private static String properties(List<String> groups) {
    StringBuilder file = new StringBuilder();
    for (String g : groups) {
      for (String key : List.of("host", "port", "user", "timeout", "retries", "region")) {
        file.append(g).append('.').append(key).append('=').append(g).append('-').append(key);
        file.append("-value\n");
      }
    }
    return file.toString();
  }

  private static List<String> titles(List<Memory> memories) {
    return memories.stream().map(Memory::title).sorted().toList();
  }

  @Test
  void aConfigurationReadAgainWithFewerParts_retiresThePartItNoLongerYields() {
    String before = properties(List.of("alpha", "beta", "gamma"));
    String after =
        properties(List.of("alpha", "beta")).replace("beta-timeout-value", "beta-timeout-changed");
    List<CaptureEvent> forgotten = new CopyOnWriteArrayList<>();
    List<MemoryId> retired = new ArrayList<>();
    MemoryListener listener =
        new MemoryListener() {
          @Override
          public void captured(CaptureEvent event) {
            if (event.kind() == CaptureEvent.Kind.MEMORY_FORGOTTEN) {
              forgotten.add(event);
            }
          }
        };
    try (MemoryService memory = service(listener)) {
      catInASession(memory, "s1", 1, before);
      List<Memory> first = latestFacts(memory);
      List<Memory> gamma = first.stream().filter(m -> m.title().contains(": gamma")).toList();
      assertFalse(gamma.isEmpty(), first.toString());
      gamma.forEach(m -> assertFalse(m.content().contains("beta-"), "gamma's parts are its own"));
      assertTrue(
          first.stream().anyMatch(m -> m.content().contains("gamma-host-value")), first.toString());

      catInASession(memory, "s2", 10, after);

      List<Memory> latest = latestFacts(memory);
      assertTrue(
          latest.stream().noneMatch(m -> m.content().contains("gamma-")),
          "no part of the file states a group it no longer has: " + latest);
      assertTrue(
          latest.stream().anyMatch(m -> m.content().contains("beta-timeout-changed")),
          latest.toString());
      assertTrue(
          latest.stream().noneMatch(m -> m.content().contains("beta-timeout-value")),
          latest.toString());
      List<ForgetRecord> audits = memory.maintenance().forgotten(Scope.DEFAULT);
      for (Memory part : gamma) {
        assertTrue(memory.get(part.id()).isEmpty(), "the retired part is forgotten: " + part);
        ForgetRecord audit =
            audits.stream().filter(r -> r.id().equals(part.id())).findFirst().orElseThrow();
        assertEquals("memhook capture", audit.actor());
        assertEquals(
            "Project setting: application.properties restated by session s2 without this part",
            audit.reason());
        retired.add(part.id());
      }
      assertEquals(gamma.size(), audits.size(), "nothing else is forgotten: " + audits);
      assertTrue(
          all(memory).stream().anyMatch(m -> m.type() == MemoryType.OBSERVATION),
          "the observations the parts came from stay");
    }
    // listeners are told on a thread of their own; closing the service delivers what is queued
    assertEquals(
        retired.stream().sorted().toList(),
        forgotten.stream().map(CaptureEvent::memoryId).sorted().toList());
    assertEquals("s2", forgotten.get(0).sessionId());
  }

  @Test
  void aFileOfTheSameNameInAnotherDirectory_retiresNothingOfThisOnesParts() {
    try (MemoryService memory = service()) {
      catInASession(
          memory,
          "s1",
          1,
          "services/api/application.properties",
          properties(List.of("alpha", "beta", "gamma")));
      List<Memory> api = latestFacts(memory);
      assertTrue(api.size() >= 3, api.toString());
      api.forEach(
          m ->
              assertTrue(
                  m.title().startsWith("Project setting: services/api/application.properties"),
                  m.title()));

      catInASession(
          memory, "s2", 10, "services/web/application.properties", properties(List.of("delta")));

      List<Memory> latest = latestFacts(memory);
      api.forEach(m -> assertTrue(latest.contains(m), "the api file's part stays: " + m));
      assertTrue(
          latest.stream()
              .anyMatch(
                  m ->
                      m.title().startsWith("Project setting: services/web/application.properties")
                          && m.content().contains("delta-")),
          latest.toString());
      assertTrue(memory.maintenance().forgotten(Scope.DEFAULT).isEmpty(), "nothing forgotten");
    }
  }

  @Test
  void aSecretInTheFilesPath_reachesNoTitle() {
    String token = "ghp_" + "Zq8xT2mVb7Lk4Wn9Rc1Yp6Hd3Js5Gf0Ea7Uo";
    try (MemoryService memory = service()) {
      catInASession(
          memory,
          "s1",
          1,
          "deploy/" + token + "/application.properties",
          properties(List.of("alpha")));

      List<Memory> latest = latestFacts(memory);
      assertFalse(latest.isEmpty(), "the settings are kept");
      for (Memory m : all(memory)) {
        assertFalse(m.title().contains(token) || m.content().contains(token), m.toString());
        assertFalse(m.title().contains(token.substring(8, 24)), m.title());
      }
    }
  }

  @Test
  void aFileRestatedWholeBefore_isRetiredWhenItsSettingsAreRestatedInParts() {
    String file = properties(List.of("alpha", "beta", "gamma"));
    try (MemoryService memory = service()) {
      // what a release that restated a file whole left: the file's title, made by capture
      Memory whole =
          memory.remember(
              MemoryDraft.builder(
                      Scope.DEFAULT,
                      "Settings in application.properties: alpha host (alpha.host):"
                          + " alpha-old-host.")
                  .type(MemoryType.FACT)
                  .title("Project setting: application.properties")
                  .attributes(Map.of("memhook.consolidatedFrom", "s0"))
                  .build());
      // a host's own fact under the same title is not capture's to retire
      Memory hosts =
          memory.remember(
              MemoryDraft.builder(Scope.DEFAULT, "We keep application.properties under review.")
                  .type(MemoryType.FACT)
                  .title("Project setting: application.properties: review")
                  .build());

      catInASession(memory, "s1", 1, file);

      List<Memory> latest = latestFacts(memory);
      assertTrue(memory.get(whole.id()).isEmpty(), "the whole-file restatement is retired");
      assertTrue(latest.stream().anyMatch(m -> m.id().equals(hosts.id())), "the host's stays");
      assertTrue(latest.size() >= 3, latest.toString());
      assertTrue(
          latest.stream().noneMatch(m -> m.content().contains("alpha-old-host")),
          latest.toString());
    }
  }

  @Test
  void aPartRestatedUnchanged_isNeitherRewrittenNorRetired() {
    String file = properties(List.of("alpha", "beta", "gamma"));
    try (MemoryService memory = service()) {
      catInASession(memory, "s1", 1, file);
      List<Memory> first = latestFacts(memory);

      catInASession(memory, "s2", 10, file);

      List<Memory> latest = latestFacts(memory);
      assertEquals(titles(first), titles(latest));
      assertEquals(
          first.stream().map(Memory::id).sorted().toList(),
          latest.stream().map(Memory::id).sorted().toList(),
          "the same memories");
      assertTrue(memory.maintenance().forgotten(Scope.DEFAULT).isEmpty());
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
