package dev.memhook.benchmarks.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.memhook.benchmarks.loop.MemoryLoopEval.Mode;
import dev.memhook.testkit.ModelReply;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The memory-loop harness: its metrics on outcomes built here (so a wrong metric fails), its
 * scenario reader, the chat replay's scripting, and one run of the whole harness on a tiny file
 * with the hashing embedder, checking the report's structure, never its hit rate.
 */
class MemoryLoopEvalTest {

  private static final String TINY =
      """
      {"type":"session","scenario":"pm","session":"pm-1","project":"shop","events":[{"kind":"prompt","text":"we use pnpm not npm in this repo, remember that"},{"kind":"tool","tool":"Bash","input":{"command":"git status"},"output":"On branch main\\nnothing to commit, working tree clean\\n"},{"kind":"assistant","text":"Done. Anything else?"}]}
      {"type":"probe","scenario":"pm","session":"pm-p1","project":"shop","prompt":"how do I add lodash to the project?","expect":["pnpm"],"category":"preference"}
      {"type":"probe","scenario":"pm","session":"pm-p2","project":"shop","prompt":"what is a monad?","expect":[],"category":"off-topic"}
      {"type":"session","scenario":"port","session":"port-1","project":"billing","events":[{"kind":"tool","tool":"Bash","input":{"command":"docker compose ps"},"output":"billing-db postgres:16 0.0.0.0:55432->5432/tcp\\n"},{"kind":"prompt","text":"thanks"}]}
      {"type":"session","scenario":"port","session":"port-2","project":"billing","events":[{"kind":"prompt","text":"the staging db moved to port 6543"},{"kind":"assistant","text":"Noted."}]}
      {"type":"probe","scenario":"port","session":"port-p1","project":"billing","prompt":"which port for staging?","expect":["6543"],"category":"Correction"}
      """;

  /** A probe the parse test adds to {@link #TINY}. */
  private static final String TOOL_OUTPUT_PROBE =
      "{\"type\":\"probe\",\"scenario\":\"port\",\"session\":\"port-p2\",\"project\":\"billing\","
          + "\"prompt\":\"which port locally?\",\"expect\":[\"55432\"],\"category\":\"tool output\"}";

  private static LoopData.Probe probe(String category, String... expect) {
    return new LoopData.Probe("s", "p", "proj", "question?", List.of(expect), category);
  }

  private static ProbeOutcome outcome(LoopData.Probe probe, int chars, String... texts) {
    List<ProbeOutcome.InjectedMemory> injected =
        Arrays.stream(texts).map(t -> new ProbeOutcome.InjectedMemory("id", t)).toList();
    return new ProbeOutcome(probe, injected, chars, List.of());
  }

  @Test
  void metrics_countHitsCleanProbesIrrelevantMemoriesAndCharacters() {
    List<ProbeOutcome> outcomes =
        List.of(
            // a hit, ignoring case, with one irrelevant memory beside it
            outcome(probe("preference", "pnpm"), 300, "We use PNPM here", "git status ran"),
            // a miss: something injected, none of it the fact
            outcome(probe("preference", "pnpm"), 100, "Done. Anything else?"),
            // a hit through the second expected string
            outcome(probe("decision", "gRPC", "protobuf"), 200, "services speak protobuf"),
            // off-topic and clean
            outcome(probe("off-topic"), 0),
            // off-topic, two memories injected: both irrelevant
            outcome(probe("ignored for off-topic"), 500, "a", "b"));
    LoopMetrics m = LoopMetrics.of("x", outcomes);

    assertEquals(new LoopMetrics.Score(2, 1), m.categories().get("preference"));
    assertEquals(new LoopMetrics.Score(1, 1), m.categories().get("decision"));
    assertEquals(List.of("decision", "preference"), List.copyOf(m.categories().keySet()));
    assertEquals(new LoopMetrics.Score(3, 2), m.onTopic());
    assertEquals(2.0 / 3, m.onTopic().rate(), 1e-9);
    assertEquals(2, m.offTopicProbes());
    assertEquals(1, m.offTopicClean());
    assertEquals(0.5, m.offTopicCleanRate(), 1e-9);
    // irrelevant: 1 + 1 + 0 on-topic, 0 + 2 off-topic, over 5 probes
    assertEquals(4.0 / 5, m.irrelevantPerProbe(), 1e-9);
    assertEquals(2.0 / 3, m.irrelevantPerOnTopic(), 1e-9);
    assertEquals(1.0, m.irrelevantPerOffTopic(), 1e-9);
    // characters 0, 100, 200, 300, 500: median 200, p90 (nearest rank 5 of 5) 500
    assertEquals(200, m.medianChars());
    assertEquals(500, m.p90Chars());
    assertEquals(0, m.failures());
  }

  @Test
  void standingMemories_countForAHit_butNotAgainstCleannessOrAsIrrelevant() {
    ProbeOutcome onTopic =
        new ProbeOutcome(
            probe("preference", "pnpm"),
            List.of(
                new ProbeOutcome.InjectedMemory("p", "We use pnpm", true),
                new ProbeOutcome.InjectedMemory("d", "We chose Koin", true)),
            120,
            List.of());
    ProbeOutcome offTopic =
        new ProbeOutcome(
            probe("off-topic"),
            List.of(
                new ProbeOutcome.InjectedMemory("p", "We use pnpm", true),
                new ProbeOutcome.InjectedMemory("x", "git status ran", false)),
            80,
            List.of());
    ProbeOutcome offTopicStandingOnly =
        new ProbeOutcome(
            probe("off-topic"),
            List.of(new ProbeOutcome.InjectedMemory("p", "We use pnpm", true)),
            60,
            List.of());

    LoopMetrics m = LoopMetrics.of("x", List.of(onTopic, offTopic, offTopicStandingOnly));

    assertTrue(onTopic.hit());
    assertEquals(0, onTopic.irrelevant(), "the standing decision is not held against the probe");
    assertEquals(1, m.offTopicClean(), "only the probe that got standing memories alone");
    assertEquals(0, m.offTopicCleanOfEverything());
    assertEquals(1.0 / 3, m.irrelevantPerProbe(), 1e-9);
    assertEquals(4.0 / 3, m.standingPerProbe(), 1e-9);
  }

  @Test
  void percentile_isNearestRank() {
    int[] ten = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    assertEquals(5, LoopMetrics.percentile(ten, 50));
    assertEquals(9, LoopMetrics.percentile(ten, 90));
    assertEquals(0, LoopMetrics.percentile(new int[0], 50));
  }

  @Test
  void parse_groupsByScenario_andCountsAProbeWithoutExpectationsAsOffTopic() {
    LoopData data = LoopData.parse((TINY + TOOL_OUTPUT_PROBE).lines().toList());
    assertEquals(2, data.scenarios().size());
    LoopData.Scenario port = data.scenarios().get(1);
    assertEquals(List.of("port-1", "port-2"), port.sessions().stream().map(s -> s.id()).toList());
    LoopData.Probe offTopic = data.scenarios().get(0).probes().get(1);
    assertTrue(offTopic.offTopic());
    assertEquals(LoopData.OFF_TOPIC, offTopic.category());
    // categories are normalised: lower case, spaces to dashes
    assertEquals("correction", port.probes().get(0).category());
    assertEquals("tool-output", port.probes().get(1).category());
    LoopData.Tool tool = (LoopData.Tool) port.sessions().get(0).events().get(0);
    assertEquals("docker compose ps", tool.input().path("command").asText());
  }

  @Test
  void parse_rejectsMalformedLines_namingTheLine() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                LoopData.parse(
                    List.of(
                        "",
                        "{\"type\":\"probe\",\"scenario\":\"a\",\"session\":\"p\",\"project\":\"x\","
                            + "\"prompt\":\"q\",\"category\":\"c\"}")));
    assertTrue(e.getMessage().startsWith("line 2: "), e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () ->
            LoopData.parse(
                List.of(
                    "{\"type\":\"session\",\"scenario\":\"a\",\"session\":\"s\",\"project\":\"x\","
                        + "\"events\":[{\"kind\":\"prompt\",\"text\":\"hi\"}]}",
                    "{\"type\":\"probe\",\"scenario\":\"a\",\"session\":\"s\",\"project\":\"x\","
                        + "\"prompt\":\"q\",\"expect\":[],\"category\":\"c\"}")),
        "a probe asked in a replayed session");
  }

  @Test
  void chatReplay_scriptsEachToolAsACall_andAnswersEventsBeforeTheFirstPrompt() {
    LoopData.Session session =
        LoopData.parse(TINY.lines().toList()).scenarios().get(1).sessions().get(0);
    List<ChatReplay.Turn> turns = ChatReplay.turns(session);
    // a tool before any prompt answers "continue"; the prompt after it starts a turn with nothing
    assertEquals(2, turns.size());
    assertEquals(ChatReplay.CONTINUE, turns.get(0).prompt());
    assertEquals("thanks", turns.get(1).prompt());
    Map<String, String> outputs = new HashMap<>();
    List<ModelReply> replies = ChatReplay.replies(turns.get(0), outputs);
    assertEquals(2, replies.size(), "one call, then the final (empty) reply");
    String callId = replies.get(0).toolCalls().get(0).id();
    assertEquals("billing-db postgres:16 0.0.0.0:55432->5432/tcp\n", outputs.get(callId));
    assertTrue(replies.get(1).messages().isEmpty());
  }

  @Test
  void hookReplay_postsClaudeCodePayloadsFromStartToEnd() {
    LoopData.Session session =
        LoopData.parse(TINY.lines().toList()).scenarios().get(0).sessions().get(0);
    List<String> names =
        HookReplay.payloads(session, Instant.parse("2026-01-05T10:00:00Z")).stream()
            .map(p -> p.path("hook_event_name").asText())
            .toList();
    assertEquals(
        List.of(
            "SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"),
        names);
    JsonNode post = HookReplay.payloads(session, Instant.EPOCH).get(3).path("tool_response");
    assertTrue(post.path("stdout").asText().startsWith("On branch main"), post.toString());
  }

  @Test
  void run_onATinyFile_reportsEveryModeWithTheFilesProbeCounts(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("tiny.jsonl");
    Files.writeString(file, TINY);
    Path json = dir.resolve("report.json");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    MemoryLoopEval.Report report;
    try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        PrintStream progress = new PrintStream(new ByteArrayOutputStream(), true)) {
      report =
          MemoryLoopEval.run(
              MemoryLoopEval.Options.parse(
                  "--scenarios", file.toString(), "--embedder", "hashing", "--examples", "2"),
              out,
              progress);
    }
    LoopReportJson.write(report, json);
    String printed = bytes.toString(StandardCharsets.UTF_8);

    assertEquals(2, report.scenarios());
    assertEquals(3, report.modes().size());
    for (Mode mode : Mode.values()) {
      LoopMetrics m = report.mode(mode).metrics();
      assertEquals(1, m.categories().get("preference").probes(), mode.key);
      assertEquals(1, m.categories().get("correction").probes(), mode.key);
      assertEquals(Set.of("preference", "correction"), m.categories().keySet(), mode.key);
      assertEquals(2, m.onTopic().probes(), mode.key);
      assertEquals(1, m.offTopicProbes(), mode.key);
      assertEquals(3, report.mode(mode).scored().size(), mode.key);
      assertTrue(printed.contains("## " + mode.key + " ("), printed);
    }
    // every hook payload the replay builds is one capture accepts
    MemoryLoopEval.ReplayStats hook = report.replays().get("hook");
    assertEquals(3, hook.sessions());
    assertEquals(0, hook.rejectedEvents(), hook.rejected().toString());
    assertEquals(hook.posted(), hook.accepted());
    assertTrue(hook.observations() > 0, "the replay stored something");
    assertTrue(printed.contains("| **on-topic** | 2 |"), printed);
    assertTrue(printed.contains("on-topic misses: the fact was"), printed);
    assertTrue(printed.contains("on-topic misses: at the hook, the fact was"), printed);
    JsonNode tree = HookReplay.JSON.readTree(json.toFile());
    assertEquals(3, tree.path("modes").path("hook-cli").path("probes").size());
    for (Mode mode : Mode.values()) {
      List<MemoryLoopEval.Scored> scored = report.mode(mode).scored();
      JsonNode probes = tree.path("modes").path(mode.key).path("probes");
      for (int i = 0; i < scored.size(); i++) {
        MemoryLoopEval.Scored s = scored.get(i);
        boolean miss = !s.outcome().probe().offTopic() && !s.outcome().hit();
        assertEquals(miss, s.miss().cause() != MissCause.NONE, mode.key + " probe " + i);
        assertEquals(miss, probes.get(i).has("miss"), mode.key + " probe " + i);
        if (miss && s.miss().cause() != MissCause.NOT_STORED) {
          // only the chat probe reads the hook's receipts
          assertEquals(
              mode == Mode.HOOK_CLI,
              s.miss().cause() == MissCause.UNTRACED,
              mode.key + " probe " + i + ": " + s.miss());
        }
      }
    }
    assertFalse(tree.path("modes").path("chat-chat").path("onTopic").isMissingNode());
  }

  @Test
  void aScriptedProviderConsolidator_isHandedTheSessions_andWhatItReturnsIsStored(@TempDir Path dir)
      throws Exception {
    MemoryLoopEval.Report report =
        runTiny(
            dir, new ByteArrayOutputStream(), "--modes", "hook-chat", "--consolidator", "scripted");

    MemoryLoopEval.ReplayStats hook = report.replays().get("hook");
    assertTrue(hook.distilled() > 0, "the provider's consolidations were stored");
    assertThrows(
        IllegalArgumentException.class,
        () -> MemoryLoopEval.Options.parse("--consolidator", "llm"));
  }

  @Test
  void oneScenario_keptWithItsStores_andAKeepDirectoryInUse_refusedWithItsFilesLeft(
      @TempDir Path dir) throws Exception {
    Path kept = dir.resolve("kept");
    ByteArrayOutputStream progressed = new ByteArrayOutputStream();
    MemoryLoopEval.Report report =
        runTiny(
            dir,
            progressed,
            "--modes",
            "hook-chat",
            "--scenario",
            "port",
            "--keep",
            kept.toString());

    assertEquals(1, report.scenarios());
    assertEquals(List.of("port"), scenariosOf(report));
    try (var entries = Files.list(kept)) {
      assertEquals(List.of("00-port"), entries.map(p -> p.getFileName().toString()).toList());
    }
    Path store = kept.resolve("00-port");
    assertTrue(Files.isDirectory(store.resolve("hook")), "the replayed store is kept");
    assertFalse(Files.exists(store.resolve("probe")), "a probe's copy is not");
    try (var files = Files.walk(store.resolve("hook"))) {
      assertTrue(files.anyMatch(Files::isRegularFile), "the kept store holds its files");
    }
    assertTrue(
        progressed.toString(StandardCharsets.UTF_8).contains("kept in " + kept), "says where");

    Path used = Files.createDirectories(dir.resolve("used"));
    Path marker = Files.writeString(used.resolve("notes.txt"), "mine");
    IllegalArgumentException inUse =
        assertThrows(
            IllegalArgumentException.class,
            () -> runTiny(dir, new ByteArrayOutputStream(), "--keep", used.toString()));
    assertEquals("--keep " + used + " is not empty", inUse.getMessage());
    assertEquals("mine", Files.readString(marker), "nothing in it is touched");
    assertEquals(
        "no scenario 'nope'",
        assertThrows(
                IllegalArgumentException.class,
                () -> runTiny(dir, new ByteArrayOutputStream(), "--scenario", "nope"))
            .getMessage());
    assertEquals("a_b_c", MemoryLoopEval.fileName("a/b\\c"));
    assertEquals("_.x", MemoryLoopEval.fileName("..x"));
  }

  /**
   * Runs the harness on {@link #TINY} with the hashing embedder and {@code args}, its progress on
   * {@code progressed}, its report discarded.
   */
  private static MemoryLoopEval.Report runTiny(
      Path dir, ByteArrayOutputStream progressed, String... args) throws IOException {
    Path file = Files.writeString(dir.resolve("tiny.jsonl"), TINY);
    List<String> all =
        new ArrayList<>(List.of("--scenarios", file.toString(), "--embedder", "hashing"));
    all.addAll(Arrays.asList(args));
    try (PrintStream out = new PrintStream(new ByteArrayOutputStream(), true);
        PrintStream progress = new PrintStream(progressed, true, StandardCharsets.UTF_8)) {
      return MemoryLoopEval.run(
          MemoryLoopEval.Options.parse(all.toArray(String[]::new)), out, progress);
    }
  }

  private static List<String> scenariosOf(MemoryLoopEval.Report report) {
    return report.mode(Mode.HOOK_CHAT).scored().stream()
        .map(x -> x.outcome().probe().scenario())
        .distinct()
        .toList();
  }

  @Test
  void options_refuseAMalformedOrNegativeNumber_namingItsOption() {
    Map<List<String>, String> refused = new LinkedHashMap<>();
    refused.put(List.of("--limit", "3k"), "--limit needs a whole number, not '3k'");
    refused.put(List.of("--examples", "five"), "--examples needs a whole number, not 'five'");
    refused.put(
        List.of("--recall-timeout-ms", "-5"),
        "--recall-timeout-ms must be 0 to 2147483647, not -5");
    refused.put(
        List.of("--recall-timeout-ms", "10000000000"),
        "--recall-timeout-ms must be 0 to 2147483647, not 10000000000");
    refused.put(List.of("--examples", "-1"), "--examples must be 0 to 2147483647, not -1");
    // the harness's own floor, stricter than a count's, still holds
    refused.put(List.of("--limit", "0"), "--limit must be >= 1, got 0");
    refused.forEach(
        (args, message) ->
            assertEquals(
                message,
                assertThrows(
                        IllegalArgumentException.class,
                        () -> MemoryLoopEval.Options.parse(args.toArray(String[]::new)))
                    .getMessage(),
                args.toString()));
  }
}
