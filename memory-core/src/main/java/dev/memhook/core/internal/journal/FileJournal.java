package dev.memhook.core.internal.journal;

import static com.google.common.base.Preconditions.checkArgument;

import dev.memhook.api.MemoryStoreException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The journal in a directory of segment files; see {@link Journal} for the design and contract, and
 * {@link JournalOpener} for how a directory is locked and recovered before one is built.
 *
 * <p>Three locks, always taken in this order: {@code checkpointLock} serialises checkpoint writes
 * (and keeps {@link #close()} from releasing the directory under one); {@code syncLock} lets one
 * force run at a time, which is what makes concurrent {@link #sync()} calls share it; {@code
 * appendLock} guards the segment list and the current file and is held only for microseconds, so
 * appends never wait for a force. Forces go through a channel of their own, opened per force, never
 * the appenders' channel.
 *
 * <p>Interrupts: a {@link FileChannel} closes itself when the thread using it is interrupted, and
 * the host's threads may carry an interrupt. Appends and syncs clear the flag before any I/O,
 * survive an interrupt that arrives during it (see {@link SegmentWriter} and {@link Fsync}) and
 * restore the flag before returning.
 */
final class FileJournal implements Journal {
  private static final Logger LOG = LoggerFactory.getLogger(FileJournal.class);

  private final Path directory;
  private final long segmentBytes;
  private final DirectoryLock lock;
  private final long damagedRecords;

  private final ReentrantLock checkpointLock = new ReentrantLock();
  private final ReentrantLock syncLock = new ReentrantLock();
  private final ReentrantLock appendLock = new ReentrantLock();

  // Guarded by appendLock. The last segment is the current one; it is never deleted.
  private final List<Segment> segments;
  private final List<Path> unsynced = new ArrayList<>();
  private final SegmentWriter writer;
  private long retiredBytes;
  private boolean directoryUnsynced;

  private volatile long lastSequence;
  private volatile long syncedThrough;
  private volatile long appliedThrough;
  private volatile long forces;
  private volatile boolean closed;

  /**
   * Takes over {@code lock} and {@code writer}, which {@link #close()} closes; see {@link
   * JournalOpener}.
   */
  FileJournal(
      Path directory,
      long segmentBytes,
      DirectoryLock lock,
      Recovery recovery,
      SegmentWriter writer) {
    this.directory = directory;
    this.segmentBytes = segmentBytes;
    this.lock = lock;
    this.segments = new ArrayList<>(recovery.segments());
    this.writer = writer;
    this.lastSequence = recovery.lastSequence();
    this.appliedThrough = recovery.appliedThrough();
    this.damagedRecords = recovery.damagedRecords();
    this.directoryUnsynced = recovery.created();
    for (int i = 0; i < segments.size() - 1; i++) {
      retiredBytes += segments.get(i).bytes;
    }
  }

  @Override
  public long append(byte kind, byte[] payload) {
    Objects.requireNonNull(payload, "payload");
    checkArgument(
        payload.length <= Frame.MAX_PAYLOAD_BYTES,
        "payload is %s bytes, more than the journal's limit of %s",
        payload.length,
        Frame.MAX_PAYLOAD_BYTES);
    int frameBytes = Frame.size(payload.length);
    boolean interrupted = Thread.interrupted();
    appendLock.lock();
    try {
      checkOpen();
      long seq = lastSequence + 1;
      Segment segment = segments.get(segments.size() - 1);
      if (segment.bytes > 0 && segment.bytes + frameBytes > segmentBytes) {
        segment = rotate(seq);
      }
      interrupted |= writer.write(segment.bytes, seq, kind, payload);
      segment.bytes += frameBytes;
      lastSequence = seq;
      return seq;
    } catch (IOException e) {
      throw new MemoryStoreException(
          "could not append to the journal in "
              + directory
              + " ("
              + e
              + "); the record was not appended: retry, and if it keeps failing check the disk's"
              + " free space and permissions",
          e);
    } finally {
      appendLock.unlock();
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public void eraseApplied() {
    boolean interrupted = Thread.interrupted();
    appendLock.lock();
    try {
      checkOpen();
      Segment current = segments.get(segments.size() - 1);
      if (current.bytes > 0 && current.firstSeq <= appliedThrough) {
        rotate(lastSequence + 1);
      }
    } catch (IOException e) {
      throw new MemoryStoreException(
          "could not start a new journal segment in " + directory + " (" + e + "); retry", e);
    } finally {
      appendLock.unlock();
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
    deleteSegmentsThrough(appliedThrough);
  }

  /** Starts the segment whose first record is {@code seq}; the old one waits for the next sync. */
  private Segment rotate(long seq) throws IOException {
    Path file = Segment.file(directory, seq);
    writer.switchTo(file);
    Segment retired = segments.get(segments.size() - 1);
    retiredBytes += retired.bytes;
    unsynced.add(retired.path);
    directoryUnsynced = true;
    Segment segment = new Segment(file, seq, 0);
    segments.add(segment);
    return segment;
  }

  @Override
  public void sync() {
    long target = lastSequence;
    if (syncedThrough >= target) {
      return;
    }
    boolean interrupted = Thread.interrupted();
    syncLock.lock();
    try {
      if (syncedThrough >= target || closed) {
        return; // a force that began after the caller's appends covered them; close() syncs
      }
      List<Path> retired;
      Path file;
      boolean directoryToo;
      long covered;
      appendLock.lock();
      try {
        // Every append that returned before this point has written its frame; the force below
        // starts later and so covers them all.
        covered = lastSequence;
        retired = List.copyOf(unsynced);
        unsynced.clear();
        file = segments.get(segments.size() - 1).path;
        directoryToo = directoryUnsynced;
        directoryUnsynced = false;
      } finally {
        appendLock.unlock();
      }
      try {
        for (Path segment : retired) {
          interrupted |= Fsync.file(segment, true);
        }
        interrupted |= Fsync.file(file, false);
        if (directoryToo) {
          Fsync.directory(directory);
        }
      } catch (IOException e) {
        appendLock.lock();
        try {
          unsynced.addAll(0, retired);
          directoryUnsynced |= directoryToo;
        } finally {
          appendLock.unlock();
        }
        throw new MemoryStoreException(
            "could not force the journal in " + directory + " to disk (" + e + "); retry", e);
      }
      forces++;
      syncedThrough = covered;
    } finally {
      syncLock.unlock();
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public long syncedThrough() {
    return syncedThrough;
  }

  /** How many forces {@link #sync()} has run; for tests of group commit. */
  long forceCount() {
    return forces;
  }

  @Override
  public void markApplied(long seq) {
    checkArgument(seq >= 0, "seq must not be negative, got %s", seq);
    long last = lastSequence;
    checkArgument(seq <= last, "seq %s was never appended: the last sequence is %s", seq, last);
    checkpointLock.lock();
    try {
      checkOpen();
      if (seq <= appliedThrough) {
        return;
      }
      try {
        Checkpoint.write(directory, seq);
      } catch (IOException e) {
        throw new MemoryStoreException(
            "could not write the journal checkpoint in "
                + directory
                + " ("
                + e
                + "); nothing is lost, the records are replayed again on the next open: retry",
            e);
      }
      appliedThrough = seq;
      deleteSegmentsThrough(seq);
    } finally {
      checkpointLock.unlock();
    }
  }

  /**
   * Deletes the segments, other than the current one, whose records are all at most {@code seq}.
   * Takes {@code appendLock} itself; {@link JournalOpener} calls it once after recovery.
   */
  void deleteSegmentsThrough(long seq) {
    List<Segment> applied = new ArrayList<>();
    appendLock.lock();
    try {
      while (segments.size() > 1 && segments.get(1).firstSeq - 1 <= seq) {
        Segment segment = segments.remove(0);
        retiredBytes -= segment.bytes;
        unsynced.remove(segment.path);
        applied.add(segment);
      }
    } finally {
      appendLock.unlock();
    }
    for (Segment segment : applied) {
      try {
        Files.deleteIfExists(segment.path);
      } catch (IOException e) {
        LOG.warn(
            "Could not delete the applied journal segment {} ({}); the next open deletes it",
            segment.path,
            e.toString());
      }
    }
  }

  @Override
  public void replay(Consumer<? super Entry> consumer) {
    Objects.requireNonNull(consumer, "consumer");
    List<Segment> snapshot = new ArrayList<>();
    long last;
    appendLock.lock();
    try {
      checkOpen();
      for (Segment segment : segments) {
        snapshot.add(new Segment(segment.path, segment.firstSeq, segment.bytes));
      }
      last = lastSequence;
    } finally {
      appendLock.unlock();
    }
    try {
      SegmentScanner.replay(snapshot, last, appliedThrough, consumer);
    } catch (IOException e) {
      throw new MemoryStoreException(
          "could not read the journal in " + directory + " (" + e + "); retry", e);
    }
  }

  @Override
  public long sizeBytes() {
    appendLock.lock();
    try {
      return retiredBytes + segments.get(segments.size() - 1).bytes;
    } finally {
      appendLock.unlock();
    }
  }

  @Override
  public int segmentCount() {
    appendLock.lock();
    try {
      return segments.size();
    } finally {
      appendLock.unlock();
    }
  }

  @Override
  public long lastSequence() {
    return lastSequence;
  }

  @Override
  public long appliedThrough() {
    return appliedThrough;
  }

  @Override
  public long damagedRecords() {
    return damagedRecords;
  }

  @Override
  public void close() {
    checkpointLock.lock();
    syncLock.lock();
    try {
      if (closed) {
        return;
      }
      MemoryStoreException failure = null;
      try {
        sync();
      } catch (MemoryStoreException e) {
        failure = e;
      }
      appendLock.lock();
      try {
        closed = true;
        writer.close();
      } catch (IOException e) {
        LOG.debug("Closing the journal segment in {} failed after its sync", directory, e);
      } finally {
        appendLock.unlock();
      }
      try {
        lock.close();
      } catch (IOException e) {
        LOG.warn("Could not release the journal lock in {} ({})", directory, e.toString());
      }
      if (failure != null) {
        throw failure;
      }
    } finally {
      syncLock.unlock();
      checkpointLock.unlock();
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("the journal in " + directory + " is closed");
    }
  }

  @Override
  public String toString() {
    return "FileJournal[" + directory + "]";
  }
}
