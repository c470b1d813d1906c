package dev.memhook.core.internal.recall;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Origin;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecalledMemory;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.core.internal.capture.QuotedTurns;
import dev.memhook.core.internal.capture.SourceObservations;
import dev.memhook.core.internal.recall.words.QueryWords;
import dev.memhook.lucene.internal.analysis.SimpleTokens;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A captured observation in a result gives its place to the memory its session distilled from it.
 * When a recall returns a raw turn (the user's "invoice totals are off by one cent sometimes") and
 * the session's consolidation made a memory of it (the bug with its cause and fix, the preference
 * stated in it), that memory is what the turn means for later sessions: it holds the turn's point
 * and what the session learned about it, where the turn alone holds only the question. So the
 * distilled memory takes the observation's place, score and signals; if the result already holds
 * it, the observation is dropped and the distilled memory keeps the better of the two places.
 *
 * <p>Which memory was distilled from which observation is read from the sources consolidation names
 * in the distilled memory ({@link SourceObservations#names}); the store has no index from an
 * observation to it, so each observation's distilled memories are looked for among the best {@value
 * #CANDIDATES} text matches of the observation's title and content, their opening {@value
 * #QUERY_CHARS} characters, in its scope (a distilled memory repeats the words of its source), and
 * kept only if it is latest, of the same source session, names the observation among its sources
 * and may be returned to this query. The memory made of a tool's run takes the run's place only if
 * it holds every word of the query that the run holds ({@link #lacking}): a run's output records
 * many values, of which consolidation may keep one (the Go version that {@code go version && head
 * go.mod} printed) and leave the rest (the module's grpc pin), and a question about the rest must
 * still find the run. A person's or an agent's turn says one thing, which the memory made of it
 * restates with what the session learned (a report and the bug's cause and fix), so it gives its
 * place whatever words the memory puts it in. Only captured observations are looked up ({@link
 * QuotedTurns#captured}): memories a host wrote itself are never consolidated, so a recall over
 * them costs nothing more. One text search and one read of its matches for each of the first
 * {@value #MAX_LOOKUPS} captured observations in the result, no more.
 *
 * <p>Stateless and thread-safe.
 */
final class DistilledInPlace {

  /**
   * How many text matches of an observation are read, looking for what was distilled from it: a
   * session runs its tests again and again, and its identical runs are the best matches of one.
   */
  static final int CANDIDATES = 10;

  /** How much of an observation's content is searched for. */
  static final int QUERY_CHARS = 200;

  /**
   * How many captured observations of one result are looked up, best first: each is a text search,
   * so a long result of raw turns in a large store costs a few searches, not one per place.
   */
  static final int MAX_LOOKUPS = 3;

  private DistilledInPlace() {}

  /**
   * What the stage did.
   *
   * @param memories the result, best first
   * @param description each replacement, "distilled ID for OBSERVATION", joined by ", " after "in
   *     place of their source: ", and each tool run kept, "OBSERVATION (distilled ID lacks WORDS)",
   *     joined the same way after "source kept: "; empty if neither
   */
  record Placed(List<RecalledMemory> memories, String description) {}

  /**
   * {@code kept}, best first, with each captured observation replaced by the memory distilled from
   * it, or dropped if that memory is in {@code kept} already.
   */
  static Placed apply(
      MemoryStore store,
      RecallQuery query,
      List<RecalledMemory> kept,
      RecordReader records,
      Exclusion exclusion) {
    if (kept.stream().noneMatch(r -> lookedUp(r.memory()))) {
      return new Placed(kept, "");
    }
    List<RecalledMemory> out = new ArrayList<>(kept.size());
    List<String> replaced = new ArrayList<>();
    List<String> sourcesKept = new ArrayList<>();
    List<String> asked = null; // the query's words, read once a tool run needs them
    Set<MemoryId> placed = new HashSet<>();
    int lookups = 0;
    for (RecalledMemory r : kept) {
      if (placed.contains(r.id())) {
        continue; // moved up to the place of the observation it was distilled from
      }
      Memory distilled = null;
      if (lookups < MAX_LOOKUPS && lookedUp(r.memory())) {
        lookups++;
        distilled = distilled(store, query, r.memory(), records, exclusion);
      }
      List<String> lacking = List.of();
      if (distilled != null && r.memory().origin().kind() == Origin.Kind.TOOL) {
        if (asked == null) {
          asked = QueryWords.terms(QueryWords.focus(List.of(query.text())));
        }
        lacking = lacking(distilled, r.memory(), asked);
      }
      if (!lacking.isEmpty()) {
        sourcesKept.add(
            r.id() + " (distilled " + distilled.id() + " lacks " + String.join(" ", lacking) + ")");
        distilled = null;
      }
      if (distilled == null) {
        out.add(r);
        placed.add(r.id());
        continue;
      }
      replaced.add("distilled " + distilled.id() + " for " + r.id());
      if (!placed.contains(distilled.id())) {
        out.add(new RecalledMemory(distilled, r.score(), r.signals()));
        placed.add(distilled.id());
      }
    }
    String description =
        replaced.isEmpty() ? "" : "in place of their source: " + String.join(", ", replaced);
    if (!sourcesKept.isEmpty()) {
      description =
          (description.isEmpty() ? "" : description + "; ")
              + "source kept: "
              + String.join(", ", sourcesKept);
    }
    return new Placed(out, description);
  }

  /**
   * The words of the query ({@code asked}: its terms as {@link QueryWords#terms} reads them) that
   * {@code observation} holds and {@code distilled} does not, in the query's order: empty when the
   * distilled memory carries everything the query found in its source, and so may stand for it.
   * Each memory is read whole, title and summary included.
   */
  static List<String> lacking(Memory distilled, Memory observation, List<String> asked) {
    if (asked.isEmpty()) {
      return List.of();
    }
    Set<String> source = terms(observation);
    Set<String> made = terms(distilled);
    List<String> out = new ArrayList<>();
    for (String t : asked) {
      if (source.contains(t) && !made.contains(t)) {
        out.add(t);
      }
    }
    return out;
  }

  private static Set<String> terms(Memory m) {
    Set<String> out = new HashSet<>();
    for (String text : List.of(m.title(), m.summary(), m.content())) {
      for (String token : SimpleTokens.tokenize(text)) {
        out.add(QueryWords.term(token));
      }
    }
    return out;
  }

  private static boolean lookedUp(Memory m) {
    return m.type() == MemoryType.OBSERVATION
        && m.sourceSession() != null
        && QuotedTurns.captured(m);
  }

  /** The latest memory distilled from {@code observation} that this query may return, or null. */
  private static Memory distilled(
      MemoryStore store,
      RecallQuery query,
      Memory observation,
      RecordReader records,
      Exclusion exclusion) {
    // the title leads: a run's title ("Ran mvn test: 12 passed") is what the workflow and the bug
    // made of it quote, where its content is the raw payload
    String content = observation.content();
    String text = observation.title().isBlank() ? content : observation.title() + "\n" + content;
    if (text.isBlank()) {
      return null;
    }
    List<MemoryId> ids = new ArrayList<>();
    for (StoreHit hit :
        store
            .searchText(
                observation.scope(),
                text.length() > QUERY_CHARS ? text.substring(0, QUERY_CHARS) : text,
                CANDIDATES)
            .hits()) {
      if (!hit.id().equals(observation.id())) {
        ids.add(hit.id());
      }
    }
    records.readIds(ids);
    for (MemoryId id : ids) {
      Memory m = records.get(id);
      if (m != null
          && m.type() != MemoryType.OBSERVATION
          && observation.sourceSession().equals(m.sourceSession())
          && ResultAssembly.returnable(query, m, exclusion)
          && SourceObservations.names(m, observation.id())) {
        return m;
      }
    }
    return null;
  }
}
