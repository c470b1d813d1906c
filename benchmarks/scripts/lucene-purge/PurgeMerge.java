import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Locale;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.Set;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;

/**
 * What the purge of one forgotten vector costs in plain Lucene, without Memhook: N documents with a
 * 384-d vector (default HNSW format, M 16, beam width 100, one merge thread) written as one
 * segment, then one document deleted and the segment rewritten by {@code forceMergeDeletes}, as the
 * Lucene store's purge does, twice. Prints the load, each purge's time and the vector search's
 * recall@10 against an exact scan before and after. The same source compiles against Lucene 9.12
 * and 10.x (run it with the source launcher: {@code java -cp lucene-core.jar PurgeMerge.java N
 * DIR}); benchmarks/scripts/lucene-purge.sh runs both. Vectors: 2,000 random unit centres, each
 * vector a centre plus Gaussian noise (0.05 per dimension), normalised; seeds fixed.
 */
public class PurgeMerge {
  private static final int DIM = 384;

  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[0]);
    Path dir = Paths.get(args[1]);
    if (Files.exists(dir)) {
      throw new IllegalArgumentException(dir + " exists; give a new directory");
    }
    Random random = new Random(42);
    float[][] centres = new float[2000][];
    for (int i = 0; i < centres.length; i++) {
      centres[i] = near(random, new float[DIM], 1.0);
    }
    float[][] vectors = new float[n][];
    for (int i = 0; i < n; i++) {
      vectors[i] = near(random, centres[random.nextInt(centres.length)], 0.05);
    }
    Random questions = new Random(7);
    float[][] queries = new float[50][];
    for (int i = 0; i < queries.length; i++) {
      queries[i] = near(questions, centres[questions.nextInt(centres.length)], 0.05);
    }
    TieredMergePolicy policy = new TieredMergePolicy();
    policy.setForceMergeDeletesPctAllowed(0.0);
    policy.setMaxMergedSegmentMB(100_000);
    IndexWriterConfig config =
        new IndexWriterConfig().setRAMBufferSizeMB(2048).setMergePolicy(policy);
    Set<Integer> deleted = new HashSet<>();
    try (Directory directory = FSDirectory.open(dir);
        IndexWriter writer = new IndexWriter(directory, config)) {
      long start = System.nanoTime();
      for (int i = 0; i < n; i++) {
        Document doc = new Document();
        doc.add(new StringField("id", Integer.toString(i), Field.Store.NO));
        doc.add(new StoredField("n", i));
        doc.add(new KnnFloatVectorField("v", vectors[i], VectorSimilarityFunction.DOT_PRODUCT));
        writer.addDocument(doc);
      }
      writer.commit();
      System.out.printf(
          Locale.ROOT,
          "%d vectors written as %d segment(s), graph built at flush: %.1f s%n",
          n,
          segments(writer),
          (System.nanoTime() - start) / 1e9);
      System.out.printf(
          Locale.ROOT,
          "recall@10 against exact, before: %.3f%n",
          recall(writer, vectors, queries, deleted));
      for (int round = 0; round < 2; round++) {
        int victim = n / 2 + round;
        writer.deleteDocuments(new Term("id", Integer.toString(victim)));
        deleted.add(victim);
        writer.commit();
        long purgeStart = System.nanoTime();
        writer.forceMergeDeletes(true);
        writer.commit();
        System.out.printf(
            Locale.ROOT,
            "purge %d: one deleted document, forceMergeDeletes %.2f s, %d segment(s)%n",
            round + 1,
            (System.nanoTime() - purgeStart) / 1e9,
            segments(writer));
      }
      System.out.printf(
          Locale.ROOT,
          "recall@10 against exact, after: %.3f%n",
          recall(writer, vectors, queries, deleted));
    }
  }

  private static int segments(IndexWriter writer) throws Exception {
    try (DirectoryReader reader = DirectoryReader.open(writer)) {
      return reader.leaves().size();
    }
  }

  /**
   * The share of each query's exact ten nearest live vectors that the HNSW search (k 100) ranks in
   * its top ten.
   */
  private static double recall(
      IndexWriter writer, float[][] vectors, float[][] queries, Set<Integer> deleted)
      throws Exception {
    try (DirectoryReader reader = DirectoryReader.open(writer)) {
      IndexSearcher searcher = new IndexSearcher(reader);
      StoredFields stored = searcher.storedFields();
      double found = 0;
      for (float[] q : queries) {
        double[] scores = new double[vectors.length]; // each dot product once, not per comparison
        for (int i = 0; i < vectors.length; i++) {
          scores[i] = dot(vectors[i], q);
        }
        PriorityQueue<Integer> exact =
            new PriorityQueue<>(Comparator.comparingDouble(i -> scores[i]));
        for (int i = 0; i < vectors.length; i++) {
          if (!deleted.contains(i)) {
            exact.add(i);
            if (exact.size() > 10) {
              exact.poll();
            }
          }
        }
        Set<Integer> approximate = new HashSet<>();
        for (ScoreDoc hit : searcher.search(new KnnFloatVectorQuery("v", q, 100), 10).scoreDocs) {
          approximate.add(stored.document(hit.doc).getField("n").numericValue().intValue());
        }
        for (int i : exact) {
          if (approximate.contains(i)) {
            found++;
          }
        }
      }
      return found / (10.0 * queries.length);
    }
  }

  private static double dot(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * b[i];
    }
    return s;
  }

  /** {@code centre} plus Gaussian noise of {@code sigma} per dimension, at unit length. */
  private static float[] near(Random random, float[] centre, double sigma) {
    float[] v = new float[DIM];
    double norm = 0;
    for (int i = 0; i < DIM; i++) {
      v[i] = centre[i] + (float) (sigma * random.nextGaussian());
      norm += v[i] * v[i];
    }
    norm = Math.sqrt(norm);
    for (int i = 0; i < DIM; i++) {
      v[i] /= norm;
    }
    return v;
  }
}
