package dev.memhook.lucene;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.zip.CRC32C;

/**
 * The stored form of a {@link Memory} and a {@link ForgetRecord} in the Lucene store: sealed JSON.
 *
 * <p>The JSON is {@link MemoryRecordJson}'s, shared with the other stores; its reader accepts every
 * record this store writes (up to {@link RecordLimits#MAX_RECORD_CHARS}, which the store checks
 * before it writes).
 *
 * <p>Each record is sealed: {@value #SEAL} and eight hex digits of the CRC-32C of the JSON come
 * before it, and reading checks them. Lucene checks the checksums of a segment's metadata when it
 * opens it, but not those of the stored records it decompresses on each read, so a byte flipped on
 * disk inside a record could otherwise read back as a valid record with another concept, title or
 * content. A sealed record damaged on disk fails to read, and the store reports it unreadable. A
 * record without a seal (written before records were sealed: it starts with the JSON's opening
 * brace) is read unchecked.
 *
 * <p>Thread-safe (its parts are). Decoding throws {@link IllegalArgumentException} for a record
 * this codec did not write or that was damaged; the store turns that into a {@code
 * MemoryStoreException}.
 */
final class MemoryJson {
  /** What starts a sealed record; the CRC-32C of the JSON follows as eight hex digits. */
  static final String SEAL = "#";

  private static final int SEAL_LENGTH = SEAL.length() + 8;

  private final MemoryRecordJson json = new MemoryRecordJson(RecordLimits.MAX_RECORD_CHARS);

  String write(Memory m) {
    return seal(json.write(m));
  }

  Memory readMemory(String stored) {
    return json.readMemory(unseal(stored));
  }

  String write(ForgetRecord r) {
    return seal(json.write(r));
  }

  ForgetRecord readForget(String stored) {
    return json.readForget(unseal(stored));
  }

  /** {@code json} with its seal before it. */
  static String seal(String json) {
    return SEAL + String.format(Locale.ROOT, "%08x", crc(json)) + json;
  }

  /**
   * The JSON of a stored record, its seal checked and removed; an unsealed record as it is.
   *
   * @throws IllegalArgumentException if the record is missing, or its seal is damaged or does not
   *     match the JSON
   */
  static String unseal(String stored) {
    if (stored == null) {
      throw new IllegalArgumentException("stored record is missing");
    }
    if (!stored.startsWith(SEAL)) {
      return stored;
    }
    if (stored.length() < SEAL_LENGTH) {
      throw new IllegalArgumentException("stored record is cut short inside its seal");
    }
    int sealed = 0;
    for (int i = SEAL.length(); i < SEAL_LENGTH; i++) {
      int digit = Character.digit(stored.charAt(i), 16);
      if (digit < 0) {
        throw new IllegalArgumentException("stored record has a damaged seal");
      }
      sealed = (sealed << 4) | digit;
    }
    String json = stored.substring(SEAL_LENGTH);
    if (crc(json) != sealed) {
      throw new IllegalArgumentException(
          "stored record does not match its checksum (CRC-32C): it was damaged on disk");
    }
    return json;
  }

  /** The CRC-32C of {@code text}'s UTF-16 code units, big-endian. */
  private static int crc(String text) {
    CRC32C crc = new CRC32C();
    ByteBuffer chunk = ByteBuffer.allocate(2 * Math.min(text.length(), 4_096));
    for (int i = 0; i < text.length(); ) {
      chunk.clear();
      while (i < text.length() && chunk.hasRemaining()) {
        chunk.putChar(text.charAt(i++));
      }
      chunk.flip();
      crc.update(chunk);
    }
    return (int) crc.getValue();
  }
}
