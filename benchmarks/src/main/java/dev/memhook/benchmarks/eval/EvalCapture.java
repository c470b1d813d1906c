package dev.memhook.benchmarks.eval;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.capture.CaptureStats;
import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEvent;
import dev.memhook.api.capture.LifecycleEventType;
import dev.memhook.api.capture.ObserveResult;
import dev.memhook.api.capture.ShedPolicy;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.benchmarks.Unowned;
import dev.memhook.benchmarks.eval.EvalData.EvalMemory;
import dev.memhook.core.Memhook;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Stores an evaluation set's conversations the way capture would see them: each memory becomes a
 * {@link LifecycleEventType#PROMPT_SUBMIT} event handed to {@link
 * dev.memhook.api.capture.MemoryCapture#observe}, so the stored memories are the observations the
 * capture pipeline makes, not drafts the harness writes.
 *
 * <p>Each event: session id {@code <conv>/<session>} (one capture session per conversation and
 * session), project = the conversation id, cwd {@code "locomo"}, timestamp = the memory's time
 * parsed by {@link ConversationTime} (an unparseable time is left null, so the service's clock
 * stamps it, as {@code remember} does), event id = the eval id, prompt = the same content {@link
 * EvalIngest#content} gives {@code remember} (text and image caption; the speaker is not in it),
 * speaker = the memory's speaker (the event's {@code data.speaker}, stored as the origin's name)
 * unless speakers are unnamed. Capture writes the context itself ({@code "<speaker>: <previous
 * turn>"}, {@code "user: …"} when unnamed).
 *
 * <p>The events go through a service of their own on the shared store and embedder: capture into
 * scope {@code eval} with a scope per project (the conversation), which is the scope {@link
 * EvalIngest#scopes} gives every conversation id that needs no sanitizing; a full queue makes the
 * caller store the event (nothing is shed); sessions are consolidated on demand only, so no
 * consolidated memory joins the observations while queries run. After {@link
 * dev.memhook.api.capture.MemoryCapture#flush}, the observations are read back with {@link
 * dev.memhook.api.MemoryMaintenance#export} and matched to eval ids by source session and content,
 * with the context breaking ties between equal contents of one session. Stateless.
 */
final class EvalCapture {

  /** The working directory every event names. */
  static final String CWD = "locomo";

  /** How long the pipeline may take to store everything observed. */
  static final Duration FLUSH_TIMEOUT = Duration.ofMinutes(10);

  private EvalCapture() {}

  /** The capture session of {@code m}: one per conversation and session. */
  static String sessionId(EvalMemory m) {
    return m.conv() + "/" + (m.session() == null ? "" : m.session());
  }

  /**
   * Observes every non-blank memory of {@code data}, waits for the pipeline and maps each stored
   * observation back to its eval id, noting unparseable times, skipped and unmatched memories on
   * {@code out}.
   *
   * @return the eval id of each stored observation, by its memory id
   * @throws IllegalStateException if the pipeline does not finish in time, or an observation lands
   *     in another scope than {@code scopes} gives its conversation
   */
  static Map<MemoryId, String> captureAll(
      EvalData data,
      Map<String, Scope> scopes,
      MemoryStore store,
      Embedder embedder,
      boolean namedSpeakers,
      PrintStream out) {
    CaptureOptions capture =
        CaptureOptions.builder()
            .scope(Scope.of("eval"))
            .scopePerProject()
            .shedPolicy(ShedPolicy.CALLER_RUNS)
            .consolidateOnDemandOnly()
            .build();
    Map<String, List<Turn>> bySession = new LinkedHashMap<>();
    int badTimes = 0;
    int skipped = 0;
    int notAccepted = 0;
    CaptureStats stats;
    List<Memory> observations = new ArrayList<>();
    try (MemoryService service =
        Memhook.builder()
            .store(Unowned.store(store))
            .embedder(Unowned.embedder(embedder))
            .capture(capture)
            .build()) {
      for (EvalMemory m : data.memories()) {
        String content = EvalIngest.content(m);
        if (content.isBlank()) {
          skipped++;
          continue;
        }
        Instant at = null;
        if (m.time() != null) {
          Optional<Instant> parsed = ConversationTime.parse(m.time());
          if (parsed.isPresent()) {
            at = parsed.get();
          } else {
            badTimes++;
          }
        }
        String session = sessionId(m);
        LifecycleEvent event =
            LifecycleEvent.builder(LifecycleEventType.PROMPT_SUBMIT, session)
                .project(m.conv())
                .cwd(CWD)
                .timestamp(at)
                .eventId(m.id())
                .data(
                    EventData.prompt(content)
                        .withSpeaker(
                            namedSpeakers && m.speaker() != null && !m.speaker().isBlank()
                                ? m.speaker()
                                : null))
                .build();
        if (service.capture().observe(event) != ObserveResult.ACCEPTED) {
          notAccepted++;
          continue;
        }
        List<Turn> turns = bySession.computeIfAbsent(session, s -> new ArrayList<>());
        String previous = turns.isEmpty() ? null : turns.get(turns.size() - 1).content();
        turns.add(new Turn(m.conv(), m.id(), content, previous));
      }
      if (!service.capture().flush(FLUSH_TIMEOUT)) {
        throw new IllegalStateException(
            "capture did not store the observed events within " + FLUSH_TIMEOUT);
      }
      stats = service.capture().stats();
      service
          .maintenance()
          .export(
              memory -> {
                if (memory.type() == MemoryType.OBSERVATION
                    && bySession.containsKey(memory.sourceSession())) {
                  observations.add(memory);
                }
              });
    }
    Map<MemoryId, String> evalIds = match(bySession, observations, scopes);
    int unmatched = bySession.values().stream().mapToInt(List::size).sum() - evalIds.size();
    out.printf(
        Locale.ROOT,
        "capture: %d events accepted, %d not accepted, %d processed, %d failed, %d dropped;"
            + " %d observations stored, %d matched to eval ids, %d observed turns unmatched%n",
        stats.accepted(),
        notAccepted,
        stats.processed(),
        stats.failed(),
        stats.dropped(),
        observations.size(),
        evalIds.size(),
        unmatched);
    if (badTimes > 0 || skipped > 0) {
      out.printf(
          Locale.ROOT,
          "note: %d memories had an unparseable time (stamped by the service clock); %d empty"
              + " memories skipped%n",
          badTimes,
          skipped);
    }
    return evalIds;
  }

  /**
   * Pairs each observed turn with the stored observation of its session whose content is the
   * turn's; among equal contents, the one whose context quotes the turn's predecessor. A turn whose
   * content sanitizing changed stays unmatched (it then counts as never found).
   */
  static Map<MemoryId, String> match(
      Map<String, List<Turn>> bySession, List<Memory> observations, Map<String, Scope> scopes) {
    Map<String, Map<String, List<Memory>>> stored = new HashMap<>();
    for (Memory o : observations) {
      stored
          .computeIfAbsent(o.sourceSession(), s -> new HashMap<>())
          .computeIfAbsent(o.content(), c -> new ArrayList<>())
          .add(o);
    }
    Map<MemoryId, String> evalIds = new HashMap<>();
    bySession.forEach(
        (session, turns) -> {
          Map<String, List<Memory>> byContent = stored.getOrDefault(session, Map.of());
          for (Turn t : turns) {
            List<Memory> candidates = byContent.get(t.content());
            if (candidates == null || candidates.isEmpty()) {
              continue;
            }
            Memory chosen = take(candidates, t.previous());
            Scope expected = scopes.get(t.conv());
            if (!chosen.scope().equals(expected)) {
              throw new IllegalStateException(
                  "conversation '"
                      + t.conv()
                      + "' was captured into "
                      + chosen.scope()
                      + " but is queried in "
                      + expected
                      + "; give it an id of letters, digits and ._@+- only");
            }
            evalIds.put(chosen.id(), t.evalId());
          }
        });
    return evalIds;
  }

  /** Removes and returns the candidate whose context quotes {@code previous}, else the first. */
  private static Memory take(List<Memory> candidates, String previous) {
    if (candidates.size() > 1) {
      String quoted = previous == null ? "" : "user: " + previous;
      for (Iterator<Memory> it = candidates.iterator(); it.hasNext(); ) {
        Memory m = it.next();
        String context = m.context();
        if (context.endsWith(MemoryDraft.CUT_MARKER)) {
          context = context.substring(0, context.length() - MemoryDraft.CUT_MARKER.length());
        }
        if (previous == null ? context.isEmpty() : quoted.startsWith(context)) {
          it.remove();
          return m;
        }
      }
    }
    return candidates.remove(0);
  }

  /**
   * One observed turn.
   *
   * @param conv its conversation
   * @param evalId its eval id
   * @param content what was observed
   * @param previous the content observed before it in its session, or null for the first
   */
  record Turn(String conv, String evalId, String content, String previous) {}
}
