package dev.memhook.core.internal.journal;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.zip.CRC32C;

/**
 * Reads the frames of one segment file in order, finding where it can no longer be read: the
 * reading half of the repair rules in {@link Journal}'s design note. It decides nothing and logs
 * nothing; {@link FileJournal} truncates and reports from its {@link Result}.
 *
 * <p>A frame is readable when its header is plausible ({@link Frame#plausibleHeader}: magic,
 * length, a sequence number above the last readable one and within the segment's bound) and its CRC
 * holds. After an unreadable frame the scanner looks byte by byte for the next readable one; the
 * sequence check keeps it from taking a stale or embedded frame for the next record.
 *
 * <p>Reads through a window of the file, grown for a frame larger than it. Not thread-safe; one
 * scanner reads one segment once.
 */
final class SegmentScanner {

  private static final int WINDOW_BYTES = 256 << 10;

  /**
   * Unreadable bytes {@code [from, to)} of a segment, followed by a readable frame or by the end of
   * a segment that is not the last.
   *
   * @param records how many records were lost there: the gap in sequence numbers, at least 1
   */
  record Damage(long from, long to, long records) {}

  /**
   * What a scan found.
   *
   * @param validEnd where the last readable frame ends (the torn offset, when there is one)
   * @param lastSeq the last readable sequence number, or the segment's first minus 1 if none
   * @param damage unreadable stretches, in file order
   * @param tornAt in the last segment, where an unreadable tail with nothing readable after it
   *     starts; -1 if none
   */
  record Result(long validEnd, long lastSeq, List<Damage> damage, long tornAt) {
    Result {
      damage = List.copyOf(damage);
    }

    long damagedRecords() {
      return damage.stream().mapToLong(Damage::records).sum();
    }
  }

  private final FileChannel channel;
  private final long end;
  private final long firstSeq;
  private final long upperBound;
  private final CRC32C crc = new CRC32C();
  private ByteBuffer window = ByteBuffer.allocate(0);
  private long windowStart;
  private int frameIndex;

  /**
   * @param channel the segment, open for reading
   * @param end how many bytes of it to read
   * @param firstSeq the sequence number in its name
   * @param upperBound the highest sequence number it can hold: the next segment's first minus 1, or
   *     {@link Long#MAX_VALUE} for the last segment
   */
  SegmentScanner(FileChannel channel, long end, long firstSeq, long upperBound) {
    this.channel = channel;
    this.end = end;
    this.firstSeq = firstSeq;
    this.upperBound = upperBound;
  }

  /**
   * Reads the segment to {@code end}, handing {@code sink} (if not null) every readable record
   * above {@code deliverAfter}, in order.
   *
   * @param last whether this is the journal's last segment, whose unreadable tail is torn, not
   *     damaged
   */
  Result scan(boolean last, Consumer<? super Journal.Entry> sink, long deliverAfter)
      throws IOException {
    List<Damage> damage = new ArrayList<>();
    long lastGood = firstSeq - 1;
    long pos = 0;
    while (pos < end) {
      int length = frameAt(pos, lastGood);
      if (length >= 0) {
        lastGood = Frame.seq(window, frameIndex);
        if (sink != null && lastGood > deliverAfter) {
          sink.accept(entryAt(length));
        }
        pos += Frame.size(length);
        continue;
      }
      long next = nextReadable(pos + 1, lastGood);
      if (next < 0) {
        if (last) {
          return new Result(pos, lastGood, damage, pos);
        }
        damage.add(new Damage(pos, end, Math.max(1, upperBound - lastGood)));
        return new Result(pos, lastGood, damage, -1);
      }
      damage.add(new Damage(pos, next, Math.max(1, Frame.seq(window, frameIndex) - lastGood - 1)));
      pos = next;
    }
    return new Result(pos, lastGood, damage, -1);
  }

  /**
   * Hands {@code sink}, in order, every readable record of {@code segments} (the journal's, oldest
   * first) above {@code from} and up to {@code last}. A segment that has disappeared was deleted as
   * applied meanwhile, so it is passed over.
   */
  static void replay(
      List<Segment> segments, long last, long from, Consumer<? super Journal.Entry> sink)
      throws IOException {
    for (int i = 0; i < segments.size(); i++) {
      Segment segment = segments.get(i);
      boolean isLast = i == segments.size() - 1;
      long upperBound = isLast ? last : segments.get(i + 1).firstSeq - 1;
      if (upperBound <= from) {
        continue;
      }
      try (FileChannel channel = FileChannel.open(segment.path, StandardOpenOption.READ)) {
        new SegmentScanner(channel, segment.bytes, segment.firstSeq, upperBound)
            .scan(isLast, sink, from);
      } catch (NoSuchFileException e) {
        // deleted by markApplied, so every record in it was applied
      }
    }
  }

  /** The offset of the first readable frame at or after {@code from}, or -1. */
  private long nextReadable(long from, long after) throws IOException {
    for (long pos = from; pos < end; pos++) {
      if (frameAt(pos, after) >= 0) {
        return pos;
      }
    }
    return -1;
  }

  /**
   * The payload length of the readable frame at {@code pos}, with {@link #frameIndex} set to where
   * the window holds it; -1 if the frame there cannot be read.
   */
  private int frameAt(long pos, long after) throws IOException {
    long available = end - pos;
    if (available < Frame.HEADER_BYTES) {
      return -1;
    }
    int index = view(pos, Frame.HEADER_BYTES);
    int length = Frame.plausibleHeader(window, index, available, after, upperBound);
    if (length < 0) {
      return -1;
    }
    index = view(pos, Frame.size(length));
    if (!Frame.crcHolds(window, index, length, crc)) {
      return -1;
    }
    frameIndex = index;
    return length;
  }

  private Journal.Entry entryAt(int length) {
    int from = frameIndex + Frame.HEADER_BYTES;
    return new Journal.Entry(
        Frame.seq(window, frameIndex),
        Frame.kind(window, frameIndex),
        Arrays.copyOfRange(window.array(), from, from + length));
  }

  /**
   * Makes the window hold bytes {@code [pos, pos+length)}, which lie before {@code end}, and
   * returns the index of {@code pos} in it.
   */
  private int view(long pos, int length) throws IOException {
    if (pos >= windowStart && pos + length <= windowStart + window.limit()) {
      return (int) (pos - windowStart);
    }
    if (window.capacity() < Math.max(length, WINDOW_BYTES)) {
      window = ByteBuffer.allocate(Math.max(length, WINDOW_BYTES));
    }
    window.clear().limit((int) Math.min(window.capacity(), end - pos));
    long at = pos;
    while (window.hasRemaining()) {
      int read = channel.read(window, at);
      if (read < 0) {
        throw new EOFException("the segment ended at " + at + " while reading to " + end);
      }
      at += read;
    }
    window.flip();
    windowStart = pos;
    return 0;
  }
}
