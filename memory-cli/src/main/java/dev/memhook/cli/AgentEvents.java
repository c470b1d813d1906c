package dev.memhook.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memhook.api.HookOptions;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecalledMemory;
import dev.memhook.api.Scope;
import dev.memhook.api.StandingProfile;
import dev.memhook.api.capture.LifecycleEventType;
import dev.memhook.api.capture.ObserveResult;
import dev.memhook.core.internal.inject.excerpt.Excerpts;
import dev.memhook.core.internal.recall.words.QueryWords;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What a coding agent's hook event does, whichever process receives it: one {@code memhook hook}
 * run ({@link HookCommand}), which spools the event and opens the store for the events that answer
 * or end a turn, or {@code memhook serve} ({@link HookServer}), which holds the store open and
 * captures at once. Both read the event here ({@link #read}), capture it by the same rules
 * (redacted before any byte reaches the disk: {@link HookSpool}, {@link PayloadScrub}) and answer
 * {@code SessionStart} and {@code UserPromptSubmit} here ({@link #answer}), with the same limits
 * and the same offered-once-per-session rule ({@link OfferedMemories}).
 *
 * <p>What each answer holds: {@code SessionStart} the scope's standing memories ({@link
 * MemoryService#standing}) within the standing budget, {@code UserPromptSubmit} what recall finds
 * for the prompt within the context limit, less what the session was offered before (which keeps
 * its place: nothing ranked below the limit is offered instead, as in the chat hook), and at the
 * session's first prompt the excerpts for it of the standing memories offered at its start.
 *
 * <p>Problems that cost an event or an answer, not the agent's step, are reported through the
 * {@link HookLog}. Thread-safe: answers are given one at a time, so that a session's offered ids
 * are read and written by one answer at a time; reading and capturing run concurrently.
 */
final class AgentEvents {
  /** The events that open the store: those that answer, and those that end a turn or more. */
  private static final Set<LifecycleEventType> OPEN_STORE =
      EnumSet.of(
          LifecycleEventType.SESSION_START,
          LifecycleEventType.PROMPT_SUBMIT,
          LifecycleEventType.AGENT_RESPONSE,
          LifecycleEventType.SUBAGENT_STOP,
          LifecycleEventType.PRE_COMPACT,
          LifecycleEventType.SESSION_END);

  /**
   * The default of {@code --context-limit}: the chat hook's memories per message ({@link
   * HookOptions#DEFAULT_MAX_PER_MESSAGE}), so that a prompt is offered what the same message would
   * get through {@link MemoryService#hookInto}. Past the few best, a recall's places go to weak
   * candidates (a run of {@code git status}) far more often than to an answer.
   */
  static final int DEFAULT_CONTEXT_LIMIT = HookOptions.DEFAULT_MAX_PER_MESSAGE;

  /**
   * How the answers are bounded: {@code --context-limit} and {@code --standing-chars} of {@code
   * memhook hook} and {@code memhook serve}.
   *
   * @param contextLimit at most this many memories per prompt, 1-20
   * @param contextChars the budget of one answer's injected context ({@link ContextBudget})
   * @param standingChars the standing memories' budget given as an option, or null if not given
   * @param standingCharsFromEnv {@value HookCommand#STANDING_CHARS_VARIABLE}, or null if unset
   */
  record Settings(
      int contextLimit,
      ContextBudget contextChars,
      Integer standingChars,
      String standingCharsFromEnv) {
    /**
     * @throws IllegalArgumentException if {@code contextLimit} is not 1-20
     */
    Settings {
      if (contextLimit < 1 || contextLimit > 20) {
        throw new IllegalArgumentException("--context-limit must be 1-20, got " + contextLimit);
      }
      java.util.Objects.requireNonNull(contextChars, "contextChars");
    }

    /**
     * The standing memories' budget: {@code --standing-chars}, else {@value
     * HookCommand#STANDING_CHARS_VARIABLE}, else {@link StandingProfile#DEFAULT_MAX_CHARS}.
     *
     * @throws IllegalArgumentException if it is not a number from 0 to {@link
     *     StandingProfile#MAX_CHARS}
     */
    int standingBudget() {
      int budget;
      if (standingChars != null) {
        budget = standingChars;
      } else {
        if (standingCharsFromEnv == null || standingCharsFromEnv.isBlank()) {
          return StandingProfile.DEFAULT_MAX_CHARS;
        }
        try {
          budget = Integer.parseInt(standingCharsFromEnv.strip());
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(
              "$"
                  + HookCommand.STANDING_CHARS_VARIABLE
                  + " must be a number of characters, got "
                  + standingCharsFromEnv);
        }
      }
      if (budget < 0 || budget > StandingProfile.MAX_CHARS) {
        throw new IllegalArgumentException(
            "the standing memories' budget (--standing-chars or $"
                + HookCommand.STANDING_CHARS_VARIABLE
                + ") must be 0-"
                + StandingProfile.MAX_CHARS
                + ", got "
                + budget);
      }
      return budget;
    }
  }

  /**
   * One event as the agent sent it.
   *
   * @param prepared the event completed for capture
   * @param payload the agent's payload in Claude Code's format ({@link AgentPayloads})
   * @param session the agent's session id, blank if it gave none
   * @param agent the agent that sent it, whose shape an answer takes
   */
  record Event(HookPayload.Prepared prepared, JsonNode payload, String session, CodingAgent agent) {
    /**
     * Whether the agent reads an answer to this event: {@code SessionStart}, and a prompt where the
     * agent's prompt hook may add context ({@link AgentPayloads#answers}).
     */
    boolean answers() {
      return AgentPayloads.answers(agent, prepared.type());
    }

    /** Whether a one-shot run opens the store for it, rather than only spooling it. */
    boolean opensStore() {
      return OPEN_STORE.contains(prepared.type());
    }
  }

  private final Path dir;
  private final HookLog log;
  private final Settings settings;
  private final HookSpool spool;
  private final PayloadScrub scrub;
  private final ReentrantLock answering = new ReentrantLock();

  AgentEvents(Path storeDirectory, HookLog log, Settings settings) {
    this.dir = Objects.requireNonNull(storeDirectory, "storeDirectory");
    this.log = Objects.requireNonNull(log, "log");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.spool = new HookSpool(storeDirectory, StoreArguments.REDACTION);
    this.scrub = new PayloadScrub(StoreArguments.REDACTION);
  }

  /** The store directory the events are about. */
  Path directory() {
    return dir;
  }

  /** The store directory's spool, which both processes fill when the store is not theirs. */
  HookSpool spool() {
    return spool;
  }

  /**
   * The event in {@code input}, sent by the agent {@code origin} names, or empty (reported) if it
   * is over {@link HookCommand#MAX_INPUT_BYTES} or not JSON.
   *
   * @throws IllegalArgumentException if it is not one object or names no event Memhook reads from
   *     that agent
   */
  Optional<Event> read(byte[] input, HookOrigin origin) {
    if (input.length > HookCommand.MAX_INPUT_BYTES) {
      log.warn("the hook input is over " + HookCommand.MAX_INPUT_BYTES + " bytes: not captured");
      return Optional.empty();
    }
    JsonNode payload;
    try {
      payload = JsonRecords.MAPPER.readTree(new String(input, StandardCharsets.UTF_8));
    } catch (IOException e) {
      log.warn("the hook input is not JSON; not captured");
      return Optional.empty();
    }
    JsonNode claude = AgentPayloads.toClaude(origin, payload);
    HookPayload.Prepared prepared = HookPayload.prepare(claude, Instant.now());
    String session = claude.path("session_id").asText(claude.path("sessionId").asText(""));
    return Optional.of(new Event(prepared, claude, session, origin.agent()));
  }

  /**
   * Spools {@code event} for capture into {@code scope} (a one-shot run), redacted before it is
   * written; an event without anything to capture is reported instead.
   */
  void spool(Event event, Scope scope) throws IOException {
    Optional<ObjectNode> prepared = event.prepared().event();
    if (prepared.isPresent()) {
      spool.add(prepared.get(), scope);
    } else {
      log.warn(event.prepared().wireName() + " carries no assistant text: not captured");
    }
  }

  /**
   * Captures {@code event} into {@code scope} in {@code memory} (a server holding the store): once
   * this returns, the event survives a SIGKILL, in the capture journal or, if capture sheds it (a
   * full queue), in the spool. An event capture rejects as invalid is reported, not kept.
   *
   * @throws IOException if capture shed the event and the spool could not take it
   */
  void capture(MemoryService memory, Event event, Scope scope) throws IOException {
    Optional<ObjectNode> prepared = event.prepared().event();
    if (prepared.isEmpty()) {
      log.warn(event.prepared().wireName() + " carries no assistant text: not captured");
      return;
    }
    String json = JsonRecords.MAPPER.writeValueAsString(scrub.scrub(prepared.get()));
    ObserveResult result;
    try {
      result = memory.capture().observeJson(json, scope);
    } catch (IllegalArgumentException e) {
      log.warn(event.prepared().wireName() + " rejected by capture: " + e.getMessage());
      return;
    }
    if (result == ObserveResult.SHED) {
      spool.add(prepared.get(), scope);
      log.warn("capture is full; the event waits in the spool");
    }
  }

  /**
   * What the agent is told of {@code event}: for {@code SessionStart} and {@code UserPromptSubmit}
   * of a session (a prompt only where the agent reads an answer to it), the agent's
   * context-injection object ({@link AgentPayloads#answer}: {@code {"hookSpecificOutput":
   * {"hookEventName":…,"additionalContext":…}}} for Claude Code) of the memories of {@code scope}
   * the session was not offered before, which are then recorded as offered; otherwise, or when
   * there is nothing to offer, empty.
   *
   * @throws IllegalArgumentException if the standing budget's environment variable is malformed
   */
  Optional<ObjectNode> answer(MemoryService memory, Event event, Scope scope) throws IOException {
    if (!event.answers() || event.session().isBlank()) {
      return Optional.empty();
    }
    answering.lock();
    try {
      return offer(memory, event, scope);
    } finally {
      answering.unlock();
    }
  }

  private Optional<ObjectNode> offer(MemoryService memory, Event event, Scope scope)
      throws IOException {
    String session = event.session();
    OfferedMemories book = new OfferedMemories(dir, session);
    OfferedMemories.Offered before = book.read();
    List<Memory> chosen = new ArrayList<>();
    List<String> lines = new ArrayList<>();
    boolean prompt = event.prepared().type() == LifecycleEventType.PROMPT_SUBMIT;
    if (prompt) {
      String text = event.payload().path("prompt").asText("");
      if (text.isBlank()) {
        return Optional.empty();
      }
      // the session's own turns, the prompt just captured among them, must not be the evidence
      // that lets other memories through the gate: they are in the agent's context already
      RecallQuery query =
          new RecallQuery(scope, text, settings.contextLimit()).excludingSession(session);
      // A memory offered before keeps its place under the limit, as in the chat hook: it is in the
      // agent's context already, and what ranks below the limit is not offered in its stead (on
      // the memory-loop scenarios those lower ranks were mostly noise: benchmarks/RESULTS.md §15.3)
      for (RecalledMemory r : memory.recall(query).memories()) {
        if (fresh(r.memory(), session, before.ids())) {
          chosen.add(r.memory());
        }
      }
      List<String> terms = QueryWords.terms(QueryWords.focus(List.of(text)));
      chosen.forEach(m -> lines.add(recalledLine(m, Excerpts.of(m, terms))));
      if (!before.prompted()) {
        book.markPrompted();
        lines.addAll(standingExcerpts(memory, scope, before.beforePrompt(), terms));
      }
    } else {
      prune(book);
      // checked here, not up front: a bad $MEMHOOK_STANDING_CHARS costs this answer, not capture
      int standingBudget = settings.standingBudget();
      if (standingBudget == 0) {
        return Optional.empty();
      }
      for (Memory m : memory.standing(scope, standingBudget).memories()) {
        if (fresh(m, session, before.ids())) {
          chosen.add(m);
          lines.add(standingLine(m));
        }
      }
    }
    if (lines.isEmpty()) {
      return Optional.empty();
    }
    ContextBudget budget = settings.contextChars();
    ContextBudget.Fit fit = budget.fit(prompt ? RECALLED_HEADER : STANDING_HEADER, lines);
    log.info(budget.report(event.prepared().wireName(), fit));
    if (fit.kept().isEmpty()) {
      return Optional.empty();
    }
    ObjectNode out = AgentPayloads.answer(event.agent(), event.prepared().wireName(), fit.text());
    // the lines past the chosen memories' are excerpts of memories offered before
    book.add(
        fit.kept().stream().filter(i -> i < chosen.size()).map(i -> chosen.get(i).id()).toList());
    return Optional.of(out);
  }

  /**
   * At a session's start, deletes the other sessions' records idle past {@link
   * OfferedMemories#KEPT}, so that {@code DIR/hook-offered} does not grow by a file per session for
   * good. A failure is reported and costs neither the answer nor a record.
   */
  private void prune(OfferedMemories book) {
    try {
      int pruned = book.pruneOthers(Instant.now());
      if (pruned > 0) {
        log.info(
            "deleted the offered-memory records of "
                + pruned
                + " sessions idle for over "
                + OfferedMemories.KEPT.toDays()
                + " days");
      }
    } catch (IOException e) {
      log.warn("could not list the offered-memory records to prune them: " + e.getMessage());
    }
  }

  /**
   * The excerpt lines ({@link #excerptLine}) of the memories {@code SessionStart} offered, for the
   * session's first prompt: a standing memory's line shows its summary only, since no prompt was
   * known then, and the chat hook's first injection shows a standing memory's excerpt for the first
   * message beside its summary. A memory forgotten since, one of another scope (the session's start
   * was answered for another {@code --scope}), or one whose summary already shows the prompt's
   * words, has none.
   */
  private static List<String> standingExcerpts(
      MemoryService memory, Scope scope, List<MemoryId> standing, List<String> terms) {
    List<String> lines = new ArrayList<>();
    for (MemoryId id : standing) {
      memory
          .get(id)
          .filter(m -> m.scope().equals(scope))
          .ifPresent(
              m -> {
                String excerpt = Excerpts.of(m, terms);
                if (!excerpt.isEmpty()) {
                  lines.add(excerptLine(m, excerpt));
                }
              });
    }
    return lines;
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

  /**
   * The header of what {@code UserPromptSubmit} says; each recalled memory follows on a line, then,
   * at the session's first prompt, each standing memory with an excerpt for it.
   */
  static final String RECALLED_HEADER =
      "Memories from earlier sessions that may matter here (Memhook). Each line: id, type,"
          + " title: summary, then, where the prompt's words are further in, an excerpt; a"
          + " standing memory shown at the session's start comes again with its excerpt alone. If"
          + " a get_memory tool is available, it returns one in full by id.\n";

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

  /**
   * A recalled memory's line, {@code - id (type) title: summary}, followed by {@code excerpt: …}
   * when {@code excerpt} is not empty: the run of its content that holds the most of the prompt's
   * words and that its summary does not show ({@link Excerpts}), as the chat hook's summary call
   * shows it.
   */
  static String recalledLine(Memory m, String excerpt) {
    return "- "
        + m.id()
        + " ("
        + JsonRecords.lower(m.type())
        + ") "
        + m.title()
        + ": "
        + m.summary().replace('\n', ' ')
        + (excerpt.isEmpty() ? "" : " excerpt: " + excerpt)
        + "\n";
  }

  /**
   * A standing memory's line at the session's first prompt, {@code - id (type) excerpt: …}: its
   * summary was shown at {@code SessionStart}, so only the excerpt for the prompt is new.
   */
  static String excerptLine(Memory m, String excerpt) {
    return "- " + m.id() + " (" + JsonRecords.lower(m.type()) + ") excerpt: " + excerpt + "\n";
  }
}
