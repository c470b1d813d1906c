package dev.memhook.lucene;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.lucene.internal.vectors.GraphlessVectorsFormat;
import java.time.Duration;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.junit.jupiter.api.Test;

/** When a bulk load starts deferring graphs, and when it stops. */
class VectorGraphsTest {
  private final KnnVectorsFormat withGraph = new Lucene99HnswVectorsFormat();

  @Test
  void aBatchOfSixteen_startsABulkLoad_thatSettleEnds() {
    VectorGraphs graphs = new VectorGraphs(withGraph, true);
    graphs.bulkWrite(VectorGraphs.BULK_BATCH - 1);
    assertSame(withGraph, graphs.format(), "a smaller batch is not a bulk load");

    graphs.bulkWrite(VectorGraphs.BULK_BATCH);
    assertTrue(graphs.bulk());
    assertTrue(graphs.format() instanceof GraphlessVectorsFormat);
    assertFalse(graphs.overdue());

    graphs.settle();
    assertFalse(graphs.bulk());
    assertSame(withGraph, graphs.format());
  }

  @Test
  void aStoreThatDoesNotDefer_neverStartsABulkLoad() {
    VectorGraphs graphs = new VectorGraphs(withGraph, false);
    graphs.bulkWrite(10_000);
    assertFalse(graphs.bulk());
    assertSame(withGraph, graphs.format());
  }

  @Test
  void aLoadPastItsLongestDeferral_isOverdue_untilSettled() throws Exception {
    VectorGraphs graphs = new VectorGraphs(withGraph, true, Duration.ofMillis(20));
    graphs.bulkWrite(100);
    Thread.sleep(40);
    graphs.bulkWrite(100); // more batches do not restart the clock
    assertTrue(graphs.overdue());

    graphs.settle();
    assertFalse(graphs.overdue());
    graphs.bulkWrite(100); // the next batches start another load
    assertTrue(graphs.bulk());
    assertFalse(graphs.overdue());
  }
}
