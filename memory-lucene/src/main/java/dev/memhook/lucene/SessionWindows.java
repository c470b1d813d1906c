package dev.memhook.lucene;

import static dev.memhook.lucene.IndexSchema.F_CREATED;
import static dev.memhook.lucene.IndexSchema.F_OCCURRED;
import static dev.memhook.lucene.IndexSchema.F_SESSION;

import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.SessionWindow;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.util.BytesRef;

/**
 * The memories told around given memories in their source sessions ({@link
 * dev.memhook.api.spi.MemoryStore#sessionWindows}), on one searcher.
 *
 * <h2>Design note</h2>
 *
 * The asked memories are found by their ids in each segment's term dictionary, and those that are
 * latest memories of the scope give their sessions, read from the {@link IndexSchema#F_SESSION} doc
 * values; then the same lookup of those sessions' terms ({@link LatestDocuments}) visits every
 * latest memory of them in index order, reading its id, session, {@link IndexSchema#F_OCCURRED} and
 * {@link IndexSchema#F_CREATED} from doc values, and each session's memories are sorted by time,
 * then storage time, then id. No record is read, each doc-values iterator only moves forward, and
 * the work is bounded by the sessions asked about, not by the scope. The lookups go to the postings
 * directly rather than through a query: for the few terms a recall asks about, a query's rewriting,
 * weights and cost estimates took longer than the walk itself (benchmarks/RESULTS.md, section 1).
 * Memories indexed before the session field existed are in no session until written again.
 *
 * <p>Stateless and thread-safe.
 */
final class SessionWindows {

  private SessionWindows() {}

  /**
   * The window of each of {@code ids} found in {@code scope} with a session, in the order asked.
   */
  static Map<MemoryId, SessionWindow> find(
      IndexSearcher searcher, Scope scope, Collection<MemoryId> ids, int span) throws IOException {
    Set<MemoryId> asked = new LinkedHashSet<>(ids);
    if (asked.isEmpty()) {
      return Map.of();
    }
    Map<MemoryId, String> sessions = sessionsOf(searcher, scope, asked);
    if (sessions.isEmpty()) {
      return Map.of();
    }
    Map<String, List<MemoryId>> ordered =
        inOrder(searcher, scope, new LinkedHashSet<>(sessions.values()));
    Map<MemoryId, SessionWindow> out = new LinkedHashMap<>();
    for (MemoryId id : asked) {
      String session = sessions.get(id);
      List<MemoryId> order = session == null ? null : ordered.get(session);
      if (order == null) {
        continue;
      }
      int at = order.indexOf(id);
      if (at < 0) {
        continue; // forgotten or superseded between the two queries
      }
      List<MemoryId> before = new ArrayList<>(span);
      for (int i = at - 1; i >= Math.max(0, at - span); i--) {
        before.add(order.get(i));
      }
      List<MemoryId> after =
          new ArrayList<>(order.subList(at + 1, Math.min(order.size(), at + 1 + span)));
      out.put(id, new SessionWindow(before, after));
    }
    return out;
  }

  /** The session of each of {@code ids} that is a latest memory of {@code scope} with one. */
  private static Map<MemoryId, String> sessionsOf(
      IndexSearcher searcher, Scope scope, Set<MemoryId> ids) throws IOException {
    List<BytesRef> terms = new ArrayList<>(ids.size());
    ids.forEach(id -> terms.add(new BytesRef(id.value())));
    Map<MemoryId, String> out = new HashMap<>();
    forEachDocument(
        searcher,
        scope,
        IndexSchema.F_ID,
        terms,
        (id, session, occurred, created) -> out.put(id, session));
    return out;
  }

  /**
   * The latest memories of each of {@code sessions} in {@code scope}, each session's in its order:
   * one pass for all of them.
   */
  private static Map<String, List<MemoryId>> inOrder(
      IndexSearcher searcher, Scope scope, Collection<String> sessions) throws IOException {
    List<BytesRef> terms = new ArrayList<>(sessions.size());
    sessions.forEach(s -> terms.add(new BytesRef(s)));
    Map<String, List<Placed>> placed = new HashMap<>();
    forEachDocument(
        searcher,
        scope,
        F_SESSION,
        terms,
        (id, session, occurred, created) ->
            placed
                .computeIfAbsent(session, k -> new ArrayList<>())
                .add(new Placed(id, occurred, created)));
    Map<String, List<MemoryId>> out = new HashMap<>();
    placed.forEach(
        (session, memories) -> {
          memories.sort(Placed.ORDER);
          List<MemoryId> order = new ArrayList<>(memories.size());
          memories.forEach(p -> order.add(p.id()));
          out.put(session, order);
        });
    return out;
  }

  /** What {@link #forEachDocument} hands over of each document. */
  private interface DocumentSink {
    void accept(MemoryId id, String session, long occurred, long created);
  }

  /**
   * Hands {@code sink} the id, session and times of every live document that holds one of {@code
   * terms} in {@code field}, is a latest memory of {@code scope} ({@link LatestDocuments}) and has
   * a valid id and a session, reading them from doc values (no record is read). A missing time
   * reads as 0, as the index's sort of a missing long value did.
   */
  private static void forEachDocument(
      IndexSearcher searcher, Scope scope, String field, List<BytesRef> terms, DocumentSink sink)
      throws IOException {
    LatestDocuments.find(
        searcher,
        scope,
        field,
        terms,
        (reader, docs, n) -> {
          SortedDocValues sessions = reader.getSortedDocValues(F_SESSION);
          BinaryDocValues ids = reader.getBinaryDocValues(IndexSchema.F_ID);
          if (sessions == null || ids == null) {
            return;
          }
          NumericDocValues occurred = reader.getNumericDocValues(F_OCCURRED);
          NumericDocValues created = reader.getNumericDocValues(F_CREATED);
          for (int i = 0; i < n; i++) {
            int d = docs[i];
            if (!sessions.advanceExact(d) || !ids.advanceExact(d)) {
              continue;
            }
            String id = ids.binaryValue().utf8ToString();
            if (MemoryId.isValid(id)) {
              sink.accept(
                  MemoryId.of(id),
                  sessions.lookupOrd(sessions.ordValue()).utf8ToString(),
                  valueOf(occurred, d),
                  valueOf(created, d));
            }
          }
        });
  }

  private static long valueOf(NumericDocValues values, int doc) throws IOException {
    return values != null && values.advanceExact(doc) ? values.longValue() : 0L;
  }

  /** A memory's place in its session: when it happened, when it was stored, its id. */
  private record Placed(MemoryId id, long occurred, long created) {
    static final Comparator<Placed> ORDER =
        Comparator.comparingLong(Placed::occurred)
            .thenComparingLong(Placed::created)
            .thenComparing(Placed::id);
  }
}
