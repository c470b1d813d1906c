package dev.memhook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.memhook.api.HookOptions;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryType;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.capture.Session;
import dev.memhook.api.capture.SessionStatus;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * memhook hook fed Claude Code's recorded payloads: every event kind is captured, malformed input
 * still exits 0, and a later session is offered an earlier one's memory once. Each run opens and
 * closes the store, and closing ends no session: a session ends with its {@code SessionEnd}, or
 * when a later lifetime finds it idle.
 */
class HookCommandTest {
  private static final List<String> EVENTS =
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

  @TempDir Path dir;
  @TempDir Path work;
  private Cli cli;
  private Path transcript;

  @BeforeEach
  void setUp() throws IOException {
    cli = new Cli(dir);
    transcript = work.resolve("transcript.jsonl");
    Files.writeString(transcript, resource("transcript.jsonl"), StandardCharsets.UTF_8);
  }

  @Test
  void everyEventKind_isCaptured_andExits0() throws Exception {
    for (String event : EVENTS) {
      Cli.Result r = hook(event, "s-1");
      assertEquals(0, r.code(), event);
      assertEquals("", r.err(), event + " reported a problem");
    }
    try (Stream<Path> left = Files.list(dir.resolve(HookSpool.DIRECTORY))) {
      assertEquals(List.of(), left.toList(), "the spool was drained");
    }
    try (MemoryService memory = open()) {
      assertTrue(memory.capture().flush(Duration.ofSeconds(30)));
      Session s = memory.capture().session("s-1").orElseThrow();
      assertEquals("shop", s.project(), "the project is the cwd's last segment");
      assertEquals("/home/dev/shop", s.cwd());
      assertTrue(s.firstPrompt().contains("Gradle"), s.firstPrompt());
      List<String> contents =
          exported(memory).stream()
              .filter(m -> "s-1".equals(m.sourceSession()))
              .map(Memory::content)
              .toList();
      assertTrue(anyContains(contents, "./gradlew test"), contents.toString());
      assertTrue(anyContains(contents, "mvn: command not found"), contents.toString());
      assertTrue(
          anyContains(contents, "All 42 tests pass"),
          "Stop carries the transcript's last assistant text: " + contents);
    }
  }

  @Test
  void aSecondSession_isOfferedTheFirstSessionsMemory_onceWithItsId() throws Exception {
    for (String event : List.of("SessionStart", "UserPromptSubmit", "Stop", "SessionEnd")) {
      assertEquals(0, hook(event, "s-1").code());
    }
    Cli.Result first = hook("SessionStart", "s-2");
    assertEquals(0, first.code(), first.err());
    JsonNode answer = JsonRecords.MAPPER.readTree(first.out()).get("hookSpecificOutput");
    assertEquals("SessionStart", answer.get("hookEventName").asText());
    List<MemoryId> offered = ids(answer.get("additionalContext").asText());
    assertTrue(!offered.isEmpty(), answer.toString());
    try (MemoryService memory = open()) {
      for (MemoryId id : offered) {
        assertEquals("s-1", memory.get(id).orElseThrow().sourceSession());
      }
    }

    Cli.Result prompt =
        promptIn("s-3", "Which build tool does the shop service use, Gradle or Maven?");
    JsonNode recalled = JsonRecords.MAPPER.readTree(prompt.out()).get("hookSpecificOutput");
    assertEquals("UserPromptSubmit", recalled.get("hookEventName").asText());
    String context = recalled.get("additionalContext").asText();
    assertTrue(context.contains("Gradle"), context);

    Cli.Result again =
        promptIn("s-3", "Which build tool does the shop service use, Gradle or Maven?");
    for (MemoryId id : ids(context)) {
      assertTrue(!again.out().contains(id.value()), "offered once per session: " + again.out());
    }
  }

  @Test
  void sessionStart_offersTheStandingMemories_andPromptSubmitOnlyWhatThePromptRecalls()
      throws Exception {
    Memory preference;
    Memory decision;
    Memory checkout;
    try (MemoryService memory = open()) {
      preference = remember(memory, MemoryType.PREFERENCE, 0.5, "Use pnpm, never npm.");
      decision = remember(memory, MemoryType.DECISION, 0.5, "We chose Koin over Hilt for DI.");
      checkout =
          remember(
              memory,
              MemoryType.OBSERVATION,
              1.0,
              "The checkout service charges cards via Stripe.");
      remember(memory, MemoryType.BUG, 1.0, "The cart total was off by one cent; fixed.");
    }

    Cli.Result start = hook("SessionStart", "s-7");

    JsonNode answer = JsonRecords.MAPPER.readTree(start.out()).get("hookSpecificOutput");
    assertEquals("SessionStart", answer.get("hookEventName").asText());
    String standing = answer.get("additionalContext").asText();
    assertEquals(List.of(preference.id(), decision.id()), ids(standing), standing);
    assertTrue(standing.contains("(preference): Use pnpm, never npm."), standing);

    String question =
        "Did we choose Koin over Hilt, and does the checkout service charge cards via Stripe?";
    Cli.Result prompt = promptIn("s-7", question);
    String recalled =
        JsonRecords.MAPPER
            .readTree(prompt.out())
            .get("hookSpecificOutput")
            .get("additionalContext")
            .asText();
    assertTrue(ids(recalled).contains(checkout.id()), recalled);
    assertTrue(
        !ids(recalled).contains(decision.id()), "SessionStart offered it already: " + recalled);
    try (MemoryService memory = open()) {
      assertTrue(
          memory.recall(new RecallQuery(Scope.DEFAULT, question, 20)).ids().contains(decision.id()),
          "the prompt recalls the decision, so leaving it out is the session's doing");
    }
  }

  /**
   * The prompt just captured, and the session's earlier turns, match the prompt better than
   * anything else can. Taken as the prompt's evidence, they let through a memory of another session
   * that shares one word with it; the answer leaves them out before the gate, as the chat hook
   * does.
   */
  @Test
  void promptSubmit_isNotLetThroughTheGate_byItsOwnSessionsTurns() throws Exception {
    String question = "how do we rotate the staging database password each month";
    Memory weak;
    try (MemoryService memory = open()) {
      memory.remember(
          MemoryDraft.builder(Scope.DEFAULT, question)
              .summary(question)
              .sourceSession("s-9")
              .build());
      weak = remember(memory, MemoryType.FACT, 0.5, "Staging moved to a bigger host.");
      for (int i = 0; i < 20; i++) {
        remember(memory, MemoryType.FACT, 0.5, "Release train note number " + i + ".");
      }
    }
    String prompt = question + " in staging";

    Cli.Result own = promptIn("s-9", prompt);
    assertEquals(0, own.code(), own.err());
    assertTrue(!own.out().contains(weak.id().value()), own.out());

    Cli.Result other = promptIn("s-10", prompt);
    assertEquals(0, other.code(), other.err());
    assertTrue(
        other.out().contains(weak.id().value()),
        "in another session the same prompt finds the echo as its evidence: " + other.out());
  }

  @Test
  void promptSubmit_showsBesideASummaryTheExcerptHoldingThePromptsWords() throws Exception {
    Memory checklist =
        rememberSummarised(
            MemoryType.OBSERVATION,
            "Deploy checklist.\nRollback: run deploy/rollback.sh with the previous tag.",
            "Deploy checklist");

    String offered = additionalContext(promptIn("s-40", "rollback the deploy to the previous tag"));

    assertTrue(
        offered.contains(
            checklist.id()
                + " (observation) "
                + checklist.title()
                + ": Deploy checklist excerpt: …Rollback: run deploy/rollback.sh with the"
                + " previous tag.\n"),
        offered);
    assertTrue(offered.startsWith(AgentEvents.RECALLED_HEADER), offered);
  }

  /**
   * A standing memory's line at {@code SessionStart} shows its summary, since no prompt is known
   * yet; the chat hook's first injection shows a standing memory's excerpt for the first message
   * beside it. The session's first prompt gets that excerpt on a line of its own, once.
   */
  @Test
  void firstPrompt_showsTheExcerptOfAStandingMemory_thatItsSummaryLeftOut_once() throws Exception {
    Memory guide =
        rememberSummarised(
            MemoryType.PATTERN,
            "Contributing guide.\nCommits: one change each, subject in the imperative.\n"
                + "Migrations: name each file V<n>__<ticket>.sql and never edit one already"
                + " merged.",
            "Contributing guide");
    String standing = additionalContext(hook("SessionStart", "s-50"));
    assertEquals(List.of(guide.id()), ids(standing), standing);
    assertTrue(standing.contains("(pattern): Contributing guide\n"), standing);

    String first =
        additionalContext(promptIn("s-50", "add a migration for the credit notes table"));

    assertTrue(
        first.contains(
            "- "
                + guide.id()
                + " (pattern) excerpt: …Migrations: name each file V<n>__<ticket>.sql and never"
                + " edit one already merged.\n"),
        first);
    assertTrue(first.startsWith(AgentEvents.RECALLED_HEADER), first);
    assertEquals(
        1, first.split(guide.id().value(), -1).length - 1, "one line of the guide: " + first);

    Cli.Result second = promptIn("s-50", "now a migration for the refunds table");
    assertEquals(0, second.code(), second.err());
    assertTrue(
        !second.out().contains(guide.id().value()), "the first prompt only: " + second.out());
  }

  /** A session whose start was answered for one scope shows another scope nothing of it. */
  @Test
  void firstPrompt_inAnotherScope_showsNoExcerptOfTheStartsScope() throws Exception {
    Memory guide =
        rememberSummarised(
            MemoryType.PATTERN,
            "Contributing guide.\nMigrations: name each file V<n>__<ticket>.sql.",
            "Contributing guide");
    assertEquals(List.of(guide.id()), ids(additionalContext(hook("SessionStart", "s-52"))));

    Cli.Result other =
        promptIn("s-52", "add a migration for the credit notes table", "--scope", "someone/else");

    assertEquals(0, other.code(), other.err());
    assertTrue(!other.out().contains(guide.id().value()), "another scope: " + other.out());
    assertEquals(0, hook("SessionStart", "s-53").code());
    assertTrue(
        additionalContext(promptIn("s-53", "add a migration for the credit notes table"))
            .contains(guide.id() + " (pattern) excerpt: "),
        "the same start and prompt in the guide's scope show its excerpt");
  }

  @Test
  void firstPrompt_showsNoExcerpt_whereTheStandingSummaryHoldsThePromptsWords() throws Exception {
    Memory preference;
    try (MemoryService memory = open()) {
      preference = remember(memory, MemoryType.PREFERENCE, 0.5, "Use pnpm, never npm.");
    }
    assertEquals(List.of(preference.id()), ids(additionalContext(hook("SessionStart", "s-51"))));

    Cli.Result first = promptIn("s-51", "install the deps with pnpm please");

    assertEquals(0, first.code(), first.err());
    assertTrue(
        !first.out().contains(preference.id().value()), "nothing new to show: " + first.out());
  }

  @Test
  void promptSubmit_offersTheChatHooksNumberPerMessage_unlessTheLimitIsGiven() throws Exception {
    String prompt = sixInvoiceExportFacts();

    String offered = additionalContext(promptIn("s-30", prompt));
    assertEquals(HookOptions.DEFAULT_MAX_PER_MESSAGE, ids(offered).size(), offered);

    Cli.Result five = promptIn("s-31", prompt, "--context-limit", "5");
    assertEquals(5, ids(additionalContext(five)).size(), five.out());
  }

  /**
   * What the session was offered before keeps its place under the limit, as in the chat hook: the
   * prompt's best memories are in the agent's context already, and the ones ranked below the limit
   * are not offered in their stead.
   */
  @Test
  void promptSubmit_doesNotFillThePlacesOfWhatWasOfferedBefore_withLowerRanks() throws Exception {
    String prompt = sixInvoiceExportFacts();
    List<MemoryId> best;
    try (MemoryService memory = open()) {
      best = memory.recall(new RecallQuery(Scope.DEFAULT, prompt, 6)).ids();
    }
    assertEquals(6, best.size(), "all six pass the gate: " + best);

    List<MemoryId> first = ids(additionalContext(promptIn("s-32", prompt)));
    assertEquals(best.subList(0, HookOptions.DEFAULT_MAX_PER_MESSAGE), first);

    Cli.Result again = promptIn("s-32", prompt);
    assertEquals(0, again.code(), again.err());
    assertEquals("", again.out().strip(), "the same prompt again offers nothing new");

    List<MemoryId> otherSession = ids(additionalContext(promptIn("s-33", prompt)));
    assertEquals(first, otherSession, "another session is offered the same best memories");
  }

  /**
   * Stores six facts that all match the prompt it returns, so its recall passes more than the chat
   * hook's number per message.
   */
  private String sixInvoiceExportFacts() throws IOException {
    try (MemoryService memory = open()) {
      for (int i = 0; i < 6; i++) {
        remember(
            memory,
            MemoryType.FACT,
            0.5,
            "The invoice export job " + i + " writes invoice exports to the billing bucket.");
      }
    }
    return "where does the invoice export job write invoice exports?";
  }

  /**
   * Runs {@code memhook hook} with the hashing embedder and {@code options} on the recorded {@code
   * UserPromptSubmit} of {@code session}, its prompt replaced by {@code prompt}.
   */
  private Cli.Result promptIn(String session, String prompt, String... options) throws IOException {
    String payload =
        resource("UserPromptSubmit.json")
            .replace("SESSION", session)
            .replace("TRANSCRIPT", transcript.toString().replace("\\", "\\\\"))
            .replace(
                "We build the shop service with Gradle, never with Maven. Run the tests please.",
                prompt);
    List<String> args = new ArrayList<>(List.of("hook", "--embedder", "hashing"));
    args.addAll(List.of(options));
    return cli.withStdin(payload, args.toArray(String[]::new));
  }

  @Test
  void sessionStart_keepsToTheStandingBudget_fromTheOptionOrTheEnvironment() throws Exception {
    Memory first;
    try (MemoryService memory = open()) {
      first = remember(memory, MemoryType.PREFERENCE, 0.9, "Use pnpm, never npm.");
      remember(memory, MemoryType.FACT, 0.5, "CI runs on GitHub Actions.");
    }
    // the first memory's summary entry in a get_memory result, and the comma beside it
    int oneEntry =
        ("{\"id\":\"" + first.id().value() + "\",\"summary\":\"" + first.summary() + "\"}").length()
            + 1;

    Cli.Result one = standingStart("s-8", Map.of(), "--standing-chars", String.valueOf(oneEntry));
    Cli.Result fromEnv =
        standingStart("s-9", Map.of(HookCommand.STANDING_CHARS_VARIABLE, String.valueOf(oneEntry)));
    Cli.Result off = standingStart("s-10", Map.of(), "--standing-chars", "0");
    Cli.Result bad = standingStart("s-11", Map.of(HookCommand.STANDING_CHARS_VARIABLE, "lots"));

    assertEquals(List.of(first.id()), ids(additionalContext(one)), one.out());
    assertEquals(List.of(first.id()), ids(additionalContext(fromEnv)), fromEnv.out());
    assertEquals("", off.out(), "0 offers none");
    assertEquals(0, bad.code());
    assertEquals("", bad.out());
    assertTrue(bad.err().contains(HookCommand.STANDING_CHARS_VARIABLE), bad.err());
    try (MemoryService memory = open()) {
      assertTrue(memory.capture().flush(Duration.ofSeconds(30)));
      assertTrue(
          memory.capture().session("s-11").isPresent(),
          "a bad budget costs the answer, not capture");
    }
  }

  @Test
  void answers_keepToTheContextBudget_reportIt_andOfferWhatTheyLeftOutLater() throws Exception {
    Memory first;
    Memory second;
    try (MemoryService memory = open()) {
      first = remember(memory, MemoryType.PREFERENCE, 0.9, "Use pnpm, never npm.");
      second = remember(memory, MemoryType.FACT, 0.5, "CI runs on GitHub Actions.");
    }
    int oneFits = AgentEvents.STANDING_HEADER.length() + AgentEvents.standingLine(first).length();

    Cli.Result cut = standingStart("s-20", Map.of(), "--context-chars", String.valueOf(oneFits));
    assertEquals(0, cut.code());
    assertEquals("", cut.err());
    String context = additionalContext(cut);
    assertEquals(List.of(first.id()), ids(context), context);
    assertEquals(oneFits, context.length());
    assertEquals(Set.of(first.id()), new OfferedMemories(dir, "s-20").offered(), "the rest waits");
    String log = Files.readString(dir.resolve(HookLog.FILE), StandardCharsets.UTF_8);
    assertTrue(
        log.contains(
            "SessionStart context: "
                + oneFits
                + " of "
                + oneFits
                + " characters, 1 memory (1 left out by the budget)"),
        log);

    Cli.Result whole = standingStart("s-21", Map.of());
    assertEquals(List.of(first.id(), second.id()), ids(additionalContext(whole)), whole.out());
    assertTrue(
        Files.readString(dir.resolve(HookLog.FILE), StandardCharsets.UTF_8)
            .contains(" of " + ContextBudget.DEFAULT_MAX_CHARS + " characters, 2 memories\n"),
        "the default budget is Claude Code's limit, and nothing was left out");

    Cli.Result bad = standingStart("s-22", Map.of(), "--context-chars", "0");
    assertEquals(0, bad.code(), "a hook never fails the agent's step");
    assertEquals("", bad.out());
    assertTrue(bad.err().contains("--context-chars) must be 1-100000, got 0"), bad.err());
  }

  @Test
  void sessionStart_deletesOtherSessionsRecordsIdlePastTheirKeep_andNothingElse() throws Exception {
    try (MemoryService memory = open()) {
      remember(memory, MemoryType.PREFERENCE, 0.9, "Always use tabs, never spaces.");
    }
    assertEquals(0, standingStart("s-60", Map.of()).code());
    assertEquals(0, standingStart("s-61", Map.of()).code());
    assertEquals(0, standingStart("s-62", Map.of()).code());
    Path idle = recordOf("s-60");
    Path recent = recordOf("s-61");
    Path resumed = recordOf("s-62");
    Path foreign =
        Files.writeString(dir.resolve(OfferedMemories.DIRECTORY).resolve("notes.txt"), "other");
    Instant now = Instant.now();
    FileTime longAgo = FileTime.from(now.minus(OfferedMemories.KEPT).minus(Duration.ofDays(1)));
    FileTime lately = FileTime.from(now.minus(OfferedMemories.KEPT).plus(Duration.ofDays(1)));
    Files.setLastModifiedTime(idle, longAgo);
    Files.setLastModifiedTime(recent, lately);
    Files.setLastModifiedTime(resumed, longAgo);
    Files.setLastModifiedTime(foreign, longAgo);

    Cli.Result start = standingStart("s-62", Map.of());

    assertEquals(0, start.code());
    assertEquals("", start.err());
    assertFalse(Files.exists(idle), "a session idle past the keep loses its record");
    assertTrue(Files.exists(recent), "a session active within the keep keeps it");
    assertTrue(Files.exists(resumed), "the starting session's own record is read, not pruned");
    assertTrue(Files.exists(foreign), "a file the hook did not name is not touched");
    assertEquals("", start.out(), "the resumed session was offered its standing memory before");
    assertTrue(
        Files.readString(dir.resolve(HookLog.FILE))
            .contains("deleted the offered-memory records of 1 sessions idle for over 30 days"),
        Files.readString(dir.resolve(HookLog.FILE)));
  }

  /** The file {@link OfferedMemories} keeps for {@code session}, which must exist. */
  private Path recordOf(String session) {
    Path file = new OfferedMemories(dir, session).file();
    assertTrue(Files.exists(file), "no record of " + session);
    return file;
  }

  private Cli.Result standingStart(String session, Map<String, String> env, String... options)
      throws IOException {
    String payload = resource("SessionStart.json").replace("SESSION", session);
    List<String> args = new ArrayList<>(List.of("hook", "--embedder", "hashing"));
    args.addAll(List.of(options));
    return cli.withStdinAndEnv(payload, env, args.toArray(String[]::new));
  }

  private static String additionalContext(Cli.Result r) throws IOException {
    return JsonRecords.MAPPER
        .readTree(r.out())
        .get("hookSpecificOutput")
        .get("additionalContext")
        .asText();
  }

  /** Stores {@code content} of {@code type} under a summary shorter than it, in its own run. */
  private Memory rememberSummarised(MemoryType type, String content, String summary) {
    try (MemoryService memory = open()) {
      return memory.remember(
          MemoryDraft.builder(Scope.DEFAULT, content).type(type).summary(summary).build());
    }
  }

  private static Memory remember(
      MemoryService memory, MemoryType type, double importance, String text) {
    return memory.remember(
        MemoryDraft.builder(Scope.DEFAULT, text)
            .type(type)
            .summary(text)
            .importance(importance)
            .build());
  }

  @Test
  void hookRunsOfOneSession_doNotEndItOnClose_itsSessionEndDoes() throws Exception {
    for (String event :
        List.of("SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop")) {
      Cli.Result r = hook(event, "s-1");
      assertEquals(0, r.code(), event);
      assertEquals("", r.err(), event + " reported a problem");
    }
    try (MemoryService memory = openKeepingSessionsOpen(Clock.systemUTC())) {
      assertTrue(memory.capture().flush(Duration.ofSeconds(30)));
      Session s = memory.capture().session("s-1").orElseThrow();
      assertEquals(SessionStatus.ACTIVE, s.status(), "five hook runs, each closing the store");
      assertNull(s.summary(), "not consolidated");
      assertEquals(List.of(), distilledFrom(memory, "s-1"));
    }

    assertEquals(0, hook("SessionEnd", "s-1").code());
    try (MemoryService memory = openKeepingSessionsOpen(Clock.systemUTC())) {
      assertTrue(memory.capture().flush(Duration.ofSeconds(30)));
      Session s = memory.capture().session("s-1").orElseThrow();
      assertEquals(SessionStatus.COMPLETED, s.status());
      assertNotNull(s.summary());
    }
  }

  @Test
  void aSessionTheHookLeftOpen_isAbandonedByALaterLifetime_onceIdlePastTheTimeout()
      throws Exception {
    for (String event : List.of("SessionStart", "UserPromptSubmit", "Stop")) {
      assertEquals(0, hook(event, "s-1").code(), event);
    }
    Clock later =
        Clock.offset(Clock.systemUTC(), CaptureOptions.DEFAULT_SESSION_IDLE_TIMEOUT.plusMinutes(1));
    try (MemoryService memory = openKeepingSessionsOpen(later)) {
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (memory.capture().session("s-1").orElseThrow().status() == SessionStatus.ACTIVE
          && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      Session s = memory.capture().session("s-1").orElseThrow();
      assertEquals(SessionStatus.ABANDONED, s.status());
      assertNotNull(s.summary());
    }
  }

  @Test
  void malformedPayloads_exit0_andSayWhy() throws Exception {
    String[] bad = {
      "not json at all",
      "[1, 2]",
      "{}",
      "{\"hook_event_name\":\"Bogus\",\"session_id\":\"s\"}",
      "{\"hook_event_name\":\"Stop\",\"session_id\":\"s\",\"cwd\":\"/x\"}"
    };
    for (String payload : bad) {
      Cli.Result r = cli.withStdin(payload, "hook", "--embedder", "hashing");
      assertEquals(0, r.code(), payload);
      assertEquals("", r.out(), payload);
      assertTrue(r.err().contains("memhook hook: "), payload + " -> " + r.err());
      assertFalse(r.err().contains("Exception"), "a plain reason: " + payload + " -> " + r.err());
    }
    assertTrue(
        cli.withStdin("[1, 2]", "hook", "--embedder", "hashing")
            .err()
            .contains("the hook input is not one JSON object; not captured"));
    // a tool event is only spooled, without the store; capture checks it when it is drained
    Cli.Result noTool =
        cli.withStdin(
            "{\"hook_event_name\":\"PostToolUseFailure\",\"session_id\":\"s\",\"cwd\":\"/x\"}",
            "hook",
            "--embedder",
            "hashing");
    assertEquals(0, noTool.code());
    assertEquals("", noTool.out() + noTool.err());
    assertEquals(0, hook("SessionEnd", "s-9").code());
    try (Stream<Path> rejected =
        Files.list(dir.resolve(HookSpool.DIRECTORY).resolve(HookSpool.REJECTED))) {
      assertEquals(1, rejected.count());
    }
    String log = Files.readString(dir.resolve(HookLog.FILE), StandardCharsets.UTF_8);
    assertTrue(log.contains("data.toolName is required for ToolFailure"), log);
    assertEquals(0, cli.withStdin("{}", "hook", "--no-such-option").code(), "even a bad option");
  }

  @Test
  void whileAnotherProcessHoldsTheStore_eventsWait_andPromptsAreStillAnswered() throws Exception {
    for (String event : List.of("SessionStart", "UserPromptSubmit", "Stop", "SessionEnd")) {
      assertEquals(0, hook(event, "s-1").code());
    }
    try (MemoryService holder = open()) {
      holder.capture().flush(Duration.ofSeconds(30));
      Cli.Result tool = hook("PostToolUse", "s-2");
      assertEquals(0, tool.code());
      Cli.Result start = hook("SessionStart", "s-2");
      assertEquals(0, start.code());
      assertTrue(start.out().contains("additionalContext"), start.out() + start.err());
    }
    try (Stream<Path> waiting = Files.list(dir.resolve(HookSpool.DIRECTORY))) {
      assertEquals(2, waiting.filter(f -> f.toString().endsWith(".json")).count());
    }
    assertEquals(0, hook("Stop", "s-2").code());
    try (Stream<Path> waiting = Files.list(dir.resolve(HookSpool.DIRECTORY))) {
      assertEquals(0, waiting.filter(f -> f.toString().endsWith(".json")).count());
    }
  }

  private Cli.Result hook(String event, String session) throws IOException {
    return hookWith(event, session, p -> p);
  }

  private Cli.Result hookWith(
      String event, String session, java.util.function.UnaryOperator<String> edit)
      throws IOException {
    String payload =
        edit.apply(resource(event + ".json"))
            .replace("SESSION", session)
            .replace("TRANSCRIPT", transcript.toString().replace("\\", "\\\\"));
    return cli.withStdin(payload, "hook", "--embedder", "hashing");
  }

  private MemoryService open() {
    return Memhook.builder().directory(dir).embedder(HashingEmbedder.create()).build();
  }

  /** The store as a later lifetime on {@code clock} sees it, leaving its sessions as they are. */
  private MemoryService openKeepingSessionsOpen(Clock clock) {
    return Memhook.builder()
        .directory(dir)
        .embedder(HashingEmbedder.create())
        .clock(clock)
        .capture(CaptureOptions.builder().keepSessionsOpenOnClose().build())
        .build();
  }

  /** The memories consolidation distilled from {@code session}. */
  private static List<Memory> distilledFrom(MemoryService memory, String session) {
    return exported(memory).stream()
        .filter(m -> m.type() != MemoryType.OBSERVATION)
        .filter(m -> session.equals(m.attributes().get("memhook.consolidatedFrom")))
        .toList();
  }

  private static List<Memory> exported(MemoryService memory) {
    List<Memory> out = new java.util.ArrayList<>();
    memory.maintenance().export(out::add);
    return out;
  }

  private static boolean anyContains(List<String> texts, String part) {
    return texts.stream().anyMatch(t -> t.contains(part));
  }

  /** The ids of the "- id (type) title: summary" lines of an additional context. */
  private static List<MemoryId> ids(String context) {
    Matcher m = Pattern.compile("(?m)^- (\\S+) \\(").matcher(context);
    List<MemoryId> out = new java.util.ArrayList<>();
    while (m.find()) {
      out.add(MemoryId.of(m.group(1)));
    }
    return out;
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = HookCommandTest.class.getResourceAsStream("/hook/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
