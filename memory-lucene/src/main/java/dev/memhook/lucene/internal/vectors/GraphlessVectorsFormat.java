package dev.memhook.lucene.internal.vectors;

import java.io.IOException;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.KnnVectorsReader;
import org.apache.lucene.codecs.KnnVectorsWriter;
import org.apache.lucene.codecs.hnsw.FlatVectorScorerUtil;
import org.apache.lucene.codecs.hnsw.FlatVectorsReader;
import org.apache.lucene.codecs.lucene99.Lucene99FlatVectorsFormat;
import org.apache.lucene.index.ByteVectorValues;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.index.SegmentWriteState;
import org.apache.lucene.search.AcceptDocs;
import org.apache.lucene.search.KnnCollector;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.hnsw.RandomVectorScorer;

/**
 * The vectors of a segment written without a search graph: Lucene's flat vector files, searched by
 * comparing the query with every vector the search accepts. The Lucene store writes the segments of
 * a bulk load this way, so that the load does not build a graph vector by vector (and rebuild it at
 * every merge), and builds the graph once, when it merges those segments while idle.
 *
 * <p>A search of a graphless segment is exact, so its results are those of an exhaustive search; it
 * costs one comparison per vector the filter accepts, which for a large segment is more than a
 * graph walk: such segments are meant to be short-lived.
 *
 * <p>Public only because Lucene finds the vector formats a segment names through {@link
 * java.util.ServiceLoader} ({@code META-INF/services} and the module's {@code provides}); this
 * package is not exported and is not API. Immutable and thread-safe, as Lucene requires of a
 * format.
 */
public final class GraphlessVectorsFormat extends KnnVectorsFormat {

  /** The name segments record for vectors written by this format. */
  public static final String NAME = "MemhookGraphlessVectors";

  private final Lucene99FlatVectorsFormat flat =
      new Lucene99FlatVectorsFormat(FlatVectorScorerUtil.getLucene99FlatVectorsScorer());

  /** As {@link java.util.ServiceLoader} requires. */
  public GraphlessVectorsFormat() {
    super(NAME);
  }

  @Override
  public KnnVectorsWriter fieldsWriter(SegmentWriteState state) throws IOException {
    return flat.fieldsWriter(state);
  }

  @Override
  public KnnVectorsReader fieldsReader(SegmentReadState state) throws IOException {
    return new ExactReader(flat.fieldsReader(state));
  }

  @Override
  public int getMaxDimensions(String fieldName) {
    return flat.getMaxDimensions(fieldName);
  }

  @Override
  public String toString() {
    return NAME + "(" + flat + ")";
  }

  /** Lucene's flat reader, with a search that compares the query with every accepted vector. */
  private static final class ExactReader extends KnnVectorsReader {
    private final FlatVectorsReader flat;

    ExactReader(FlatVectorsReader flat) {
      this.flat = flat;
    }

    @Override
    public void checkIntegrity() throws IOException {
      flat.checkIntegrity();
    }

    @Override
    public FloatVectorValues getFloatVectorValues(String field) throws IOException {
      return flat.getFloatVectorValues(field);
    }

    @Override
    public ByteVectorValues getByteVectorValues(String field) throws IOException {
      return flat.getByteVectorValues(field);
    }

    @Override
    public void search(String field, float[] target, KnnCollector collector, AcceptDocs acceptDocs)
        throws IOException {
      collect(flat.getRandomVectorScorer(field, target), collector, acceptDocs.bits());
    }

    @Override
    public void search(String field, byte[] target, KnnCollector collector, AcceptDocs acceptDocs)
        throws IOException {
      collect(flat.getRandomVectorScorer(field, target), collector, acceptDocs.bits());
    }

    /**
     * Offers every accepted vector to {@code collector}; stops early only if the collector says so
     * (its visit limit reached), and Lucene then searches the segment exactly itself.
     */
    private static void collect(RandomVectorScorer scorer, KnnCollector collector, Bits acceptDocs)
        throws IOException {
      if (scorer == null) {
        return;
      }
      Bits accepted = scorer.getAcceptOrds(acceptDocs);
      for (int ord = 0; ord < scorer.maxOrd(); ord++) {
        if (accepted != null && !accepted.get(ord)) {
          continue;
        }
        if (collector.earlyTerminated()) {
          return;
        }
        collector.incVisitedCount(1);
        collector.collect(scorer.ordToDoc(ord), scorer.score(ord));
      }
    }

    @Override
    public KnnVectorsReader getMergeInstance() {
      return this;
    }

    @Override
    public void close() throws IOException {
      flat.close();
    }
  }
}
