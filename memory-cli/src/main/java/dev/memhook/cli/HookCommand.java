package dev.memhook.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecalledMemory;
import dev.memhook.api.Scope;
import dev.memhook.api.StandingProfile;
import dev.memhook.api.capture.LifecycleEventType;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code memhook hook}: a coding agent's lifecycle hook. Reads one hook payload on standard input
 * ({@link HookPayload}), spools it for capture ({@link HookSpool}), and for {@code SessionStart}
 * and {@code UserPromptSubmit} answers on standard output with the agent's context-injection field,
 * {@code {"hookSpecificOutput":{"hookEventName":…,"additionalContext":…}}}, holding the summaries
 * of the memories that matter, each with its id, each offered at most once per session ({@link
 * OfferedMemories}). Always exits 0: whatever fails is reported by {@link HookLog} and the agent's
 * step goes on.
 *
 * <p>What each answer holds: {@code SessionStart} the scope's standing memories ({@link
 * MemoryService#standing}: preferences, decisions, conventions, workflows and facts, latest
 * versions) within {@code --standing-chars}, whatever the session goes on to ask; {@code
 * UserPromptSubmit} what recall finds for the prompt, at most {@code --context-limit}, leaving out
 * what the session was offered before, {@code SessionStart}'s standing memories included (each
 * event is its own process, so the offered ids are kept per session in the store directory). Both
 * are cut to {@code --context-chars} ({@link ContextBudget}: whole memories, in order), and each
 * answer's use of the budget is written to the hook log.
 *
 * <p>Tool events are only spooled, without opening the store: see {@link HookSpool} for why, and
 * for why every event is redacted before it is written. The other events open the store, take in
 * the spool, and close it, which also lets capture process what it was given.
 */
@Command(
    name = "hook",
    description =
        "Run as a coding agent's hook: read one hook payload (Claude Code's format) on standard"
            + " input, capture it, and print as hookSpecificOutput.additionalContext, for"
            + " SessionStart, the scope's standing memories (preferences, decisions, conventions,"
            + " workflows, facts) and, for UserPromptSubmit, what recall finds for the prompt,"
            + " each memory once per session. Always exits 0; problems go to standard error and"
            + " DIR/hook.log.")
final class HookCommand implements Callable<Integer> {
  /** The largest payload read; a larger one is not captured. */
  static final int MAX_INPUT_BYTES = 16 * 1024 * 1024;

  /** The events that open the store: those that answer, and those that end a turn or more. */
  private static final Set<LifecycleEventType> OPEN_STORE =
      EnumSet.of(
          LifecycleEventType.SESSION_START,
          LifecycleEventType.PROMPT_SUBMIT,
          LifecycleEventType.AGENT_RESPONSE,
          LifecycleEventType.SUBAGENT_STOP,
          LifecycleEventType.PRE_COMPACT,
          LifecycleEventType.SESSION_END);

  @ParentCommand MemhookCli root;
  @Mixin StoreArguments store;

  @Option(
      names = "--scope",
      paramLabel = "SCOPE",
      description = "The scope captured into and recalled from. Default: ${DEFAULT-VALUE}.")
  Scope scope = Scope.DEFAULT;

  @Option(
      names = "--context-limit",
      paramLabel = "N",
      description =
          "At most N memories offered per prompt (UserPromptSubmit), 1-20. Default:"
              + " ${DEFAULT-VALUE}.")
  int contextLimit = 5;

  /** The environment variable that sets {@code --standing-chars} when the option is not given. */
  static final String STANDING_CHARS_VARIABLE = "MEMHOOK_STANDING_CHARS";

  @Option(
      names = "--standing-chars",
      paramLabel = "N",
      description =
          "The budget, in characters, of the standing memories (preferences, decisions,"
              + " conventions, workflows, facts) SessionStart offers; 0 offers none. Default: $"
              + STANDING_CHARS_VARIABLE
              + ", else 1000.")
  Integer standingChars;

  @Option(
      names = "--context-chars",
      paramLabel = "N",
      description =
          "The budget, in characters, of the context one event injects (header and memory lines;"
              + " a memory that does not fit is left out whole, and offered again later), 1-"
              + ContextBudget.MAX_CHARS
              + ". Default: ${DEFAULT-VALUE}, Claude Code's own limit.")
  int contextChars = ContextBudget.DEFAULT_MAX_CHARS;

  @Override
  public Integer call() {
    CliContext context = root.context();
    HookLog log = null;
    try {
      Path dir = store.directory(context);
      log = new HookLog(context.err(), dir, StoreArguments.REDACTION);
      handle(context, dir, log);
    } catch (Exception | Error e) {
      // An Error too (a native library that will not load, a class missing from a broken jar):
      // a hook must not fail the agent's step with it. Logging may fail for the worst of them.
      String message = e instanceof CliException ? e.getMessage() : e.toString();
      if (log != null) {
        log.warn(message);
      } else {
        context.err().println("memhook hook: " + message);
      }
    }
    return ExitCode.OK;
  }

  private void handle(CliContext context, Path dir, HookLog log) throws IOException {
    if (contextLimit < 1 || contextLimit > 20) {
      throw new IllegalArgumentException("--context-limit must be 1-20, got " + contextLimit);
    }
    ContextBudget budget = new ContextBudget(contextChars);
    byte[] input = readBounded(context.in());
    if (input == null) {
      log.warn("the hook input is over " + MAX_INPUT_BYTES + " bytes: not captured");
      return;
    }
    JsonNode payload;
    try {
      payload = JsonRecords.MAPPER.readTree(new String(input, StandardCharsets.UTF_8));
    } catch (IOException e) {
      log.warn("the hook input is not JSON; not captured");
      return;
    }
    HookPayload.Prepared event = HookPayload.prepare(payload, Instant.now());
    HookSpool spool = new HookSpool(dir, StoreArguments.REDACTION);
    if (event.event().isPresent()) {
      spool.add(event.event().get());
    } else {
      log.warn(event.wireName() + " carries no assistant text: not captured");
    }
    if (!OPEN_STORE.contains(event.type())) {
      return;
    }
    boolean answers =
        event.type() == LifecycleEventType.SESSION_START
            || event.type() == LifecycleEventType.PROMPT_SUBMIT;
    String session = payload.path("session_id").asText(payload.path("sessionId").asText(""));
    MemoryService memory;
    try {
      memory = store.openWritable(context, scope, true);
      spool.drain(memory, log);
    } catch (CliException e) {
      if (!answers) {
        log.warn(e.getMessage() + "; the event waits in the spool");
        return;
      }
      memory = store.openReadOnly(context); // held by another process: answer from its commit
    }
    try (MemoryService open = memory) {
      if (answers && !session.isBlank()) {
        answer(context, dir, open, event, payload, session, budget, log);
      }
    }
  }

  /**
   * The standing memories' budget: {@code --standing-chars}, else {@value
   * #STANDING_CHARS_VARIABLE}, else {@link StandingProfile#DEFAULT_MAX_CHARS}.
   *
   * @throws IllegalArgumentException if it is not a number from 0 to {@link
   *     StandingProfile#MAX_CHARS}
   */
  private int standingBudget(CliContext context) {
    int budget;
    if (standingChars != null) {
      budget = standingChars;
    } else {
      String fromEnv = context.env().get(STANDING_CHARS_VARIABLE);
      if (fromEnv == null || fromEnv.isBlank()) {
        return StandingProfile.DEFAULT_MAX_CHARS;
      }
      try {
        budget = Integer.parseInt(fromEnv.strip());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "$" + STANDING_CHARS_VARIABLE + " must be a number of characters, got " + fromEnv);
      }
    }
    if (budget < 0 || budget > StandingProfile.MAX_CHARS) {
      throw new IllegalArgumentException(
          "the standing memories' budget (--standing-chars or $"
              + STANDING_CHARS_VARIABLE
              + ") must be 0-"
              + StandingProfile.MAX_CHARS
              + ", got "
              + budget);
    }
    return budget;
  }

  private void answer(
      CliContext context,
      Path dir,
      MemoryService memory,
      HookPayload.Prepared event,
      JsonNode payload,
      String session,
      ContextBudget budget,
      HookLog log)
      throws IOException {
    OfferedMemories book = new OfferedMemories(dir, session);
    Set<MemoryId> offered = book.offered();
    List<Memory> chosen = new ArrayList<>();
    boolean prompt = event.type() == LifecycleEventType.PROMPT_SUBMIT;
    if (prompt) {
      String text = payload.path("prompt").asText("");
      if (text.isBlank()) {
        return;
      }
      int limit = Math.min(RecallQuery.MAX_LIMIT, contextLimit * 4);
      for (RecalledMemory r : memory.recall(new RecallQuery(scope, text, limit)).memories()) {
        if (chosen.size() < contextLimit && fresh(r.memory(), session, offered)) {
          chosen.add(r.memory());
        }
      }
    } else {
      // checked here, not up front: a bad $MEMHOOK_STANDING_CHARS costs this answer, not capture
      int standingBudget = standingBudget(context);
      if (standingBudget == 0) {
        return;
      }
      for (Memory m : memory.standing(scope, standingBudget).memories()) {
        if (fresh(m, session, offered)) {
          chosen.add(m);
        }
      }
    }
    if (chosen.isEmpty()) {
      return;
    }
    List<String> lines =
        chosen.stream().map(m -> prompt ? recalledLine(m) : standingLine(m)).toList();
    ContextBudget.Fit fit = budget.fit(prompt ? RECALLED_HEADER : STANDING_HEADER, lines);
    log.info(budget.report(event.wireName(), fit));
    if (fit.kept().isEmpty()) {
      return;
    }
    ObjectNode out = JsonRecords.MAPPER.createObjectNode();
    out.putObject("hookSpecificOutput")
        .put("hookEventName", event.wireName())
        .put("additionalContext", fit.text());
    JsonRecords.print(context.out(), out);
    book.add(fit.kept().stream().map(i -> chosen.get(i).id()).toList());
  }

  /** Whether {@code m} may be offered: not of the session itself, not offered to it before. */
  private static boolean fresh(Memory m, String session, Set<MemoryId> offered) {
    return !session.equals(m.sourceSession()) && !offered.contains(m.id());
  }

  /** The header of what {@code SessionStart} says; each standing memory follows on a line. */
  static final String STANDING_HEADER =
      "Standing memories of this project (Memhook): preferences, decisions, conventions,"
          + " workflows and facts to follow. Each line: id (type): summary. If a get_memory"
          + " tool is available, it returns one in full by id.\n";

  /** The header of what {@code UserPromptSubmit} says; each recalled memory follows on a line. */
  static final String RECALLED_HEADER =
      "Memories from earlier sessions that may matter here (Memhook). Each line: id, type,"
          + " title: summary. If a get_memory tool is available, it returns one in full by"
          + " id.\n";

  /**
   * A standing memory's line, {@code - id (type): summary}: never longer than the memory's summary
   * entry in a {@code get_memory} result, which is what the profile's budget counts, so the lines
   * stay within it.
   */
  static String standingLine(Memory m) {
    return "- "
        + m.id()
        + " ("
        + JsonRecords.lower(m.type())
        + "): "
        + m.summary().replace('\n', ' ')
        + "\n";
  }

  /** A recalled memory's line, {@code - id (type) title: summary}. */
  static String recalledLine(Memory m) {
    return "- "
        + m.id()
        + " ("
        + JsonRecords.lower(m.type())
        + ") "
        + m.title()
        + ": "
        + m.summary().replace('\n', ' ')
        + "\n";
  }

  /** All of {@code in}, or null if it holds more than {@link #MAX_INPUT_BYTES}. */
  private static byte[] readBounded(InputStream in) throws IOException {
    byte[] bytes = in.readNBytes(MAX_INPUT_BYTES + 1);
    return bytes.length > MAX_INPUT_BYTES ? null : bytes;
  }
}
