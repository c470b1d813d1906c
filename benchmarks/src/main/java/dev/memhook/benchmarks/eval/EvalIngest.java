package dev.memhook.benchmarks.eval;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Origin;
import dev.memhook.api.Scope;
import dev.memhook.benchmarks.eval.EvalData.EvalMemory;
import java.io.PrintStream;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Stores an evaluation set's conversations the way a host would (see {@link RetrievalEval} for the
 * mapping of each field): one scope per conversation, one {@link MemoryService#remember} per
 * memory. Stateless.
 */
final class EvalIngest {

  private EvalIngest() {}

  /** One valid scope per conversation id, distinct even where sanitized ids collide. */
  static Map<String, Scope> scopes(List<String> conversations) {
    Map<String, Scope> out = new LinkedHashMap<>();
    Set<String> used = new HashSet<>();
    for (String conv : conversations) {
      String segment = sanitizeSegment(conv);
      String unique = segment;
      for (int n = 2; !used.add(unique); n++) {
        String suffix = "-" + n;
        unique = segment.substring(0, Math.min(segment.length(), 64 - suffix.length())) + suffix;
      }
      out.put(conv, Scope.of("eval", unique));
    }
    return out;
  }

  /**
   * {@code id} as a scope segment: characters outside {@code [A-Za-z0-9._@+-]} become '_', at most
   * 64.
   */
  static String sanitizeSegment(String id) {
    String s = id.replaceAll("[^A-Za-z0-9._@+-]", "_");
    if (s.isEmpty()) {
      s = "_";
    }
    return s.length() > 64 ? s.substring(0, 64) : s;
  }

  /** The content a host would store for {@code m}: its text and, if any, its image caption. */
  static String content(EvalMemory m) {
    String text = m.text().strip();
    if (m.imageCaption() == null || m.imageCaption().isBlank()) {
      return text;
    }
    String photo = "[shares a photo: " + m.imageCaption().strip() + "]";
    return text.isEmpty() ? photo : text + " " + photo;
  }

  /**
   * The context a host would store with {@code m}: the previous turn of the same conversation and
   * session ("speaker: text"), cut to {@link Memory#MAX_CONTEXT}; empty for a session's first turn.
   */
  static String context(EvalMemory previous, EvalMemory m) {
    return context(previous, m, true);
  }

  /**
   * {@link #context(EvalMemory, EvalMemory)}, or with {@code named} false the way capture writes
   * it: {@code "user: text"}, the speaker unnamed.
   */
  static String context(EvalMemory previous, EvalMemory m, boolean named) {
    if (previous == null
        || !previous.conv().equals(m.conv())
        || !Objects.equals(previous.session(), m.session())) {
      return "";
    }
    String who = !named ? "user: " : previous.speaker() == null ? "" : previous.speaker() + ": ";
    String text = who + content(previous);
    return text.length() > MemoryDraft.MAX_CONTEXT
        ? text.substring(0, MemoryDraft.MAX_CONTEXT)
        : text;
  }

  /**
   * Who said a memory, as a host would record it: an assistant's turn (speaker {@code assistant},
   * {@code agent} or {@code ai}, any case) as the agent's, everything else as a user's, named
   * unless {@code namedSpeakers} is off.
   */
  static Origin originOf(EvalMemory m, boolean namedSpeakers) {
    String speaker = m.speaker() == null ? "" : m.speaker().strip();
    if (ASSISTANT_SPEAKERS.contains(speaker.toLowerCase(Locale.ROOT))) {
      return Origin.agent();
    }
    return !namedSpeakers || speaker.isEmpty() ? Origin.user() : Origin.user(speaker);
  }

  private static final java.util.Set<String> ASSISTANT_SPEAKERS =
      java.util.Set.of("assistant", "agent", "ai");

  /**
   * Stores every non-blank memory of {@code data} through {@code service}, noting unparseable times
   * and skipped memories on {@code out}. With {@code namedSpeakers} false, every memory is stored
   * as {@code Origin.user()} and its context names the previous speaker {@code "user"}, as capture
   * stores a prompt.
   *
   * @return the eval id of each stored memory, by the id the service assigned it
   */
  static Map<MemoryId, String> storeAll(
      EvalData data,
      Map<String, Scope> scopes,
      MemoryService service,
      boolean withContext,
      boolean namedSpeakers,
      PrintStream out) {
    Map<MemoryId, String> evalIds = new HashMap<>();
    int badTimes = 0;
    int skipped = 0;
    EvalMemory previous = null;
    for (EvalMemory m : data.memories()) {
      String content = content(m);
      if (content.isBlank()) {
        skipped++;
        continue;
      }
      String context = withContext ? context(previous, m, namedSpeakers) : "";
      previous = m;
      Instant at = null;
      if (m.time() != null) {
        Optional<Instant> parsed = ConversationTime.parse(m.time());
        if (parsed.isPresent()) {
          at = parsed.get();
        } else {
          badTimes++;
        }
      }
      MemoryDraft draft =
          MemoryDraft.builder(scopes.get(m.conv()), content)
              .sourceSession(m.session() == null || m.session().isBlank() ? null : m.session())
              .origin(originOf(m, namedSpeakers))
              .occurredAt(at)
              .context(context)
              .build();
      Memory stored = service.remember(draft);
      evalIds.put(stored.id(), m.id());
    }
    if (badTimes > 0 || skipped > 0) {
      out.printf(
          Locale.ROOT,
          "note: %d memories had an unparseable time (stored as now); %d empty memories skipped%n",
          badTimes,
          skipped);
    }
    return evalIds;
  }
}
