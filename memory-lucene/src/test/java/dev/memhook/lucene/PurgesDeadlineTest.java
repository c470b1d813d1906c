package dev.memhook.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.memhook.api.MemoryId;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.index.FilterMergePolicy;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.Term;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Purges}: a forget that arrives while a purge rewrites is due a delay after itself, as any
 * forget is, not a delay after that long rewrite ends.
 */
class PurgesDeadlineTest {
  private static final Duration DELAY = Duration.ofHours(1);

  /** How long the purge's rewrite takes on the test clock: less than a quarter of the delay. */
  private static final Duration REWRITE = Duration.ofMinutes(10);

  @TempDir Path keysDir;

  @Test
  void aForgetDuringAPurge_isDueADelayAfterItself_andTheCommitJournalsThat() throws Exception {
    TestClock clock = new TestClock(Instant.parse("2026-12-06T00:00:00Z"));
    Purges purges = new Purges(DELAY, "test index", clock);
    long lateForgetAt = clock.millis() + 1_000;
    AtomicBoolean forgotLate = new AtomicBoolean();
    try (Directory dir = new ByteBuffersDirectory();
        RecordKeys keys = RecordKeys.open(keysDir, false)) {
      IndexWriter[] writerRef = new IndexWriter[1];
      // a forget arrives just after the purge began; then its rewrite takes REWRITE
      MergePolicy slowRewrite =
          new FilterMergePolicy(Expunge.policy(NoMergePolicy.INSTANCE)) {
            @Override
            public MergeSpecification findForcedDeletesMerges(
                SegmentInfos infos, MergeContext context) throws IOException {
              if (forgotLate.compareAndSet(false, true)) {
                clock.set(lateForgetAt);
                purges.forgetting(writerRef[0], List.of(MemoryId.of("late")));
                clock.set(lateForgetAt + REWRITE.toMillis());
              }
              return super.findForcedDeletesMerges(infos, context);
            }
          };
      try (IndexWriter writer =
          new IndexWriter(
              dir, new IndexWriterConfig().setMergePolicy(purges.policy(slowRewrite)))) {
        writerRef[0] = writer;
        PurgesFixture.twoSegments(writer);
        purges.forgetting(writer, List.of(MemoryId.of("a")));
        writer.deleteDocuments(new Term("id", "a"));
        writer.commit();
        FreshSearchers searchers = PurgesFixture.start(purges, writer, dir, keys);
        try {
          purges.purgeNow();

          assertFalse(writer.hasDeletions(), "the purge rewrote the deleted document away");
          long due = lateForgetAt + DELAY.toMillis();
          assertEquals(
              due,
              purges.purgeBy(),
              "due a delay after the late forget, not a delay after the rewrite ended");
          Map<String, String> journal = new HashMap<>();
          writer.getLiveCommitData().forEach(e -> journal.put(e.getKey(), e.getValue()));
          assertEquals(Long.toString(due), journal.get(Purges.PURGE_BY));
        } finally {
          purges.close();
          searchers.close();
        }
      }
    }
  }

  /** A clock the test sets; its copies in other zones move with it. */
  private static final class TestClock extends Clock {
    private final AtomicLong millis;
    private final ZoneId zone;

    TestClock(Instant start) {
      this(new AtomicLong(start.toEpochMilli()), ZoneOffset.UTC);
    }

    private TestClock(AtomicLong millis, ZoneId zone) {
      this.millis = millis;
      this.zone = zone;
    }

    void set(long epochMillis) {
      millis.set(epochMillis);
    }

    @Override
    public ZoneId getZone() {
      return zone;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return new TestClock(millis, zone);
    }

    @Override
    public long millis() {
      return millis.get();
    }

    @Override
    public Instant instant() {
      return Instant.ofEpochMilli(millis());
    }
  }
}
