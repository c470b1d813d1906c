package dev.memhook.lucene;

import static dev.memhook.lucene.IndexSchema.F_KIND;
import static dev.memhook.lucene.IndexSchema.KIND_MEMORY;

import dev.memhook.api.ExportResult;
import dev.memhook.api.Memory;
import dev.memhook.api.spi.Embedding;
import java.io.IOException;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.KnnVectorValues;
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
    return run(searcher, reader, 0, (m, v) -> sink.accept(m));
  }

  /**
   * Hands every readable memory {@code searcher} sees to {@code sink} with its unit vector (a zero
   * vector of {@code dimension} for a memory stored without one), read from its segment's vector
   * values as the documents go by; with {@code dimension} 0 no vector is read and {@code sink} gets
   * an empty one.
   */
  static ExportResult run(
      IndexSearcher searcher,
      HitReader reader,
      int dimension,
      BiConsumer<? super Memory, ? super Optional<Embedding>> sink)
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
      FloatVectorValues vectors =
          dimension > 0 ? leaf.reader().getFloatVectorValues(IndexSchema.F_VECTOR) : null;
      // one iterator per segment: a sparse segment's values hand out the same one every time
      KnnVectorValues.DocIndexIterator withVectors = vectors == null ? null : vectors.iterator();
      DocIdSetIterator docs = scorer.iterator();
      for (int d = docs.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = docs.nextDoc()) {
        if (live != null && !live.get(d)) {
          continue;
        }
        Memory m = reader.readable(searcher, stored, leaf.docBase + d);
        if (m == null) {
          unreadable++;
        } else {
          sink.accept(
              m,
              dimension > 0
                  ? Optional.of(vector(vectors, withVectors, d, dimension))
                  : Optional.empty());
          exported++;
        }
      }
    }
    return new ExportResult(exported, unreadable);
  }

  /** The vector of {@code doc}, or zeros if it has none; documents come in increasing order. */
  private static Embedding vector(
      FloatVectorValues vectors, KnnVectorValues.DocIndexIterator it, int doc, int dimension)
      throws IOException {
    if (vectors != null) {
      int at = it.docID() < doc ? it.advance(doc) : it.docID();
      if (at == doc) {
        return Embedding.of(vectors.vectorValue(it.index()));
      }
    }
    return Embedding.of(new float[dimension]);
  }
}
