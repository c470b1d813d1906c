package dev.memhook.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene912.Lucene912Codec;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link GraphMergeWorkers}: who builds a merged segment's vector graph. */
class GraphMergeWorkersTest {
  private static final int DIM = 16;
  private static final int PER_SEGMENT = 600;

  @ParameterizedTest(name = "quantized {0}")
  @ValueSource(booleans = {false, true})
  void twoWorkers_buildAMergedGraphWithAHelperThread_thatFindsEveryVector(boolean quantized)
      throws Exception {
    try (GraphMergeWorkers workers = new GraphMergeWorkers(2);
        Directory dir = new ByteBuffersDirectory()) {
      float[][] vectors = writeTwoSegmentsAndMerge(dir, workers.format(16, 100, quantized));

      assertTrue(workers.threadsStarted() >= 1, "no helper thread built the merged graph");
      assertEachVectorFindsItself(dir, vectors);
    }
  }

  @Test
  void oneWorker_startsNoThread() throws Exception {
    try (GraphMergeWorkers workers = new GraphMergeWorkers(1);
        Directory dir = new ByteBuffersDirectory()) {
      float[][] vectors = writeTwoSegmentsAndMerge(dir, workers.format(16, 100, false));

      assertEquals(0, workers.threadsStarted());
      assertEachVectorFindsItself(dir, vectors);
    }
  }

  @Test
  void aMergeAfterClose_isBuiltByTheMergeThreadAlone() throws Exception {
    GraphMergeWorkers workers = new GraphMergeWorkers(3);
    workers.close();
    try (Directory dir = new ByteBuffersDirectory()) {
      float[][] vectors = writeTwoSegmentsAndMerge(dir, workers.format(16, 100, false));

      assertEquals(0, workers.threadsStarted());
      assertEachVectorFindsItself(dir, vectors);
    }
  }

  @Test
  void lessThanOneWorker_isRejected() {
    assertThrows(IllegalArgumentException.class, () -> new GraphMergeWorkers(0));
  }

  /** Two flushed segments of random unit vectors merged into one; the vectors written. */
  private static float[][] writeTwoSegmentsAndMerge(Directory dir, KnnVectorsFormat format)
      throws Exception {
    Random random = new Random(7);
    float[][] vectors = new float[2 * PER_SEGMENT][];
    IndexWriterConfig config =
        new IndexWriterConfig()
            .setCodec(
                new Lucene912Codec() {
                  @Override
                  public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
                    return format;
                  }
                });
    try (IndexWriter writer = new IndexWriter(dir, config)) {
      for (int i = 0; i < vectors.length; i++) {
        vectors[i] = unit(random);
        Document doc = new Document();
        doc.add(new KnnFloatVectorField("v", vectors[i], VectorSimilarityFunction.DOT_PRODUCT));
        doc.add(new StoredField("i", i));
        writer.addDocument(doc);
        if (i == PER_SEGMENT - 1) {
          writer.flush();
        }
      }
      writer.forceMerge(1);
    }
    return vectors;
  }

  private static void assertEachVectorFindsItself(Directory dir, float[][] vectors)
      throws Exception {
    try (DirectoryReader reader = DirectoryReader.open(dir)) {
      assertEquals(1, reader.leaves().size());
      IndexSearcher searcher = new IndexSearcher(reader);
      int found = 0;
      for (int i = 0; i < vectors.length; i += 10) {
        TopDocs top = searcher.search(new KnnFloatVectorQuery("v", vectors[i], 10), 1);
        if (top.scoreDocs.length == 1) {
          int doc = top.scoreDocs[0].doc;
          found +=
              searcher.storedFields().document(doc).getField("i").numericValue().intValue() == i
                  ? 1
                  : 0;
        }
      }
      int asked = (vectors.length + 9) / 10;
      // a graph search is approximate; a graph built wrong finds few of its own vectors first
      assertTrue(found >= asked * 0.95, found + " of " + asked + " vectors found themselves");
    }
  }

  private static float[] unit(Random random) {
    float[] v = new float[DIM];
    double norm = 0;
    for (int d = 0; d < DIM; d++) {
      v[d] = (float) random.nextGaussian();
      norm += v[d] * v[d];
    }
    for (int d = 0; d < DIM; d++) {
      v[d] /= (float) Math.sqrt(norm);
    }
    return v;
  }
}
