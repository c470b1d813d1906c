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
import java.util.function.IntFunction;
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
 * The vector search of an index of several segments walks each segment's graph on its own, for its
 * share of the candidates ({@link EachSegmentKnn}): it finds about as many of the true nearest
 * neighbours as walking every segment for all of them, a segment that holds more of the best than
 * its share is walked again for all of them, and walks lent to helper threads ({@link
 * SegmentWalkers}) find exactly what the searching thread finds alone.
 */
class EachSegmentKnnTest {

  private static final int SEGMENTS = 5;
  private static final int PER_SEGMENT = 2_000;
  private static final int DIM = 96;
  private static final int TOPICS = 60;
  private static final int QUERIES = 60;
  private static final int K = 10;
  private static final int CANDIDATES = 50;
  private static final Scope SCOPE = Scope.of("knn", "segments");

  @Test
  void severalSegments_findAboutAsManyTrueNeighboursAsEachSegmentWalkedForAll() throws IOException {
    long seed = Seeds.seed();
    Random random = new Random(seed);
    List<float[]> centres = centres(random);
    List<float[]> vectors = new ArrayList<>();
    try (Directory dir = new ByteBuffersDirectory()) {
      write(dir, vectors, segment -> near(centres.get(random.nextInt(TOPICS)), random));
      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        assertEquals(SEGMENTS, reader.leaves().size());
        IndexSearcher searcher = new IndexSearcher(reader);
        int found = 0;
        int foundWalkingAll = 0;
        for (int q = 0; q < QUERIES; q++) {
          float[] query = near(centres.get(random.nextInt(TOPICS)), random);
          Set<Integer> truth = exact(vectors, query);
          found +=
              truePositives(
                  searcher,
                  hits(ScopedSearch.nearest(searcher, query, SCOPE, K, CANDIDATES, null)),
                  truth);
          foundWalkingAll += truePositives(searcher, eachSegmentAlone(reader, query), truth);
        }
        double recall = found / (double) (QUERIES * K);
        double recallWalkingAll = foundWalkingAll / (double) (QUERIES * K);
        assertTrue(
            recall >= 0.95 && recall >= recallWalkingAll - 0.02,
            "recall@10 "
                + recall
                + " against "
                + recallWalkingAll
                + " walking every segment for all, "
                + Seeds.replay(seed));
      }
    }
  }

  @Test
  void aSegmentHoldingTheNearestNeighbours_isWalkedAgainForAllOfThem() throws IOException {
    long seed = Seeds.seed();
    Random random = new Random(seed);
    List<float[]> centres = centres(random);
    float[] recent = centres.get(0); // a topic told only lately: all of it in the last segment
    List<float[]> vectors = new ArrayList<>();
    try (Directory dir = new ByteBuffersDirectory()) {
      write(
          dir,
          vectors,
          segment ->
              segment == SEGMENTS - 1 && random.nextInt(4) == 0
                  ? near(recent, random)
                  : near(centres.get(1 + random.nextInt(TOPICS - 1)), random));
      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        IndexSearcher searcher = new IndexSearcher(reader);
        LeafReaderContext last = reader.leaves().get(SEGMENTS - 1);
        for (int q = 0; q < QUERIES / 4; q++) {
          float[] query = near(recent, random);
          List<ScoreDoc> got =
              hits(ScopedSearch.nearest(searcher, query, SCOPE, CANDIDATES, CANDIDATES, null));
          assertEquals(CANDIDATES, got.size());
          assertTrue(
              got.stream().allMatch(sd -> sd.doc >= last.docBase),
              "question "
                  + q
                  + ": the nearest all told in the last segment, "
                  + Seeds.replay(seed));
          assertEquals(
              text(eachSegmentAlone(reader, query).subList(0, CANDIDATES)),
              text(got),
              "question "
                  + q
                  + ": that segment walked for all of the candidates, "
                  + Seeds.replay(seed));
        }
      }
    }
  }

  @Test
  void walksLentToHelperThreads_findExactlyWhatTheSearchingThreadFindsAlone() throws IOException {
    long seed = Seeds.seed();
    Random random = new Random(seed);
    List<float[]> centres = centres(random);
    List<float[]> vectors = new ArrayList<>();
    try (Directory dir = new ByteBuffersDirectory()) {
      write(dir, vectors, segment -> near(centres.get(random.nextInt(TOPICS)), random));
      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        IndexSearcher searcher = new IndexSearcher(reader);
        SegmentWalkers walkers = new SegmentWalkers(2);
        try {
          for (int q = 0; q < QUERIES / 4; q++) {
            float[] query = near(centres.get(random.nextInt(TOPICS)), random);
            List<String> alone =
                text(hits(ScopedSearch.nearest(searcher, query, SCOPE, K, CANDIDATES, null)));
            assertEquals(
                alone,
                text(hits(ScopedSearch.nearest(searcher, query, SCOPE, K, CANDIDATES, walkers))),
                "question " + q + " with helpers, " + Seeds.replay(seed));
          }
          // SEGMENTS walks a search: the first search queued some for a helper, which started
          assertTrue(walkers.threadsStarted() >= 1, "helpers started: " + walkers.threadsStarted());
          walkers.close();
          float[] query = near(centres.get(0), random);
          assertEquals(
              text(hits(ScopedSearch.nearest(searcher, query, SCOPE, K, CANDIDATES, null))),
              text(hits(ScopedSearch.nearest(searcher, query, SCOPE, K, CANDIDATES, walkers))),
              "after close the searching thread walks every segment, " + Seeds.replay(seed));
        } finally {
          walkers.close();
        }
      }
    }
  }

  @Test
  void aSegmentsFirstWalk_isItsShareOfTheCandidatesAndThreeDeviations_atLeastHalfOfThem() {
    assertEquals(65, EachSegmentKnn.budget(100, 0.5)); // 50 + 3 x 5
    assertEquals(99, EachSegmentKnn.budget(100, 0.9)); // 90 + 3 x 3
    assertEquals(100, EachSegmentKnn.budget(100, 0.95)); // 95 + 3 x 2.18, at most all
    assertEquals(100, EachSegmentKnn.budget(100, 1.0));
    assertEquals(50, EachSegmentKnn.budget(100, 0.2)); // 20 + 3 x 4 = 32, under half
    assertEquals(50, EachSegmentKnn.budget(100, 0.001));
    assertEquals(13, EachSegmentKnn.budget(25, 0.1)); // half of 25, rounded up
    assertEquals(100, EachSegmentKnn.budget(100, 0.0)); // never used: no document of the scope
  }

  @Test
  void fiveEqualSegments_eachCollectorHoldsLucenesCount_forTheQuerysCountOfTheSmallestBudget() {
    int[] budgets = {50, 50, 50, 50, 50}; // budget(100, 0.2) each
    double[] shares = {0.2, 0.2, 0.2, 0.2, 0.2};

    int[] sizes = EachSegmentKnn.collectorSizes(budgets, shares, 50);

    // 50 x 0.2 + 16 x sqrt(50 x 0.2 x 0.8) = 55.25: Lucene searches exactly a walk giving fewer
    assertEquals(
        List.of(55, 55, 55, 55, 55), List.of(sizes[0], sizes[1], sizes[2], sizes[3], sizes[4]));
    assertEquals(55, EachSegmentKnn.luceneLeafCount(50, 0.2));
    // the query's count must stay 50: at 55, Lucene's count for each segment would be 58
    assertEquals(58, EachSegmentKnn.luceneLeafCount(55, 0.2));
  }

  @Test
  void noSegmentsCollector_isSmallerThanWhatLuceneAcceptsFromItsWalk() {
    long seed = Seeds.seed();
    Random random = new Random(seed);
    for (int layout = 0; layout < 2_000; layout++) {
      int segments = 1 + random.nextInt(12);
      double[] docs = new double[segments];
      double[] scoped = new double[segments];
      double allDocs = 0;
      double allScoped = 0;
      for (int i = 0; i < segments; i++) {
        docs[i] = 1 + random.nextInt(400_000);
        scoped[i] = random.nextInt(3) == 0 ? 0 : docs[i] * random.nextDouble();
        allDocs += docs[i];
        allScoped += scoped[i];
      }
      if (allScoped == 0) {
        continue;
      }
      int n = 10 + random.nextInt(300);
      int[] budgets = new int[segments];
      double[] shares = new double[segments];
      for (int i = 0; i < segments; i++) {
        budgets[i] = EachSegmentKnn.budget(n, scoped[i] / allScoped);
        shares[i] = docs[i] / allDocs;
      }

      EachSegmentKnn.Budgeted first =
          EachSegmentKnn.firstWalk(new float[] {1, 0}, budgets, shares, n, null);
      int queryK = first.getK();
      int[] sizes = first.sizes;

      for (int i = 0; i < segments; i++) {
        String where = "layout " + layout + ", segment " + i + "; " + Seeds.replay(seed);
        assertEquals(
            EachSegmentKnn.Budgeted.smallest(budgets), queryK, "the query's count: " + where);
        assertTrue(sizes[i] >= budgets[i], "a collector holds at least its budget: " + where);
        assertTrue(
            sizes[i] >= EachSegmentKnn.luceneLeafCount(queryK, shares[i]),
            "a collector holds at least Lucene's count for the segment: " + where);
      }
    }
  }

  /** Writes {@link #SEGMENTS} segments of {@link #PER_SEGMENT} vectors made by {@code vector}. */
  private static void write(Directory dir, List<float[]> vectors, IntFunction<float[]> vector)
      throws IOException {
    try (IndexWriter writer =
        new IndexWriter(dir, new IndexWriterConfig().setMergePolicy(NoMergePolicy.INSTANCE))) {
      for (int s = 0; s < SEGMENTS; s++) {
        for (int i = 0; i < PER_SEGMENT; i++) {
          float[] v = vector.apply(s);
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
  }

  private static List<float[]> centres(Random random) {
    List<float[]> centres = new ArrayList<>();
    for (int t = 0; t < TOPICS; t++) {
      centres.add(unit(gaussian(random, 1.0)));
    }
    return centres;
  }

  /**
   * The best {@link #CANDIDATES} over every segment, each segment walked on its own for all of them
   * by Lucene's query (which, on an index of one segment, has nothing to share).
   */
  private static List<ScoreDoc> eachSegmentAlone(DirectoryReader reader, float[] query)
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
    return all.subList(0, Math.min(CANDIDATES, all.size()));
  }

  private static List<ScoreDoc> hits(TopDocs top) {
    return List.of(top.scoreDocs);
  }

  private static List<String> text(List<ScoreDoc> hits) {
    List<String> out = new ArrayList<>();
    for (ScoreDoc sd : hits) {
      out.add(sd.doc + "@" + sd.score);
    }
    return out;
  }

  /** How many of the first {@link #K} of {@code hits} are among {@code truth}. */
  private static int truePositives(IndexSearcher searcher, List<ScoreDoc> hits, Set<Integer> truth)
      throws IOException {
    int n = 0;
    for (ScoreDoc sd : hits.subList(0, Math.min(K, hits.size()))) {
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
