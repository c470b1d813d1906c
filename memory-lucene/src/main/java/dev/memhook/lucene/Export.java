package dev.memhook.lucene;

import static dev.memhook.lucene.IndexSchema.F_KIND;
import static dev.memhook.lucene.IndexSchema.KIND_MEMORY;

import dev.memhook.api.ExportResult;
import dev.memhook.api.Memory;
import java.io.IOException;
import java.util.function.Consumer;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.Bits;

/**
 * Every readable memory of an index, handed to a sink: the memory documents of every segment, in
 * index order, each record decoded on its own, so that a damaged record is skipped and counted
 * ({@link HitReader#readable}) and the rest still go out. Used to rescue what a damaged index holds
 * (open it read-only, export, rebuild).
 *
 * <p>Stateless; runs on the searcher it is given.
 */
final class Export {
  private Export() {}

  /**
   * Hands every readable memory {@code searcher} sees to {@code sink}; an exception of the sink
   * stops the export and propagates.
   */
  static ExportResult run(IndexSearcher searcher, HitReader reader, Consumer<? super Memory> sink)
      throws IOException {
    TermQuery memories = new TermQuery(new Term(F_KIND, KIND_MEMORY));
    Weight weight = searcher.createWeight(memories, ScoreMode.COMPLETE_NO_SCORES, 1f);
    StoredFields stored = searcher.storedFields();
    long exported = 0;
    long unreadable = 0;
    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      Scorer scorer = weight.scorer(leaf);
      if (scorer == null) {
        continue;
      }
      Bits live = leaf.reader().getLiveDocs(); // a scorer does not skip deleted documents
      DocIdSetIterator docs = scorer.iterator();
      for (int d = docs.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = docs.nextDoc()) {
        if (live != null && !live.get(d)) {
          continue;
        }
        Memory m = reader.readable(searcher, stored, leaf.docBase + d);
        if (m == null) {
          unreadable++;
        } else {
          sink.accept(m);
          exported++;
        }
      }
    }
    return new ExportResult(exported, unreadable);
  }
}
