package dev.memhook.lucene;

import static dev.memhook.lucene.IndexSchema.F_CREATED;
import static dev.memhook.lucene.IndexSchema.F_IMPORTANCE;
import static dev.memhook.lucene.IndexSchema.F_TYPE;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.TypeListing;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.FieldExistsQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TermQuery;

/**
 * The latest memories of a scope listed by type ({@link
 * dev.memhook.api.spi.MemoryStore#listByType}), on one searcher.
 *
 * <h2>Design note</h2>
 *
 * Each type is one query, the scope's {@link IndexSchema#F_LIVE} term and the type's {@link
 * IndexSchema#F_TYPE} term, both filters: Lucene intersects their postings, so a scope of many
 * observations costs the listing nothing but the skips over them. The query's count is the type's
 * total, and its best hits come sorted by the doc values {@link IndexSchema#F_IMPORTANCE} and
 * {@link IndexSchema#F_CREATED}, so only the records listed are read. Types are queried in the
 * order asked until the limit is reached; the rest are only counted.
 *
 * <p>Memories indexed before the index held these fields (the format did not change: the fields
 * were added beside the others) have none of them. They are found as the scope's latest documents
 * without {@code created} doc values, read by their records, filtered by type and merged into each
 * type's list. That costs a read of every such record per listing, as listing did before, until
 * they are written again (updated, or exported and imported into a new store); a store written by
 * this version has none.
 *
 * <p>Stateless and thread-safe.
 */
final class ListByType {

  private static final Sort IMPORTANT_THEN_NEWEST =
      new Sort(
          new SortField(F_IMPORTANCE, SortField.Type.DOUBLE, true),
          new SortField(F_CREATED, SortField.Type.LONG, true));

  private ListByType() {}

  /**
   * The first {@code limit} latest memories of {@code scope} of {@code types}, in the listing's
   * order, and how many there are. Unreadable records are reported to {@code reader}'s count and
   * left out.
   *
   * @param types checked by {@link TypeListing#checkTypes}
   */
  static TypeListing list(
      IndexSearcher searcher, HitReader reader, Scope scope, List<MemoryType> types, int limit)
      throws IOException {
    Comparator<Memory> order = TypeListing.order(types);
    Map<MemoryType, List<Memory>> unkeyed = unkeyed(searcher, reader, scope, types);
    List<Memory> out = new ArrayList<>();
    long total = 0;
    for (MemoryType type : types) {
      Query ofType =
          new BooleanQuery.Builder()
              .add(ScopedSearch.inScope(scope), Occur.FILTER)
              .add(new TermQuery(new Term(F_TYPE, type.name())), Occur.FILTER)
              .build();
      int keyed = searcher.count(ofType);
      List<Memory> listed = new ArrayList<>(unkeyed.getOrDefault(type, List.of()));
      total += keyed + listed.size();
      int room = limit - out.size();
      if (room <= 0) {
        continue;
      }
      if (keyed > 0) {
        StoredFields stored = searcher.storedFields();
        for (ScoreDoc hit :
            searcher.search(ofType, Math.min(room, keyed), IMPORTANT_THEN_NEWEST).scoreDocs) {
          Memory m = reader.readable(searcher, stored, hit.doc);
          if (m != null) {
            listed.add(m);
          }
        }
      }
      // the index's sort leaves ties to document order; the records' comparator settles them
      listed.sort(order);
      out.addAll(listed.subList(0, Math.min(room, listed.size())));
    }
    return new TypeListing(out, total);
  }

  /**
   * The readable latest memories of {@code scope} of {@code types} indexed without the listing's
   * fields, by type; empty, after one count, when there are none.
   */
  private static Map<MemoryType, List<Memory>> unkeyed(
      IndexSearcher searcher, HitReader reader, Scope scope, List<MemoryType> types)
      throws IOException {
    Query old =
        new BooleanQuery.Builder()
            .add(ScopedSearch.inScope(scope), Occur.FILTER)
            .add(new FieldExistsQuery(F_CREATED), Occur.MUST_NOT)
            .build();
    int n = searcher.count(old);
    Map<MemoryType, List<Memory>> byType = new EnumMap<>(MemoryType.class);
    if (n == 0) {
      return byType;
    }
    StoredFields stored = searcher.storedFields();
    for (ScoreDoc hit : searcher.search(old, n).scoreDocs) {
      Memory m = reader.readable(searcher, stored, hit.doc);
      if (m != null && types.contains(m.type())) {
        byType.computeIfAbsent(m.type(), t -> new ArrayList<>()).add(m);
      }
    }
    return byType;
  }
}
