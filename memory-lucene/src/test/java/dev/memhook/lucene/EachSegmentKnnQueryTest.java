package dev.memhook.lucene;

import static dev.memhook.lucene.IndexSchema.F_LIVE;
import static dev.memhook.lucene.IndexSchema.F_VECTOR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Scope;
import dev.memhook.testkit.Seeds;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.junit.jupiter.api.Test;

/**
 * The vector search of an index of several segments searches each segment as if it were the index
 * ({@link ScopedSearch.EachSegmentKnnQuery}): its hits are exactly the best of what a search of
 * each segment alone finds. Lucene's own query lets a segment's search stop early against the
 * candidates of the segments searched before it, and then finds fewer of the true nearest
 * neighbours; this test fails with it (and the recall check shows by how much, on this data).
 */
class EachSegmentKnnQueryTest {

  private static final int SEGMENTS = 5;
  private static final int PER_SEGMENT = 2_000;
  private static final int DIM = 96;
  private static final int TOPICS = 60;
  private static final int QUERIES = 60;
  private static final int K = 10;
  private static final int CANDIDATES = 10;
  private static final Scope SCOPE = Scope.of("knn", "segments");

  @Test
  void severalSegments_areEachSearchedAsIfTheyWereTheIndex() throws IOException {
    long seed = Seeds.seed();
    Random random = new Random(seed);
    List<float[]> centres = new ArrayList<>();
    for (int t = 0; t < TOPICS; t++) {
      centres.add(unit(gaussian(random, 1.0)));
    }
    List<float[]> vectors = new ArrayList<>();
    try (Directory dir = new ByteBuffersDirectory()) {
      try (IndexWriter writer =
          new IndexWriter(dir, new IndexWriterConfig().setMergePolicy(NoMergePolicy.INSTANCE))) {
        for (int s = 0; s < SEGMENTS; s++) {
          for (int i = 0; i < PER_SEGMENT; i++) {
            float[] v = near(centres.get(random.nextInt(TOPICS)), random);
            vectors.add(v);
            Document doc = new Document();
            doc.add(new StringField(F_LIVE, SCOPE.value(), Field.Store.NO));
            doc.add(new StringField("n", Integer.toString(vectors.size() - 1), Field.Store.YES));
            doc.add(new KnnFloatVectorField(F_VECTOR, v, IndexSchema.VECTOR_SIMILARITY));
            writer.addDocument(doc);
          }
          writer.commit(); // one segment per round: no merge policy joins them
        }
      }
      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        assertEquals(SEGMENTS, reader.leaves().size());
        IndexSearcher searcher = new IndexSearcher(reader);
        int found = 0;
        for (int q = 0; q < QUERIES; q++) {
          float[] query = near(centres.get(random.nextInt(TOPICS)), random);
          TopDocs got = ScopedSearch.nearest(searcher, query, SCOPE, K, CANDIDATES);
          assertEquals(
              eachSegmentAlone(reader, query),
              hits(got),
              "question " + q + ", " + Seeds.replay(seed));
          found += truePositives(searcher, got, exact(vectors, query));
        }
        double recall = found / (double) (QUERIES * K);
        assertTrue(recall >= 0.9, "recall@10 " + recall + ", " + Seeds.replay(seed));
      }
    }
  }

  /**
   * The best {@link #K} of the best {@link #CANDIDATES} over every segment, each segment searched
   * on its own by Lucene's query (which, on an index of one segment, has nothing to share).
   */
  private static List<String> eachSegmentAlone(DirectoryReader reader, float[] query)
      throws IOException {
    List<ScoreDoc> all = new ArrayList<>();
    for (LeafReaderContext leaf : reader.leaves()) {
      IndexSearcher alone = new IndexSearcher(leaf.reader());
      TopDocs top =
          alone.search(
              new KnnFloatVectorQuery(F_VECTOR, query, CANDIDATES, ScopedSearch.inScope(SCOPE)),
              CANDIDATES);
      for (ScoreDoc sd : top.scoreDocs) {
        all.add(new ScoreDoc(leaf.docBase + sd.doc, sd.score));
      }
    }
    all.sort(Comparator.<ScoreDoc>comparingDouble(sd -> -sd.score).thenComparingInt(sd -> sd.doc));
    List<ScoreDoc> best = all.subList(0, Math.min(K, Math.min(CANDIDATES, all.size())));
    return hits(new TopDocs(null, best.toArray(ScoreDoc[]::new)));
  }

  private static List<String> hits(TopDocs top) {
    List<String> out = new ArrayList<>();
    for (ScoreDoc sd : top.scoreDocs) {
      out.add(sd.doc + "@" + sd.score);
    }
    return out;
  }

  private static int truePositives(IndexSearcher searcher, TopDocs top, Set<Integer> truth)
      throws IOException {
    int n = 0;
    for (ScoreDoc sd : top.scoreDocs) {
      if (truth.contains(Integer.parseInt(searcher.storedFields().document(sd.doc).get("n")))) {
        n++;
      }
    }
    return n;
  }

  private static Set<Integer> exact(List<float[]> vectors, float[] query) {
    Integer[] order = new Integer[vectors.size()];
    double[] score = new double[vectors.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
      score[i] = dot(vectors.get(i), query);
    }
    java.util.Arrays.sort(order, (a, b) -> Double.compare(score[b], score[a]));
    Set<Integer> top = new HashSet<>();
    for (int i = 0; i < K; i++) {
      top.add(order[i]);
    }
    return top;
  }

  /** A unit vector near {@code centre}: the centre plus as much isotropic noise, normalised. */
  private static float[] near(float[] centre, Random random) {
    float[] noise = unit(gaussian(random, 1.0));
    float[] v = new float[DIM];
    for (int i = 0; i < DIM; i++) {
      v[i] = centre[i] + 0.9f * noise[i];
    }
    return unit(v);
  }

  private static float[] gaussian(Random random, double sd) {
    float[] v = new float[DIM];
    for (int i = 0; i < DIM; i++) {
      v[i] = (float) (random.nextGaussian() * sd);
    }
    return v;
  }

  private static float[] unit(float[] v) {
    double norm = Math.sqrt(dot(v, v));
    float[] u = new float[v.length];
    for (int i = 0; i < v.length; i++) {
      u[i] = (float) (v[i] / norm);
    }
    return u;
  }

  private static double dot(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * b[i];
    }
    return s;
  }
}
