package dev.memhook.core.internal.journal;

import static java.nio.file.StandardOpenOption.CREATE_NEW;
import static java.nio.file.StandardOpenOption.WRITE;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * Writes frames to the current segment file: each one encoded into a reused direct buffer and
 * handed to the kernel with one positional {@code write()}, so no frame is split or interleaved
 * (the caller serialises calls) and the JDK need not copy a heap buffer first.
 *
 * <p>A {@link FileChannel} closes itself when the thread using it is interrupted, perhaps after
 * part of a frame was written. The host's threads may carry an interrupt, so the caller clears the
 * flag first; an interrupt that arrives during the write is survived by writing the frame again,
 * over the same place, through a new channel.
 *
 * <p>Not thread-safe: {@link FileJournal} calls it under its append lock.
 */
final class SegmentWriter {

  /** Frame buffers up to this size are kept for the next append; larger ones are one-off. */
  private static final int KEPT_BUFFER_BYTES = 1 << 20;

  private final CRC32C crc = new CRC32C();
  private ByteBuffer buffer = ByteBuffer.allocateDirect(64 << 10);
  private Path file;
  private FileChannel channel;

  /** Writes to {@code file}, which exists. */
  SegmentWriter(Path file) throws IOException {
    this.file = file;
    this.channel = FileChannel.open(file, WRITE);
  }

  /**
   * Writes the frame of one record at {@code position} of the current file and returns whether an
   * interrupt arrived meanwhile (the flag is then cleared; the caller restores it).
   */
  boolean write(long position, long seq, byte kind, byte[] payload) throws IOException {
    ByteBuffer frame = buffer(Frame.size(payload.length));
    Frame.encode(frame, seq, kind, payload, crc);
    try {
      writeFully(frame, position);
      return false;
    } catch (ClosedChannelException e) {
      boolean interrupted = Thread.interrupted();
      channel = FileChannel.open(file, WRITE);
      writeFully(frame.position(0), position);
      return interrupted;
    }
  }

  private void writeFully(ByteBuffer frame, long position) throws IOException {
    long at = position;
    while (frame.hasRemaining()) {
      at += channel.write(frame, at);
    }
  }

  private ByteBuffer buffer(int frameBytes) {
    if (frameBytes <= buffer.capacity()) {
      return buffer;
    }
    if (frameBytes > KEPT_BUFFER_BYTES) {
      return ByteBuffer.allocateDirect(frameBytes);
    }
    buffer =
        ByteBuffer.allocateDirect(
            Math.min(KEPT_BUFFER_BYTES, Math.max(frameBytes, 2 * buffer.capacity())));
    return buffer;
  }

  /**
   * Creates {@code next} and writes there from now on. If it cannot be created, nothing changes.
   * The old file is closed; its data is in the page cache, and sync forces it by name.
   */
  void switchTo(Path next) throws IOException {
    FileChannel opened = FileChannel.open(next, CREATE_NEW, WRITE);
    FileChannel old = channel;
    file = next;
    channel = opened;
    old.close();
  }

  void close() throws IOException {
    channel.close();
  }
}
