package dev.memhook.benchmarks;

import dev.memhook.lucene.LuceneMemoryStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;

/**
 * Brings a bulk-loaded index to the layout the store's idle merges leave: opens it with a short
 * idle delay and waits until the merges are done, that is until the directory has held no file
 * outside its latest commit (a merge in progress writes such files) and the same segment count for
 * a while.
 */
final class IdleSettling {
  /** The idle delay to settle with. */
  static final Duration IDLE = Duration.ofSeconds(1);

  private static final Duration STABLE = Duration.ofSeconds(10);
  private static final Duration LIMIT = Duration.ofHours(2);

  private IdleSettling() {}

  @SuppressWarnings("try") // the store is open only for its idle merges to run
  static void settle(Path dir, boolean quantized) {
    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder()
            .directory(dir)
            .scalarQuantization(quantized)
            .idleMerge(IDLE)
            .build()) {
      awaitQuiet(dir);
    }
  }

  /**
   * Waits until the idle merges of the store open on {@code dir} (with an idle delay of a second or
   * so) are done, and prints how the segment count moved.
   */
  static void awaitQuiet(Path dir) {
    long start = System.nanoTime();
    try (Directory d = FSDirectory.open(dir)) {
      int first = SegmentInfos.readLatestCommit(d).size();
      int last = first;
      long stableSince = System.nanoTime();
      while (System.nanoTime() - stableSince < STABLE.toNanos() || mergeInProgress(d)) {
        if (System.nanoTime() - start > LIMIT.toNanos()) {
          throw new IllegalStateException("idle merges of " + dir + " still running after 2 h");
        }
        Thread.sleep(500);
        int now = SegmentInfos.readLatestCommit(d).size();
        if (now != last) {
          last = now;
          stableSince = System.nanoTime();
        }
      }
      System.err.printf(
          Locale.ROOT,
          "settled %s: %d -> %d segments in %.0f s%n",
          dir.getFileName(),
          first,
          last,
          (System.nanoTime() - start) / 1e9);
    } catch (IOException e) {
      throw new UncheckedIOException("could not settle " + dir, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while settling " + dir, e);
    }
  }

  /** Whether {@code d} holds an index file its latest commit does not name. */
  private static boolean mergeInProgress(Directory d) throws IOException {
    Set<String> committed = new HashSet<>(SegmentInfos.readLatestCommit(d).files(true));
    for (String f : d.listAll()) {
      if (!committed.contains(f) && !f.equals("write.lock") && !f.startsWith("memhook")) {
        return true;
      }
    }
    return false;
  }
}
