package dev.memhook.core.capture;

import static dev.memhook.core.capture.CaptureFixtures.all;
import static dev.memhook.core.capture.CaptureFixtures.flush;
import static dev.memhook.core.capture.CaptureFixtures.observations;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryType;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEvent;
import dev.memhook.api.capture.LifecycleEventType;
import dev.memhook.api.capture.Session;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A realistic Claude Code session posted to {@code observeJson}: scaffolding, acknowledgements,
 * pleasantries and bare questions are kept in the session, never stored as memories, and a tool run
 * leaves one observation.
 */
class NoiseCaptureTest {

  private static final String PNPM = "we use pnpm not npm in this repo, remember that";

  @TempDir Path dir;

  @Test
  void claudeCodeSession_keepsTheStatement_andStoresNoNoise() {
    try (MemoryService memory = service()) {
      post(memory, start("s1", 0));
      post(memory, prompt("s1", 1, PNPM));
      post(memory, tool("PreToolUse", "s1", 2, "toolu_01", null));
      post(memory, tool("PostToolUse", "s1", 3, "toolu_01", "Done in 2.1s, 312 packages"));
      post(memory, stop("s1", 4, "Done. Anything else?"));
      post(memory, prompt("s1", 5, "thanks, that's all for now"));
      post(memory, end("s1", 6));
      flush(memory);

      List<Memory> observations = observations(memory);
      List<String> contents = observations.stream().map(Memory::content).toList();
      assertTrue(contents.contains(PNPM), contents.toString());
      assertEquals(2, observations.size(), contents.toString());
      Memory run =
          observations.stream().filter(m -> !m.content().equals(PNPM)).findFirst().orElseThrow();
      assertEquals("PostToolUse", run.attributes().get("memhook.hookType"), run.toString());
      assertTrue(run.content().contains("pnpm install"), run.content());
      for (Memory m : all(memory)) {
        assertFalse(m.content().contains("Session started"), m.toString());
        assertFalse(m.content().contains("SessionEnd"), m.toString());
        assertFalse(m.content().contains("Anything else"), m.toString());
        assertFalse(m.content().contains("thanks"), m.toString());
      }
      Session s = memory.capture().session("s1").orElseThrow();
      assertEquals(2, s.observationCount());
      assertEquals(PNPM, s.firstPrompt());
      assertEquals(
          List.of(),
          memory
              .recall(new RecallQuery(Scope.DEFAULT, "anything else? thanks", 10))
              .memories()
              .stream()
              .filter(r -> r.memory().type() == MemoryType.OBSERVATION)
              .filter(r -> !r.memory().content().equals(PNPM))
              .filter(r -> !r.memory().content().contains("pnpm install"))
              .toList());
    }
  }

  @Test
  void toolStartWithoutItsEnd_isStoredAsItsOwnObservation_whenTheSessionEnds() {
    try (MemoryService memory = service()) {
      memory
          .capture()
          .observe(typedTool(LifecycleEventType.PRE_TOOL_USE, "s2", 1, "pnpm install", null));
      flush(memory);
      assertEquals(List.of(), observations(memory), "held until its run or its session ends");
      assertEquals(1, memory.capture().stats().notAdmitted());
      assertEquals(0, memory.capture().stats().pending());
      memory.capture().observe(CaptureFixtures.sessionEnd("s2", 2));
      flush(memory);

      List<Memory> observations = observations(memory);
      assertEquals(1, observations.size(), observations.toString());
      assertEquals("PreToolUse", observations.get(0).attributes().get("memhook.hookType"));
      assertEquals(1, memory.capture().session("s2").orElseThrow().observationCount());
      assertEquals(1, memory.capture().stats().processed());
      assertEquals(1, memory.capture().stats().notAdmitted(), "the session end");
    }
  }

  @Test
  void toolFailureAfterItsStart_leavesOneObservation_withTheStartsInput() {
    try (MemoryService memory = service()) {
      memory
          .capture()
          .observe(typedTool(LifecycleEventType.PRE_TOOL_USE, "s3", 1, "mvn -q verify", null));
      memory
          .capture()
          .observe(
              LifecycleEvent.builder(LifecycleEventType.TOOL_FAILURE, "s3")
                  .project("shop")
                  .timestamp(CaptureFixtures.T0.plusSeconds(2))
                  .data(EventData.toolFailure("Bash", null, "BUILD FAILURE: OrderServiceTest"))
                  .build());
      memory.capture().observe(CaptureFixtures.sessionEnd("s3", 3));
      flush(memory);

      List<Memory> observations = observations(memory);
      assertEquals(1, observations.size(), observations.toString());
      Memory run = observations.get(0);
      assertEquals("ToolFailure", run.attributes().get("memhook.hookType"), run.toString());
      assertTrue(run.content().contains("mvn -q verify"), run.content());
    }
  }

  @Test
  void toolStartAfterAClosedService_isHeldAgainOnReplay_andStoredOnceWithItsEnd() {
    // a host whose lifetimes are steps of one session (the CLI hook) keeps it open on close
    CaptureOptions keepOpen = CaptureOptions.builder().keepSessionsOpenOnClose().build();
    try (MemoryService memory = service(keepOpen)) {
      memory
          .capture()
          .observe(typedTool(LifecycleEventType.PRE_TOOL_USE, "s4", 1, "git status", null));
      flush(memory);
    }
    try (MemoryService memory = service(keepOpen)) {
      memory
          .capture()
          .observe(typedTool(LifecycleEventType.POST_TOOL_USE, "s4", 2, "git status", "clean"));
      memory.capture().observe(CaptureFixtures.sessionEnd("s4", 3));
      flush(memory);

      List<Memory> observations = observations(memory);
      assertEquals(1, observations.size(), observations.toString());
      assertEquals("PostToolUse", observations.get(0).attributes().get("memhook.hookType"));
    }
  }

  @Test
  void bareQuestion_isTheContextOfItsAnswer_notAMemory() {
    try (MemoryService memory = service()) {
      memory.capture().observe(CaptureFixtures.prompt("s5", 1, "how do I add lodash?"));
      memory
          .capture()
          .observe(CaptureFixtures.answer("s5", 2, "Run pnpm add lodash in the web package."));
      memory.capture().observe(CaptureFixtures.sessionEnd("s5", 3));
      flush(memory);

      List<Memory> observations = observations(memory);
      assertEquals(1, observations.size(), observations.toString());
      Memory answer = observations.get(0);
      assertEquals("Run pnpm add lodash in the web package.", answer.content());
      assertEquals("user: how do I add lodash?", answer.context());
      Session s = memory.capture().session("s5").orElseThrow();
      assertEquals("how do I add lodash?", s.firstPrompt());
      assertTrue(s.summary().contains("how do I add lodash?"), s.summary());
    }
  }

  @Test
  void theAgentsBareQuestion_isTheContextOfTheUsersReply_notAMemory() {
    try (MemoryService memory = service()) {
      memory
          .capture()
          .observe(CaptureFixtures.prompt("s6", 1, "add a redemption controller to the backend"));
      memory
          .capture()
          .observe(
              CaptureFixtures.answer(
                  "s6", 2, "Should I put it in a controllers package, or next to the service?"));
      memory
          .capture()
          .observe(
              CaptureFixtures.prompt(
                  "s6", 3, "we do package-by-feature here, so next to the service."));
      memory.capture().observe(CaptureFixtures.sessionEnd("s6", 4));
      flush(memory);

      List<Memory> observations = observations(memory);
      assertTrue(
          observations.stream().noneMatch(m -> m.content().contains("Should I put it")),
          observations.toString());
      Memory reply =
          observations.stream()
              .filter(m -> m.content().contains("package-by-feature"))
              .findFirst()
              .orElseThrow();
      assertEquals(
          "agent: Should I put it in a controllers package, or next to the service?",
          reply.context());
    }
  }

  private static LifecycleEvent typedTool(
      LifecycleEventType type, String session, int second, String command, String output) {
    return LifecycleEvent.builder(type, session)
        .project("shop")
        .cwd("/work/shop")
        .timestamp(CaptureFixtures.T0.plusSeconds(second))
        .data(EventData.tool("Bash", command, output))
        .build();
  }

  private static void post(MemoryService memory, String json) {
    memory.capture().observeJson(json);
  }

  private static String head(String event, String session, int second) {
    return "\"hook_event_name\":\""
        + event
        + "\",\"session_id\":\""
        + session
        + "\",\"cwd\":\"/work/shop\",\"project\":\"shop\",\"timestamp\":\"2026-11-30T10:00:0"
        + second
        + "Z\"";
  }

  static String start(String session, int second) {
    return "{" + head("SessionStart", session, second) + ",\"source\":\"startup\"}";
  }

  static String prompt(String session, int second, String prompt) {
    return "{" + head("UserPromptSubmit", session, second) + ",\"prompt\":\"" + prompt + "\"}";
  }

  static String tool(String event, String session, int second, String id, String response) {
    return "{"
        + head(event, session, second)
        + ",\"tool_name\":\"Bash\",\"tool_use_id\":\""
        + id
        + "\",\"tool_input\":{\"command\":\"pnpm install\"}"
        + (response == null ? "" : ",\"tool_response\":{\"stdout\":\"" + response + "\"}")
        + "}";
  }

  static String stop(String session, int second, String message) {
    return "{" + head("Stop", session, second) + ",\"data\":{\"message\":\"" + message + "\"}}";
  }

  static String end(String session, int second) {
    return "{" + head("SessionEnd", session, second) + ",\"reason\":\"exit\"}";
  }

  private MemoryService service() {
    return service(CaptureOptions.defaults());
  }

  private MemoryService service(CaptureOptions options) {
    return Memhook.builder()
        .directory(dir)
        .embedder(HashingEmbedder.create())
        .capture(options)
        .build();
  }
}
