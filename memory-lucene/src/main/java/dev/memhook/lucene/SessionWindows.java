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
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.FieldDoc;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;

/**
 * The memories told around given memories in their source sessions ({@link
 * dev.memhook.api.spi.MemoryStore#sessionWindows}), on one searcher.
 *
 * <h2>Design note</h2>
 *
 * One query finds the asked memories among the scope's latest and reads their sessions from the
 * {@link IndexSchema#F_SESSION} doc values; then each distinct session is one query, its term and
 * the scope's {@link IndexSchema#F_LIVE} term as filters, sorted in the index by the doc values
 * {@link IndexSchema#F_OCCURRED} and {@link IndexSchema#F_CREATED} (and by id for equal times), so
 * no record is read and the work is bounded by the sessions asked about, not by the scope. Memories
 * indexed before the session field existed are in no session until written again.
 *
 * <p>Stateless and thread-safe.
 */
final class SessionWindows {

  private static final Sort SESSION_ORDER =
      new Sort(
          new SortField(F_OCCURRED, SortField.Type.LONG),
          new SortField(F_CREATED, SortField.Type.LONG));

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
    Map<String, List<MemoryId>> ordered = new HashMap<>();
    Map<MemoryId, SessionWindow> out = new LinkedHashMap<>();
    for (MemoryId id : asked) {
      String session = sessions.get(id);
      if (session == null) {
        continue;
      }
      List<MemoryId> order = ordered.get(session);
      if (order == null) {
        order = inOrder(searcher, scope, session);
        ordered.put(session, order);
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
    Query q =
        new BooleanQuery.Builder()
            .add(ScopedSearch.inScope(scope), Occur.FILTER)
            .add(IndexSchema.idsQuery(ids), Occur.FILTER)
            .build();
    ScoreDoc[] hits = searcher.search(q, ids.size()).scoreDocs;
    String[] found = HitReader.ids(searcher, hits, hits.length);
    List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
    Map<MemoryId, String> out = new HashMap<>();
    for (int i = 0; i < hits.length; i++) {
      LeafReaderContext leaf = leaves.get(ReaderUtil.subIndex(hits[i].doc, leaves));
      // a fresh iterator per hit: doc-values iterators only go forward, and hits come by score
      SortedDocValues values = leaf.reader().getSortedDocValues(F_SESSION);
      if (values != null
          && values.advanceExact(hits[i].doc - leaf.docBase)
          && MemoryId.isValid(found[i])) {
        out.put(MemoryId.of(found[i]), values.lookupOrd(values.ordValue()).utf8ToString());
      }
    }
    return out;
  }

  /** The latest memories of {@code session} in {@code scope}, in the session's order. */
  private static List<MemoryId> inOrder(IndexSearcher searcher, Scope scope, String session)
      throws IOException {
    Query q =
        new BooleanQuery.Builder()
            .add(ScopedSearch.inScope(scope), Occur.FILTER)
            .add(new TermQuery(new Term(F_SESSION, session)), Occur.FILTER)
            .build();
    int n = searcher.count(q);
    if (n == 0) {
      return List.of();
    }
    TopDocs top = searcher.search(q, n, SESSION_ORDER);
    String[] found = HitReader.ids(searcher, top.scoreDocs, top.scoreDocs.length);
    // Lucene breaks ties of the sort by document number; the contract breaks them by id
    List<Placed> placed = new ArrayList<>(found.length);
    for (int i = 0; i < found.length; i++) {
      if (MemoryId.isValid(found[i])) {
        Object[] keys = ((FieldDoc) top.scoreDocs[i]).fields;
        placed.add(new Placed(MemoryId.of(found[i]), (Long) keys[0], (Long) keys[1]));
      }
    }
    placed.sort(Placed.ORDER);
    List<MemoryId> out = new ArrayList<>(placed.size());
    placed.forEach(p -> out.add(p.id()));
    return out;
  }

  /** A memory's place in its session: when it happened, when it was stored, its id. */
  private record Placed(MemoryId id, long occurred, long created) {
    static final Comparator<Placed> ORDER =
        Comparator.comparingLong(Placed::occurred)
            .thenComparingLong(Placed::created)
            .thenComparing(Placed::id);
  }
}
