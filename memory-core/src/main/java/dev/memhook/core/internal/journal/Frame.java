package dev.memhook.core.internal.journal;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The record frame of the journal (laid out in {@link Journal}'s design note): writing one into a
 * buffer and checking one read back. Stateless; the caller owns the buffers and the {@link CRC32C}.
 */
final class Frame {

  /** Magic and format version in one byte; a zeroed or foreign region does not start with it. */
  static final byte MAGIC = (byte) 0xA1;

  /** Magic, length, CRC, sequence and kind. */
  static final int HEADER_BYTES = 1 + 4 + 4 + 8 + 1;

  static final int MAX_PAYLOAD_BYTES = 64 << 20;

  /** Where the CRC-covered part (sequence, kind, payload) starts. */
  static final int CHECKED_FROM = 1 + 4 + 4;

  private Frame() {}

  /** The frame's size for a payload of {@code payloadBytes}. */
  static int size(int payloadBytes) {
    return HEADER_BYTES + payloadBytes;
  }

  /**
   * Writes the frame of one record into {@code target} from its position, leaving it flipped for
   * writing out: position 0, limit at the frame's end. {@code target} must have room.
   */
  static void encode(ByteBuffer target, long seq, byte kind, byte[] payload, CRC32C crc) {
    target.clear();
    target.put(MAGIC).putInt(payload.length).putInt(0).putLong(seq).put(kind).put(payload);
    target.flip();
    crc.reset();
    crc.update(target.position(CHECKED_FROM));
    target.putInt(5, (int) crc.getValue()).position(0);
  }

  /**
   * Whether {@code bytes[from .. from+HEADER_BYTES)} starts a plausible frame: the magic byte, a
   * payload length within bounds that fits before {@code available} bytes end, and a sequence
   * number in {@code (after, atMost]}. Returns the payload length, or -1.
   */
  static int plausibleHeader(ByteBuffer bytes, int from, long available, long after, long atMost) {
    if (available < HEADER_BYTES || bytes.get(from) != MAGIC) {
      return -1;
    }
    int length = bytes.getInt(from + 1);
    if (length < 0 || length > MAX_PAYLOAD_BYTES || length > available - HEADER_BYTES) {
      return -1;
    }
    long seq = seq(bytes, from);
    return seq > after && seq <= atMost ? length : -1;
  }

  /** Whether the CRC of the whole frame at {@code from} with {@code length} payload bytes holds. */
  static boolean crcHolds(ByteBuffer bytes, int from, int length, CRC32C crc) {
    crc.reset();
    crc.update(bytes.array(), bytes.arrayOffset() + from + CHECKED_FROM, 8 + 1 + length);
    return (int) crc.getValue() == bytes.getInt(from + 5);
  }

  static long seq(ByteBuffer bytes, int from) {
    return bytes.getLong(from + CHECKED_FROM);
  }

  static byte kind(ByteBuffer bytes, int from) {
    return bytes.get(from + CHECKED_FROM + 8);
  }
}
