package dev.memhook.api.spi;

import java.util.List;
import java.util.Objects;

/**
 * What one text search found: the hits, best first, and the query's score ceiling in the store that
 * ran it.
 *
 * <p>The ceiling is an upper bound on the raw text score any memory of the scope could get for this
 * query in this store, so {@code hit.score() / ceiling} is a share in {@code [0, 1]} that means the
 * same for every query. The relevance gate compares that share with its text floors, so what a
 * query term counts in the ceiling must not depend on whether other scopes, older versions or not
 * yet merged deletions hold it; otherwise one scope's writes would move another scope's gate. A
 * term no memory of the scope holds is counted by a rule of the store's that looks at the scope
 * alone: the Lucene store counts such a content term as the rarest a term can be (a word of the
 * question the scope lacks is evidence that the scope cannot answer it) and leaves out such
 * exact-form terms. Store-wide statistics that the scores themselves use (document counts for idf)
 * may enter it as they enter the scores. It comes with the hits because it depends on the same
 * analysed query and the same index statistics: asking for it separately would analyse the query
 * twice or make the store remember the last one. How a store computes it is its own (for BM25, see
 * the store's documentation). A search without hits has nothing to normalise, so its ceiling is 0;
 * a search with hits has a positive one.
 *
 * <p>An immutable value; the list is copied. Null components are rejected.
 *
 * @param hits at most the {@code k} asked for, best first, each in the searched scope
 * @param ceiling a finite bound, at least every hit's score; positive when there are hits, 0 when
 *     {@code hits} is empty
 */
public record TextHits(List<StoreHit> hits, double ceiling) {

  private static final TextHits NONE = new TextHits(List.of(), 0);

  /** Validates and copies. */
  public TextHits {
    hits = List.copyOf(Objects.requireNonNull(hits, "hits"));
    if (!Double.isFinite(ceiling) || ceiling < 0) {
      throw new IllegalArgumentException("ceiling must be finite and >= 0, got " + ceiling);
    }
    if ((ceiling == 0) != hits.isEmpty()) {
      throw new IllegalArgumentException(
          hits.isEmpty()
              ? "a search without hits has ceiling 0, got " + ceiling
              : "a search with hits must have a positive ceiling");
    }
  }

  /** No hits and ceiling 0: what a query that analyses to nothing, or matches nothing, returns. */
  public static TextHits none() {
    return NONE;
  }

  /** Whether nothing was found. */
  public boolean isEmpty() {
    return hits.isEmpty();
  }
}
