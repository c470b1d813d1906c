package dev.memhook.lucene.internal.vectors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene104.Lucene104Codec;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.apache.lucene.codecs.perfield.PerFieldKnnVectorsFormat;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.AcceptDocs;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.junit.jupiter.api.Test;

/**
 * Segments written by {@link GraphlessVectorsFormat} are found by the name they record, searched
 * exactly (filter and deletions honoured), and get a graph when merged under a graph format.
 */
class GraphlessVectorsFormatTest {
  private static final int DIM = 16;
  private static final int DOCS = 600;

  @Test
  void aGraphlessSegment_isSearchedExactly_withFilterAndDeletions() throws Exception {
    Random random = new Random(7);
    List<float[]> vectors = new ArrayList<>();
    try (Directory dir = new ByteBuffersDirectory()) {
      try (IndexWriter w = new IndexWriter(dir, config(new GraphlessVectorsFormat()))) {
        for (int i = 0; i < DOCS; i++) {
          float[] v = unit(random);
          vectors.add(v);
          w.addDocument(doc(i, v));
        }
        w.deleteDocuments(new Term("id", "3"), new Term("id", "10"));
        w.commit();
      }
      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        assertEquals(GraphlessVectorsFormat.NAME, formatOf(reader));
        IndexSearcher searcher = new IndexSearcher(reader);
        for (int q = 0; q < 20; q++) {
          float[] target = unit(random);
          TopDocs filtered =
              searcher.search(
                  new KnnFloatVectorQuery(
                      "v", target, 10, new TermQuery(new Term("parity", "even"))),
                  10);
          assertArrayEquals(
              exact(vectors, target, i -> i % 2 == 0 && i != 10, 10),
              ids(searcher, filtered),
              "query " + q + ", even documents only, 10 deleted");
          // the format's own search, without the query's fall-back to an exhaustive search
          LeafReader leaf = reader.leaves().get(0).reader();
          TopDocs direct =
              leaf.searchNearestVectors(
                  "v",
                  target,
                  10,
                  AcceptDocs.fromLiveDocs(leaf.getLiveDocs(), leaf.maxDoc()),
                  Integer.MAX_VALUE);
          assertEquals(DOCS - 2, direct.totalHits.value(), "every live vector compared");
          assertArrayEquals(
              exact(vectors, target, i -> i != 3 && i != 10, 10),
              ids(searcher, direct),
              "query " + q + ", the format's search");
          TopDocs all = searcher.search(new KnnFloatVectorQuery("v", target, 10), 10);
          assertArrayEquals(
              exact(vectors, target, i -> i != 3 && i != 10, 10),
              ids(searcher, all),
              "query " + q + ", every live document");
        }
      }
    }
  }

  @Test
  void mergedUnderAGraphFormat_aGraphlessSegment_getsTheGraph_andKeepsItsVectors()
      throws Exception {
    Random random = new Random(11);
    try (Directory dir = new ByteBuffersDirectory()) {
      try (IndexWriter w = new IndexWriter(dir, config(new GraphlessVectorsFormat()))) {
        for (int i = 0; i < DOCS; i++) {
          w.addDocument(doc(i, unit(random)));
        }
        w.commit();
      }
      try (IndexWriter w = new IndexWriter(dir, config(new Lucene99HnswVectorsFormat()))) {
        w.forceMerge(1); // one segment already: Lucene leaves it alone
        try (DirectoryReader reader = DirectoryReader.open(w)) {
          assertEquals(GraphlessVectorsFormat.NAME, formatOf(reader));
        }
        w.addDocument(doc(DOCS, unit(random)));
        w.forceMerge(1);
        w.commit();
      }
      try (DirectoryReader reader = DirectoryReader.open(dir)) {
        assertEquals("Lucene99HnswVectorsFormat", formatOf(reader));
        assertEquals(
            DOCS + 1,
            reader.getContext().leaves().get(0).reader().getFloatVectorValues("v").size());
      }
    }
  }

  private static IndexWriterConfig config(KnnVectorsFormat format) {
    return new IndexWriterConfig()
        .setCodec(
            new Lucene104Codec() {
              @Override
              public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
                return format;
              }
            });
  }

  private static Document doc(int i, float[] v) {
    Document d = new Document();
    d.add(new StringField("id", Integer.toString(i), Field.Store.YES));
    d.add(new StringField("parity", i % 2 == 0 ? "even" : "odd", Field.Store.NO));
    d.add(new KnnFloatVectorField("v", v, VectorSimilarityFunction.DOT_PRODUCT));
    return d;
  }

  private static String formatOf(DirectoryReader reader) {
    List<LeafReaderContext> leaves = reader.leaves();
    assertEquals(1, leaves.size());
    String format =
        leaves
            .get(0)
            .reader()
            .getFieldInfos()
            .fieldInfo("v")
            .getAttribute(PerFieldKnnVectorsFormat.PER_FIELD_FORMAT_KEY);
    assertNotNull(format);
    return format;
  }

  private static float[] unit(Random random) {
    float[] v = new float[DIM];
    double norm = 0;
    for (int i = 0; i < DIM; i++) {
      v[i] = (float) random.nextGaussian();
      norm += v[i] * v[i];
    }
    for (int i = 0; i < DIM; i++) {
      v[i] /= (float) Math.sqrt(norm);
    }
    return v;
  }

  private static String[] exact(
      List<float[]> vectors, float[] target, java.util.function.IntPredicate keep, int k) {
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < vectors.size(); i++) {
      if (keep.test(i)) {
        order.add(i);
      }
    }
    order.sort(
        Comparator.comparingDouble(
                (Integer i) ->
                    -VectorSimilarityFunction.DOT_PRODUCT.compare(vectors.get(i), target))
            .thenComparing(i -> i));
    return order.subList(0, k).stream().map(String::valueOf).toArray(String[]::new);
  }

  private static String[] ids(IndexSearcher searcher, TopDocs top) throws Exception {
    List<String> out = new ArrayList<>();
    for (ScoreDoc d : top.scoreDocs) {
      out.add(searcher.storedFields().document(d.doc).get("id"));
    }
    return out.toArray(String[]::new);
  }
}
