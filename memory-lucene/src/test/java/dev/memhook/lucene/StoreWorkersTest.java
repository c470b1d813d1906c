package dev.memhook.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene104.Lucene104Codec;
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

/** {@link StoreWorkers}: who builds a merged segment's vector graph, and who runs a job's parts. */
class StoreWorkersTest {
  private static final int DIM = 16;
  private static final int PER_SEGMENT = 600;

  @ParameterizedTest(name = "quantized {0}")
  @ValueSource(booleans = {false, true})
  void twoWorkers_buildAMergedGraphWithAHelperThread_thatFindsEveryVector(boolean quantized)
      throws Exception {
    try (StoreWorkers workers = new StoreWorkers(2);
        Directory dir = new ByteBuffersDirectory()) {
      float[][] vectors = writeTwoSegmentsAndMerge(dir, workers.format(16, 100, quantized));

      assertTrue(workers.threadsStarted() >= 1, "no helper thread built the merged graph");
      assertEachVectorFindsItself(dir, vectors);
    }
  }

  @Test
  void oneWorker_startsNoThread() throws Exception {
    try (StoreWorkers workers = new StoreWorkers(1);
        Directory dir = new ByteBuffersDirectory()) {
      float[][] vectors = writeTwoSegmentsAndMerge(dir, workers.format(16, 100, false));

      assertEquals(0, workers.threadsStarted());
      assertEachVectorFindsItself(dir, vectors);
    }
  }

  @Test
  void aMergeAfterClose_isBuiltByTheMergeThreadAlone() throws Exception {
    StoreWorkers workers = new StoreWorkers(3);
    workers.close();
    try (Directory dir = new ByteBuffersDirectory()) {
      float[][] vectors = writeTwoSegmentsAndMerge(dir, workers.format(16, 100, false));

      assertEquals(0, workers.threadsStarted());
      assertEachVectorFindsItself(dir, vectors);
    }
  }

  @Test
  void lessThanOneWorker_isRejected() {
    assertThrows(IllegalArgumentException.class, () -> new StoreWorkers(0));
  }

  @Test
  void runAll_runsEveryPartOnce_twoWorkersRunningTwoPartsAtOnce() throws Exception {
    try (StoreWorkers workers = new StoreWorkers(2)) {
      CyclicBarrier bothRunning = new CyclicBarrier(2);
      AtomicIntegerArray runs = new AtomicIntegerArray(6);
      Set<String> threads = ConcurrentHashMap.newKeySet();
      List<StoreWorkers.Part> parts = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        int part = i;
        parts.add(
            () -> {
              threads.add(Thread.currentThread().getName());
              if (part < 2) {
                // only two threads at once get past this: a second worker must exist
                awaitQuietly(bothRunning);
              }
              runs.incrementAndGet(part);
            });
      }

      workers.runAll(parts);

      for (int i = 0; i < 6; i++) {
        assertEquals(1, runs.get(i), "part " + i);
      }
      assertTrue(threads.contains(Thread.currentThread().getName()), "caller ran none: " + threads);
      assertEquals(2, threads.size(), "threads: " + threads);
    }
  }

  @Test
  void runAll_onAClosedPool_runsEveryPartOnTheCallingThread() throws Exception {
    StoreWorkers workers = new StoreWorkers(4);
    workers.close();
    List<String> ranOn = Collections.synchronizedList(new ArrayList<>());
    List<StoreWorkers.Part> parts = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      parts.add(() -> ranOn.add(Thread.currentThread().getName()));
    }

    workers.runAll(parts);

    assertEquals(Collections.nCopies(5, Thread.currentThread().getName()), ranOn);
    assertEquals(0, workers.threadsStarted());
  }

  @Test
  void runAll_throwsTheFirstFailureInPartOrder_afterEveryPartRan() {
    try (StoreWorkers workers = new StoreWorkers(2)) {
      AtomicInteger ran = new AtomicInteger();
      List<StoreWorkers.Part> parts =
          List.of(
              ran::incrementAndGet,
              () -> {
                ran.incrementAndGet();
                throw new IOException("part one");
              },
              () -> {
                ran.incrementAndGet();
                throw new IllegalStateException("part two");
              },
              ran::incrementAndGet);

      IOException e = assertThrows(IOException.class, () -> workers.runAll(parts));

      assertEquals("part one", e.getMessage());
      assertEquals(1, e.getSuppressed().length);
      assertEquals("part two", e.getSuppressed()[0].getMessage());
      assertEquals(4, ran.get());
    }
  }

  @Test
  void runAll_rethrowsARuntimeFailureAsItWas() {
    try (StoreWorkers workers = new StoreWorkers(2)) {
      List<StoreWorkers.Part> parts =
          List.of(
              () -> {
                throw new IllegalArgumentException("bad part");
              },
              () -> {});

      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> workers.runAll(parts));
      assertEquals("bad part", e.getMessage());
    }
  }

  @Test
  void runAll_waitsThroughAnInterrupt_forEveryPart_andKeepsTheFlag() throws Exception {
    try (StoreWorkers workers = new StoreWorkers(2)) {
      AtomicInteger finished = new AtomicInteger();
      StoreWorkers.Part busy =
          () -> {
            long until = System.nanoTime() + 50_000_000L;
            while (System.nanoTime() < until) {
              Thread.onSpinWait();
            }
            finished.incrementAndGet();
          };
      Thread.currentThread().interrupt();
      try {
        workers.runAll(List.of(busy, busy, busy));

        assertEquals(3, finished.get());
        assertTrue(Thread.currentThread().isInterrupted());
      } finally {
        Thread.interrupted();
      }
    }
  }

  private static void awaitQuietly(CyclicBarrier barrier) throws IOException {
    try {
      barrier.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException | BrokenBarrierException | TimeoutException e) {
      throw new IOException("the other part never ran at the same time", e);
    }
  }

  /** Two flushed segments of random unit vectors merged into one; the vectors written. */
  private static float[][] writeTwoSegmentsAndMerge(Directory dir, KnnVectorsFormat format)
      throws Exception {
    Random random = new Random(7);
    float[][] vectors = new float[2 * PER_SEGMENT][];
    IndexWriterConfig config =
        new IndexWriterConfig()
            .setCodec(
                new Lucene104Codec() {
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
