package dev.memhook.lucene;

import dev.memhook.api.MemoryId;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals a memory's stored record with the memory's own key ({@link RecordKeys}), so that destroying
 * the key makes the record in the segment files unreadable.
 *
 * <p>A sealed record is: a version byte ({@value #VERSION}), the memory id's length and its ASCII
 * bytes (ids are not secret: the index holds them as terms; the reader needs the id to find the
 * key), a 12-byte random nonce, and the AES-GCM encryption of the record's text (UTF-8) with a
 * 128-bit tag, the id as associated data: a record moved under another id, or damaged on disk,
 * fails to open instead of reading wrong. A key seals the few versions of one memory, far below the
 * number of random nonces GCM allows one key.
 *
 * <p>Thread-safe: each thread uses its own {@link Cipher}.
 */
final class RecordCipher {
  static final byte VERSION = 1;
  private static final int NONCE_BYTES = 12;
  private static final int TAG_BITS = 128;

  private final SecureRandom random = new SecureRandom();
  private final ThreadLocal<Cipher> ciphers =
      ThreadLocal.withInitial(
          () -> {
            try {
              return Cipher.getInstance("AES/GCM/NoPadding");
            } catch (GeneralSecurityException e) {
              throw new IllegalStateException("every Java runtime has AES/GCM", e);
            }
          });

  /** {@code text}, the record of memory {@code id}, sealed with {@code key}. */
  byte[] seal(MemoryId id, byte[] key, String text) {
    byte[] idBytes = id.value().getBytes(StandardCharsets.US_ASCII);
    byte[] nonce = new byte[NONCE_BYTES];
    random.nextBytes(nonce);
    byte[] plain = text.getBytes(StandardCharsets.UTF_8);
    try {
      Cipher cipher = ciphers.get();
      cipher.init(
          Cipher.ENCRYPT_MODE,
          new SecretKeySpec(key, "AES"),
          new GCMParameterSpec(TAG_BITS, nonce));
      cipher.updateAAD(idBytes);
      int header = 2 + idBytes.length + NONCE_BYTES;
      byte[] out = new byte[header + cipher.getOutputSize(plain.length)];
      ByteBuffer.wrap(out).put(VERSION).put((byte) idBytes.length).put(idBytes).put(nonce);
      cipher.doFinal(plain, 0, plain.length, out, header);
      return out;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("sealing a record failed: " + e.getMessage(), e);
    }
  }

  /**
   * The id a sealed record names.
   *
   * @throws IllegalArgumentException if {@code sealed} is not a sealed record this class wrote
   */
  static MemoryId id(byte[] sealed) {
    if (sealed.length < 2 || sealed[0] != VERSION) {
      throw new IllegalArgumentException(
          "stored record has an unknown seal (version "
              + (sealed.length == 0 ? "none" : sealed[0])
              + "); it is damaged or was written by a newer Memhook");
    }
    int length = sealed[1] & 0xff;
    if (sealed.length < 2 + length + NONCE_BYTES) {
      throw new IllegalArgumentException("stored record is cut short inside its seal");
    }
    return MemoryId.of(new String(sealed, 2, length, StandardCharsets.US_ASCII));
  }

  /**
   * The text of a record {@link #seal} sealed with {@code key}.
   *
   * @throws IllegalArgumentException if it does not open with {@code key}: damaged, or sealed with
   *     another key
   */
  String open(byte[] sealed, byte[] key) {
    MemoryId id = id(sealed);
    int idLength = sealed[1] & 0xff;
    int header = 2 + idLength + NONCE_BYTES;
    try {
      Cipher cipher = ciphers.get();
      cipher.init(
          Cipher.DECRYPT_MODE,
          new SecretKeySpec(key, "AES"),
          new GCMParameterSpec(TAG_BITS, sealed, 2 + idLength, NONCE_BYTES));
      cipher.updateAAD(sealed, 2, idLength);
      byte[] plain = cipher.doFinal(sealed, header, sealed.length - header);
      return new String(plain, StandardCharsets.UTF_8);
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(
          "stored record of " + id + " does not open with its key: it was damaged on disk", e);
    }
  }
}
