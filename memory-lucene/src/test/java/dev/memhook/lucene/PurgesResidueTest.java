package dev.memhook.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.Term;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Purges}: a purge is done only when no segment holds a deleted document any more; one that
 * a merge carried past the purge's rounds keeps the next purge due.
 */
class PurgesResidueTest {
  private static final Duration DELAY = Duration.ofHours(1); // the timer never starts one here

  @TempDir Path keysDir;

  @Test
  void aPurgeThatRewritesEverySegmentWithADelete_isDone() throws Exception {
    assertEquals(-1, purgeOnce(Expunge.policy(NoMergePolicy.INSTANCE))); // no merge but the purge's
  }

  @Test
  void aDeletedDocumentThatOutlivesThePurge_keepsTheNextPurgeDue() throws Exception {
    // no merge at all stands for merges that carried the delete past every round
    long before = System.currentTimeMillis();

    long purgeBy = purgeOnce(NoMergePolicy.INSTANCE);

    assertTrue(
        purgeBy >= before + DELAY.toMillis(),
        "the next purge is due a delay after this one, got " + purgeBy);
  }

  /** Writes four documents, deletes one, runs {@link Purges#purgeNow}; its {@code purgeBy}. */
  private long purgeOnce(MergePolicy policy) throws Exception {
    Purges purges = new Purges(DELAY, "test index", Clock.systemUTC());
    try (Directory dir = new ByteBuffersDirectory();
        IndexWriter writer =
            new IndexWriter(dir, new IndexWriterConfig().setMergePolicy(purges.policy(policy)));
        RecordKeys keys = RecordKeys.open(keysDir, false)) {
      PurgesFixture.twoSegments(writer);
      writer.deleteDocuments(new Term("id", "a"));
      writer.commit();
      assertTrue(writer.hasDeletions());
      FreshSearchers searchers = PurgesFixture.start(purges, writer, dir, keys);
      try {
        purges.purgeNow();
        boolean residue = writer.hasDeletions();
        long purgeBy = purges.purgeBy();
        assertEquals(residue, purgeBy >= 0, "due again exactly when a delete remains");
        assertEquals(
            residue ? Long.toString(purgeBy) : null,
            toMap(writer.getLiveCommitData()).get(Purges.PURGE_BY),
            "the commit journals what is due");
        if (!residue) {
          assertFalse(writer.hasDeletions());
        }
        return purgeBy;
      } finally {
        purges.close();
        searchers.close();
      }
    }
  }

  private static Map<String, String> toMap(Iterable<Map.Entry<String, String>> data) {
    Map<String, String> map = new java.util.HashMap<>();
    if (data != null) {
      data.forEach(e -> map.put(e.getKey(), e.getValue()));
    }
    return map;
  }
}
