package dev.memhook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Scope;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code memhook hook --agent cursor|copilot --event NAME}, as the installed hooks run it, fed one
 * session of the agent's documented payloads for every event {@code memhook install} gives it,
 * stores exactly the memories that the same session sent as Claude Code's payloads stores; and a
 * session's start is answered in the agent's own shape, a prompt not at all (neither agent lets a
 * prompt hook add context).
 */
class AgentHookCaptureTest {
  @TempDir Path agentStore;
  @TempDir Path claudeStore;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"cursor", "copilot"})
  void aSessionOfTheAgentsPayloads_storesWhatTheSameSessionAsClaudeCodesPayloadsStores(String agent)
      throws Exception {
    CodingAgent target = CodingAgent.of(agent);
    Cli agentCli = new Cli(agentStore);
    Cli claudeCli = new Cli(claudeStore);
    long now = System.currentTimeMillis();
    int i = 0;
    for (CodingAgent.AgentEvent event : target.events()) {
      String name = event.name();
      ObjectNode payload = (ObjectNode) AgentPayloadsTest.resource(agent + "/" + name + ".json");
      if (payload.has("timestamp")) {
        // Copilot's own clock: the session is live now, as the Claude Code session is
        payload.put("timestamp", now + i++);
      }
      Cli.Result a =
          agentCli.withStdin(
              payload.toString(),
              "hook",
              "--embedder",
              "hashing",
              "--agent",
              agent,
              "--event",
              name);
      assertEquals(0, a.code(), name);
      assertEquals("", a.err(), agent + " " + name + " reported a problem");
      JsonNode claude = AgentPayloadsTest.resource(agent + "/" + name + ".claude.json");
      Cli.Result c = claudeCli.withStdin(claude.toString(), "hook", "--embedder", "hashing");
      assertEquals(0, c.code(), name);
      assertEquals("", c.err(), "Claude Code's " + name + " reported a problem");
    }
    String session = agent.equals("cursor") ? "c-1" : "p-1";
    List<String> fromAgent = stored(agentStore, session);
    List<String> fromClaude = stored(claudeStore, session);
    assertFalse(fromClaude.isEmpty(), "the Claude Code session stored nothing");
    assertTrue(
        fromClaude.stream().anyMatch(m -> m.contains("./gradlew test --tests CheckoutTest")),
        fromClaude.toString());
    assertEquals(fromClaude, fromAgent);
  }

  /**
   * Cursor's {@code beforeSubmitPrompt} can only allow or block a prompt, and Copilot drops what a
   * hook answers to {@code userPromptSubmitted}: only their session start is answered.
   */
  @ParameterizedTest
  @CsvSource({
    "cursor, sessionStart, beforeSubmitPrompt, additional_context",
    "copilot, sessionStart, userPromptSubmitted, additionalContext"
  })
  void aSessionStart_isAnsweredInTheAgentsShape_itsPromptNot(
      String agent, String startEvent, String promptEvent, String contextField) throws Exception {
    Memory preference = seedPreference(agentStore);
    Cli.Result start = agentHook(agent, startEvent);
    JsonNode answer = JsonRecords.MAPPER.readTree(start.out());
    assertEquals(List.of(contextField), names(answer));
    assertTrue(answer.get(contextField).asText().contains(preference.id().value()), start.out());

    Cli.Result prompt = agentHook(agent, promptEvent);
    assertEquals(0, prompt.code());
    assertEquals("", prompt.out(), agent + "'s prompt hook gets nothing printed");
  }

  /** {@code memhook hook} on the agent's documented payload for {@code event}. */
  private Cli.Result agentHook(String agent, String event) throws Exception {
    return new Cli(agentStore)
        .withStdin(
            AgentPayloadsTest.resource(agent + "/" + event + ".json").toString(),
            "hook",
            "--embedder",
            "hashing",
            "--agent",
            agent,
            "--event",
            event);
  }

  @Test
  void anUnknownAgent_isReported_andTheAgentsStepGoesOn() throws Exception {
    Cli.Result r =
        new Cli(agentStore)
            .withStdin(
                AgentPayloadsTest.resource("cursor/preToolUse.json").toString(),
                "hook",
                "--embedder",
                "hashing",
                "--agent",
                "windsurf");
    assertEquals(0, r.code(), "a hook never fails the agent's step");
    assertTrue(
        r.err().contains("unknown agent 'windsurf'; expected one of claude-code, codex, gemini,"),
        r.err());
  }

  private static Memory seedPreference(Path store) {
    try (MemoryService memory =
        Memhook.builder().directory(store).embedder(HashingEmbedder.create()).build()) {
      String text = "Build the shop with Gradle, never with Maven.";
      return memory.remember(
          MemoryDraft.builder(Scope.DEFAULT, text)
              .type(MemoryType.PREFERENCE)
              .summary(text)
              .importance(0.5)
              .build());
    }
  }

  /** What the store holds from {@code session}: each memory's type, title, summary and content. */
  private static List<String> stored(Path store, String session) {
    List<String> out = new ArrayList<>();
    try (MemoryService memory =
        Memhook.builder().directory(store).embedder(HashingEmbedder.create()).build()) {
      assertTrue(memory.capture().flush(Duration.ofSeconds(30)));
      memory
          .maintenance()
          .export(
              m -> {
                if (session.equals(m.sourceSession())
                    || session.equals(m.attributes().get("memhook.consolidatedFrom"))) {
                  out.add(String.join(" | ", m.type().name(), m.title(), m.summary(), m.content()));
                }
              });
    }
    return out.stream().sorted().toList();
  }

  private static List<String> names(JsonNode object) {
    List<String> names = new ArrayList<>();
    object.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
