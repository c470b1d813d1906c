package dev.memhook.benchmarks;

import dev.memhook.lucene.LuceneMemoryStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.function.Consumer;
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

  /**
   * How long the segment count must hold still for the merges to count as done: longer than the
   * store's idle-merge delay, so that a store whose idle merge has not started yet (its last write
   * less than that delay ago) is not taken as settled.
   */
  private static final Duration STABLE =
      LuceneMemoryStore.Builder.DEFAULT_IDLE_MERGE.plusSeconds(5);

  private static final Duration LIMIT = Duration.ofHours(2);

  /**
   * How long a store built as a host builds it is left without a write before it is measured: "as
   * the store leaves itself after a minute idle". {@code -Dmemhook.bench.quietSeconds=N} shortens
   * it, for the smoke test.
   */
  static Duration quietBeforeMeasuring() {
    return Duration.ofSeconds(Long.getLong("memhook.bench.quietSeconds", 60));
  }

  /**
   * The largest segment the store's merges build while it is built and settled, in MB: {@code
   * -Dmemhook.bench.maxSegmentMB=N} sets {@link LuceneMemoryStore.Builder#maxSegmentMB} instead of
   * its default, to measure the layout a host with another limit gets; empty for the default.
   */
  static OptionalDouble maxSegmentMB() {
    String value = System.getProperty("memhook.bench.maxSegmentMB");
    return value == null ? OptionalDouble.empty() : OptionalDouble.of(Double.parseDouble(value));
  }

  /** {@code builder} with {@link #maxSegmentMB()} applied when it is set. */
  private static LuceneMemoryStore.Builder withSegmentLimit(LuceneMemoryStore.Builder builder) {
    maxSegmentMB().ifPresent(builder::maxSegmentMB);
    return builder;
  }

  private IdleSettling() {}

  /**
   * Opens a store in {@code dir} with the store's defaults (commit per write, the default merge
   * policy and idle merges), lets {@code load} fill it, then leaves it open without a write for
   * {@link #quietBeforeMeasuring()} and until its merges are done, printing the time of each phase
   * and the segment count after each (to standard error); closes it. {@code
   * -Dmemhook.bench.workers=N} sets {@link LuceneMemoryStore.Builder#workers} instead of its
   * default, to compare, and {@link #maxSegmentMB()} its segment limit.
   */
  static void buildAndLeaveIdle(Path dir, boolean quantized, Consumer<LuceneMemoryStore> load) {
    long start = System.nanoTime();
    LuceneMemoryStore.Builder builder =
        withSegmentLimit(LuceneMemoryStore.builder().directory(dir).scalarQuantization(quantized));
    Integer workers = Integer.getInteger("memhook.bench.workers");
    if (workers != null) {
      builder.workers(workers);
    }
    System.err.printf(
        Locale.ROOT,
        "store workers: %s; largest merged segment: %s%n",
        workers == null ? "the store's default" : workers.toString(),
        maxSegmentMB().isPresent() ? maxSegmentMB().getAsDouble() + " MB" : "the store's default");
    try (LuceneMemoryStore store = builder.build()) {
      load.accept(store);
      long loaded = System.nanoTime();
      System.err.printf(
          Locale.ROOT,
          "loaded %s in %.0f s: %d segments committed, %.0f MB%n",
          dir.getFileName(),
          (loaded - start) / 1e9,
          committedSegments(dir),
          BenchStores.sizeOnDisk(dir) / 1048576.0);
      Duration quiet = quietBeforeMeasuring();
      Thread.sleep(quiet.toMillis());
      System.err.printf(
          Locale.ROOT,
          "after %d s idle: %d segments committed, merging: %b%n",
          quiet.toSeconds(),
          committedSegments(dir),
          mergeInProgress(dir));
      awaitQuiet(dir);
      System.err.printf(
          Locale.ROOT,
          "idle merges done %.0f s after the last write: %d segments, %.0f MB%n",
          (System.nanoTime() - loaded) / 1e9,
          committedSegments(dir),
          BenchStores.sizeOnDisk(dir) / 1048576.0);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while leaving " + dir + " idle", e);
    }
  }

  /** The segment count of the latest commit in {@code dir}. */
  static int committedSegments(Path dir) {
    try (Directory d = FSDirectory.open(dir)) {
      return SegmentInfos.readLatestCommit(d).size();
    } catch (IOException e) {
      throw new UncheckedIOException("could not read the commit of " + dir, e);
    }
  }

  private static boolean mergeInProgress(Path dir) {
    try (Directory d = FSDirectory.open(dir)) {
      return mergeInProgress(d);
    } catch (IOException e) {
      throw new UncheckedIOException("could not list " + dir, e);
    }
  }

  @SuppressWarnings("try") // the store is open only for its idle merges to run
  static void settle(Path dir, boolean quantized) {
    try (LuceneMemoryStore store =
        withSegmentLimit(LuceneMemoryStore.builder())
            .directory(dir)
            .scalarQuantization(quantized)
            .idleMerge(IDLE)
            .build()) {
      awaitQuiet(dir);
    }
  }

  /**
   * Waits until the idle merges of the store open on {@code dir} (with the default idle delay or a
   * shorter one) are done, and prints how the segment count moved.
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
