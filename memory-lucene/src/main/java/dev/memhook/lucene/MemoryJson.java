package dev.memhook.lucene;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.zip.CRC32C;
import org.apache.lucene.document.Document;
import org.apache.lucene.util.BytesRef;

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
 * <p>A memory's record is also encrypted with the memory's own key ({@link RecordKeys}, {@link
 * RecordCipher}) and stored in {@link IndexSchema#F_RECORD}, so that a forget, which destroys the
 * key, leaves nothing readable of it in the segment files; a record stored before records were
 * encrypted is plain sealed JSON in {@link IndexSchema#F_JSON}, read as before. Audit records hold
 * no memory text and stay plain.
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
  private final RecordKeys keys;
  private final RecordCipher cipher = new RecordCipher();

  MemoryJson(RecordKeys keys) {
    this.keys = keys;
  }

  /**
   * The stored record of {@code m}: its JSON encrypted with its key, made if it has none. Call it
   * under the write lock, which a forget destroys keys under, so that no record is sealed with a
   * key destroyed before the record is written.
   */
  byte[] write(Memory m) {
    return cipher.seal(m.id(), keys.keyFor(m.id()), json.write(m));
  }

  /**
   * The memory whose stored fields ({@link IndexSchema#F_RECORD} or the older {@link
   * IndexSchema#F_JSON}) are {@code stored}; empty if its key was destroyed by this store: the
   * memory was forgotten, and a searcher opened before the forget still sees its document.
   *
   * @throws IllegalArgumentException if the record is missing, damaged, or not this memory's, or
   *     its key is missing and was not destroyed by this store
   */
  Optional<Memory> readMemory(Document stored) {
    BytesRef sealed = stored.getBinaryValue(IndexSchema.F_RECORD);
    if (sealed == null) {
      return Optional.of(json.readMemory(unseal(stored.get(IndexSchema.F_JSON))));
    }
    byte[] bytes = Arrays.copyOfRange(sealed.bytes, sealed.offset, sealed.offset + sealed.length);
    MemoryId id = RecordCipher.id(bytes);
    Optional<byte[]> key = keys.existing(id);
    if (key.isEmpty()) {
      if (keys.destroyed(id)) {
        return Optional.empty();
      }
      throw new IllegalArgumentException(
          "the record key of " + id + " is missing: the key files were damaged or lost");
    }
    Memory m = json.readMemory(cipher.open(bytes, key.get()));
    if (!m.id().equals(id)) {
      throw new IllegalArgumentException(
          "stored record names " + m.id() + " but is sealed as " + id);
    }
    return Optional.of(m);
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
