package dev.memhook.core.internal.journal;

import static com.google.common.base.Preconditions.checkArgument;

import dev.memhook.api.MemoryStoreException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Opens a {@link FileJournal}: creates the directory, locks it, recovers it (see {@link Recovery})
 * and deletes the segments the checkpoint covers. An open that fails releases the directory lock,
 * so a retry in the same JVM does not find it held.
 *
 * <p>Takes none of {@link FileJournal}'s three locks itself: the journal is not shared until this
 * returns it, and {@link FileJournal#deleteSegmentsThrough} takes the one it needs.
 */
final class JournalOpener {
  /** The smallest segment size {@link Journal#open(Path, long)} accepts: 4 KiB. */
  static final long MIN_SEGMENT_BYTES = 4096;

  private JournalOpener() {}

  /** See {@link Journal#open(Path, long)}. */
  static FileJournal open(Path directory, long segmentBytes) {
    Objects.requireNonNull(directory, "directory");
    checkArgument(
        segmentBytes >= MIN_SEGMENT_BYTES,
        "segmentBytes must be at least %s, got %s",
        MIN_SEGMENT_BYTES,
        segmentBytes);
    Path dir;
    try {
      dir = Files.createDirectories(directory).toRealPath();
    } catch (IOException e) {
      throw new MemoryStoreException(
          "could not create the journal directory "
              + directory.toAbsolutePath()
              + " ("
              + e
              + "); check that the path is a directory and writable",
          e);
    }
    DirectoryLock lock = DirectoryLock.acquire(dir);
    try {
      Recovery recovery = Recovery.of(dir);
      List<Segment> segments = recovery.segments();
      SegmentWriter writer = new SegmentWriter(segments.get(segments.size() - 1).path);
      FileJournal journal = new FileJournal(dir, segmentBytes, lock, recovery, writer);
      journal.deleteSegmentsThrough(recovery.appliedThrough());
      return journal;
    } catch (IOException e) {
      closeAfterFailure(e, lock);
      throw new MemoryStoreException(
          "could not open the journal in " + dir + " (" + e + "); check the directory and retry",
          e);
    } catch (RuntimeException | Error e) {
      closeAfterFailure(e, lock);
      throw e;
    }
  }

  /** Leaves the directory unlocked after a failed open. */
  private static void closeAfterFailure(Throwable failure, DirectoryLock lock) {
    try {
      lock.close();
    } catch (IOException e) {
      failure.addSuppressed(e);
    }
  }
}
