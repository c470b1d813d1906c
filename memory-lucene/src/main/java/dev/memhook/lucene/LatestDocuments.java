package dev.memhook.lucene;

import static dev.memhook.lucene.IndexSchema.F_LIVE;

import dev.memhook.api.Scope;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;

/**
 * The latest memories of a scope that hold one of a few terms of a keyword field, segment by
 * segment: how {@link SessionWindows} finds the asked ids and their sessions, and {@link
 * PassageVectors} the asked ids.
 *
 * <h2>Design note</h2>
 *
 * The terms are looked up in each segment's term dictionary and their postings read directly,
 * rather than through a query: for the few terms a recall asks about, a query's rewriting, weights
 * and cost estimates took longer than the walk itself (benchmarks/RESULTS.md, section 1). A
 * document found is kept if it is not deleted and its {@link IndexSchema#F_LIVE} doc value is the
 * scope, as {@link ScopedSearch#inScope} indexes it: superseded versions and audit documents have
 * none. The work is bounded by the terms' postings, not by the scope; each segment's documents are
 * handed over in increasing order, so that the caller's doc-values iterators only move forward.
 *
 * <p>Stateless and thread-safe.
 */
final class LatestDocuments {

  private LatestDocuments() {}

  /** What a lookup hands over of one segment. */
  @FunctionalInterface
  interface SegmentSink {
    /**
     * Takes the documents of {@code reader} found: {@code docs[0]} to {@code docs[n - 1]}, in
     * increasing order, each once, {@code n} at least 1.
     */
    void accept(LeafReader reader, int[] docs, int n) throws IOException;
  }

  /**
   * Hands {@code sink}, segment by segment, every document of {@code searcher} that holds one of
   * {@code terms} in {@code field}, is not deleted and is a latest memory of {@code scope}.
   */
  static void find(
      IndexSearcher searcher, Scope scope, String field, List<BytesRef> terms, SegmentSink sink)
      throws IOException {
    if (terms.isEmpty()) {
      return;
    }
    BytesRef scopeValue = new BytesRef(scope.value());
    PostingsEnum postings = null;
    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      LeafReader reader = leaf.reader();
      Terms indexed = reader.terms(field);
      SortedDocValues live = reader.getSortedDocValues(F_LIVE);
      if (indexed == null || live == null) {
        continue;
      }
      int scopeOrd = live.lookupTerm(scopeValue);
      if (scopeOrd < 0) {
        continue; // no latest memory of the scope in this segment
      }
      TermsEnum te = indexed.iterator();
      Bits liveDocs = reader.getLiveDocs();
      int[] docs = new int[8];
      int n = 0;
      for (BytesRef term : terms) {
        if (!te.seekExact(term)) {
          continue;
        }
        postings = te.postings(postings, PostingsEnum.NONE);
        for (int d = postings.nextDoc();
            d != DocIdSetIterator.NO_MORE_DOCS;
            d = postings.nextDoc()) {
          if (liveDocs == null || liveDocs.get(d)) {
            if (n == docs.length) {
              docs = Arrays.copyOf(docs, 2 * n);
            }
            docs[n++] = d;
          }
        }
      }
      if (n == 0) {
        continue;
      }
      Arrays.sort(docs, 0, n);
      int kept = 0;
      int previous = -1;
      for (int i = 0; i < n; i++) {
        int d = docs[i];
        if (d == previous) {
          continue; // a document found under two of the terms
        }
        previous = d;
        if (live.advanceExact(d) && live.ordValue() == scopeOrd) {
          docs[kept++] = d;
        }
      }
      if (kept > 0) {
        sink.accept(reader, docs, kept);
      }
    }
  }
}
