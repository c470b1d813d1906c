package dev.memhook.core.internal.journal;

import dev.memhook.api.MemoryStoreException;
import java.io.Closeable;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The write-ahead log of Memhook: typed, opaque records, numbered 1, 2, 3, … and kept until their
 * consumer marks them applied.
 *
 * <h2>Design note</h2>
 *
 * <p><b>One log.</b> Capture appends every accepted event here before it is queued; the embedded
 * store's remember, update and forget write through the same log ({@code LoggedStore}). One log
 * gives one sequence order for everything the library accepted, one recovery path and one place to
 * group fsyncs, instead of a journal per feature that each recover, rotate and fsync on their own.
 * The journal therefore knows nothing about its payloads: a record is a kind byte the caller
 * defines and bytes it encoded.
 *
 * <p><b>Durability without fsync.</b> {@link #append} hands the whole frame to the kernel in one
 * {@code write()} and returns. Once that call returns, the bytes are in the operating system's page
 * cache, which belongs to the kernel, not to the process: a SIGKILL, an {@code OutOfMemoryError} or
 * a JVM crash cannot lose them, and the kernel writes them out later. Only a power loss or a kernel
 * crash can, which is what {@link #sync()} (an {@code fdatasync}, shared by all callers waiting at
 * the time) is for. So an append costs a few microseconds, and durability against power loss is
 * paid for once per group of records, when the caller needs it.
 *
 * <p><b>Frame.</b> Each record is one frame, written at the end of the current segment file:
 *
 * <pre>
 * offset  size  field
 *      0     1  magic and version, 0xA1 (format 1)
 *      1     4  payload length n, big-endian int, 0 ≤ n ≤ 64 MiB
 *      5     4  CRC32C over bytes 9 .. 18+n (sequence, kind, payload)
 *      9     8  sequence number, big-endian long
 *     17     1  kind
 *     18     n  payload
 * </pre>
 *
 * <p>Segments are files {@code journal-<first sequence, 20 digits>.log}, so the order of their
 * names is the order of their records; a segment is closed when the next frame would take it past
 * the segment size (a frame larger than that gets a segment of its own). The checkpoint, {@code
 * journal.checkpoint}, holds the highest sequence applied; whole segments at or below it are
 * deleted. {@code journal.lock} is held while the journal is open, so one service owns it.
 *
 * <p><b>Repair on open.</b> A frame that is incomplete, has a bad magic byte, length or CRC, or a
 * sequence number not above the one before it cannot be read. At the end of the last segment, with
 * nothing readable after it, it is an append that never completed (the process died inside {@code
 * write()}; its caller never got a sequence number) or, after a power loss, one that was never
 * synced, so the segment is truncated there (a WARN names file and offset) and appends continue
 * after the last good record. Anywhere else (a readable record follows in the same segment, or it
 * is in an older segment) it is damage: the unreadable bytes are skipped up to the next readable
 * frame, an ERROR names file and offsets, the lost records are counted in {@link
 * #damagedRecords()}, and open does not fail. A missing or unreadable checkpoint means everything
 * in the remaining segments is replayed; consumers are idempotent, so that is safe.
 *
 * <h2>Contract</h2>
 *
 * <p>Thread-safe; do not synchronize on a journal. No method accepts or returns null. I/O failures
 * throw {@link MemoryStoreException}. After {@link #close()}, {@link #append}, {@link #markApplied}
 * and {@link #replay} throw {@link IllegalStateException}, {@link #sync()} does nothing (close
 * synced) and the statistics keep their last values.
 *
 * <p>Lifecycle and ordering: open, then call {@link #replay} once, before the first append, to hand
 * the consumer everything accepted but not applied before the last shutdown or crash; then append.
 * Sequence numbers are unique and increase across segments and reopenings; within one journal they
 * are contiguous except where records were lost to damage. The consumer calls {@link #markApplied}
 * as it applies records, in sequence order.
 */
public sealed interface Journal extends Closeable permits FileJournal, MemoryJournal {

  /**
   * The segment size of {@link #open(Path)}: large enough that rotation is rare, small enough to be
   * deleted soon after its records are applied.
   */
  long DEFAULT_SEGMENT_BYTES = 64L << 20;

  /** The largest payload {@link #append} accepts: 64 MiB. */
  int MAX_PAYLOAD_BYTES = Frame.MAX_PAYLOAD_BYTES;

  /**
   * Opens the journal in {@code directory} with {@link #DEFAULT_SEGMENT_BYTES}.
   *
   * @see #open(Path, long)
   */
  static Journal open(Path directory) {
    return open(directory, DEFAULT_SEGMENT_BYTES);
  }

  /**
   * Opens (creating if needed) the journal in {@code directory}, locks it, reads its checkpoint,
   * scans its segments and repairs a torn tail (see the design note).
   *
   * @param segmentBytes the size after which a new segment file is started; at least 4 KiB
   * @throws IllegalArgumentException if {@code segmentBytes} is below 4 KiB
   * @throws MemoryStoreException if another journal (in this JVM or another process) holds the
   *     directory, or the directory cannot be created, locked or read
   */
  static Journal open(Path directory, long segmentBytes) {
    return JournalOpener.open(directory, segmentBytes);
  }

  /**
   * A journal held on the heap, for services without a directory. It behaves like {@link
   * #open(Path)} except that nothing survives the process: {@link #sync()} has nothing to force,
   * replay after a restart finds nothing, and {@link #segmentCount()} and {@link #damagedRecords()}
   * are 0. It takes no lock.
   */
  static Journal inMemory() {
    return new MemoryJournal();
  }

  /**
   * Appends one record and returns its sequence number, without waiting for the disk: once this
   * returns the record survives the death of the process, and after the next {@link #sync()} a
   * power loss too.
   *
   * @param kind what the payload is; the journal does not interpret it
   * @param payload the record's bytes, copied before this returns; at most {@link
   *     #MAX_PAYLOAD_BYTES}
   * @throws IllegalArgumentException if the payload is larger than {@link #MAX_PAYLOAD_BYTES}
   * @throws MemoryStoreException if the write failed (the record was not appended; retry, and if it
   *     keeps failing check disk space and permissions)
   */
  long append(byte kind, byte[] payload);

  /**
   * Forces every record appended before this call to the disk. Concurrent callers share one force:
   * a caller whose records a force in progress or finished already covers does not force again.
   *
   * @throws MemoryStoreException if the disk could not be forced (retry; the records are still in
   *     the journal)
   */
  void sync();

  /** The highest sequence number that a {@link #sync()} has forced to the disk; 0 if none. */
  long syncedThrough();

  /**
   * Records that every record with a sequence number up to {@code seq} has been applied, so it is
   * not replayed again, and deletes the segments that hold only such records. A {@code seq} at or
   * below {@link #appliedThrough()} is ignored. The checkpoint is written on each call that moves
   * it; a consumer that applies records one by one should mark them in batches.
   *
   * @throws IllegalArgumentException if {@code seq} is negative or above {@link #lastSequence()}
   * @throws MemoryStoreException if the checkpoint could not be written (nothing is lost: the
   *     records are replayed again on the next open; retry)
   */
  void markApplied(long seq);

  /**
   * Hands {@code consumer}, in sequence order on the calling thread, every record above {@link
   * #appliedThrough()} up to the {@link #lastSequence()} at the time of the call. Call it once
   * after opening and before the first append; records appended while it runs are not included.
   * Entries are immutable; the consumer may call {@link #markApplied} from inside, and its
   * exceptions propagate (records after the failing one are not delivered).
   *
   * @throws MemoryStoreException if a segment could not be read
   */
  void replay(Consumer<? super Entry> consumer);

  /**
   * Removes every applied record from the files: starts a new segment if the current one holds an
   * applied record, and deletes every segment whose records are all applied. A segment that also
   * holds a record not yet applied is deleted once that record is applied. What forgetting needs: a
   * forgotten observation's event must not stay readable in the journal.
   */
  void eraseApplied();

  /**
   * Bytes the journal's records take: the segments' sizes on disk, or the frames held in memory.
   */
  long sizeBytes();

  /** How many segment files the journal has (the current one included); 0 in memory. */
  int segmentCount();

  /** The sequence number of the last record appended, in this or an earlier run; 0 if none. */
  long lastSequence();

  /**
   * The highest sequence number marked applied, as read from the checkpoint or since; 0 if none.
   */
  long appliedThrough();

  /**
   * How many records the scan on open found unreadable and skipped (a torn tail is not counted).
   */
  long damagedRecords();

  /** Syncs, releases the directory lock and closes the files. Idempotent. */
  @Override
  void close();

  /**
   * One record, as {@link #replay} hands it out. Immutable: the payload is copied in, and {@link
   * #payload()} returns a fresh copy (call it once); equality compares the payload's contents.
   *
   * @param seq the record's sequence number, at least 1
   * @param kind the kind byte given to {@link #append}
   * @param payload the bytes given to {@link #append}
   */
  record Entry(long seq, byte kind, byte[] payload) {

    /** Copies {@code payload}. */
    public Entry {
      if (seq < 1) {
        throw new IllegalArgumentException("seq must be at least 1, got " + seq);
      }
      payload = Objects.requireNonNull(payload, "payload").clone();
    }

    /** A copy of the payload. */
    @Override
    public byte[] payload() {
      return payload.clone();
    }

    /** The payload's length, without a copy. */
    public int payloadLength() {
      return payload.length;
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Entry that
          && seq == that.seq
          && kind == that.kind
          && Arrays.equals(payload, that.payload);
    }

    @Override
    public int hashCode() {
      return Long.hashCode(seq) * 31 * 31 + kind * 31 + Arrays.hashCode(payload);
    }

    @Override
    public String toString() {
      return "Entry[seq=" + seq + ", kind=" + kind + ", payload=" + payload.length + " bytes]";
    }
  }
}
