package dev.memhook.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import javax.crypto.Cipher;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The key and the format of the events the no-JVM hook ({@code memhook-hook}, written by {@code
 * memhook install}) spools while the server is down: {@code openssl enc -aes-256-cbc -pbkdf2 -iter
 * 1 -md sha256 -salt -pass file:<store>/}{@value #KEY_FILE}, that is {@code Salted__}, an 8-byte
 * salt, then AES-256-CBC with PKCS#7 padding under a key and IV derived from the passphrase and
 * salt by PBKDF2-HMAC-SHA256 (one iteration, 48 bytes: the key, then the IV).
 *
 * <h2>Design note</h2>
 *
 * A shell script cannot run the store's redaction, and whatever a port of its rules to {@code sed}
 * missed would stay on the disk in clear. So the script encrypts instead, and the payload is
 * redacted when the server decrypts it ({@link HookSpool#drain}), before anything else sees it. The
 * key sits beside the spool, readable by its owner only: this keeps secrets out of the spool for
 * whoever reads the spool's files (a backup, a copied directory, another user, an indexer) without
 * the key, not from the store's owner, who can run the server anyway.
 *
 * <p>One PBKDF2 iteration, not the thousands a password needs: the passphrase is 256 random bits,
 * not something a person chose, so stretching it adds no work for an attacker worth having and
 * would cost every spooled event a few milliseconds of the agent's time. The salt still gives every
 * file its own key and IV.
 *
 * <p>Stateless and thread-safe.
 */
final class SpoolCipher {
  static final String KEY_FILE = "spool.key";

  private static final byte[] MAGIC = "Salted__".getBytes(StandardCharsets.US_ASCII);
  private static final int SALT_BYTES = 8;
  private static final int ITERATIONS = 1;

  private SpoolCipher() {}

  /**
   * The passphrase in {@code store}'s key file, made first (32 random bytes as hex, readable by its
   * owner only) when there is none; an existing key is never replaced, since events may be spooled
   * under it.
   */
  static String ensureKey(Path store) throws IOException {
    Path file = store.resolve(KEY_FILE);
    if (!Files.exists(file)) {
      byte[] random = new byte[32];
      new SecureRandom().nextBytes(random);
      String key = HexFormat.of().formatHex(random) + "\n";
      Files.createDirectories(store);
      try {
        Files.writeString(file, "", StandardOpenOption.CREATE_NEW);
        restrict(file);
        Files.writeString(file, key, StandardOpenOption.TRUNCATE_EXISTING);
      } catch (FileAlreadyExistsException raced) {
        // another install made it meanwhile: keep theirs
      }
    }
    return passphrase(store);
  }

  /**
   * The passphrase in {@code store}'s key file, as openssl's {@code -pass file:} reads it: the
   * first line.
   *
   * @throws IOException if there is no key file
   */
  static String passphrase(Path store) throws IOException {
    String text = Files.readString(store.resolve(KEY_FILE), StandardCharsets.UTF_8);
    int end = text.indexOf('\n');
    return end < 0 ? text : text.substring(0, end);
  }

  /**
   * The plain bytes of {@code sealed}.
   *
   * @throws IllegalArgumentException if it is not in this format, or its padding does not check out
   *     under {@code passphrase}: a wrong key or damaged bytes, mostly. The format has no
   *     authentication tag, so about one wrong key in 256 decrypts to valid padding and returns
   *     bytes that are not the plain text; the caller's parse of them refuses those.
   */
  static byte[] open(byte[] sealed, String passphrase) {
    if (sealed.length < MAGIC.length + SALT_BYTES + 16
        || !Arrays.equals(sealed, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
      throw new IllegalArgumentException("not an openssl-encrypted spool file");
    }
    byte[] salt = Arrays.copyOfRange(sealed, MAGIC.length, MAGIC.length + SALT_BYTES);
    try {
      byte[] derived = derive(passphrase, salt);
      Cipher aes = Cipher.getInstance("AES/CBC/PKCS5Padding");
      aes.init(
          Cipher.DECRYPT_MODE,
          new SecretKeySpec(derived, 0, 32, "AES"),
          new IvParameterSpec(derived, 32, 16));
      return aes.doFinal(
          sealed, MAGIC.length + SALT_BYTES, sealed.length - MAGIC.length - SALT_BYTES);
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(
          "a spool file does not decrypt with the store's key (" + e.getMessage() + ")", e);
    }
  }

  /** {@code plain} sealed as the script seals it, with a fresh salt; for tests and tools. */
  static byte[] seal(byte[] plain, String passphrase) {
    byte[] salt = new byte[SALT_BYTES];
    new SecureRandom().nextBytes(salt);
    try {
      byte[] derived = derive(passphrase, salt);
      Cipher aes = Cipher.getInstance("AES/CBC/PKCS5Padding");
      aes.init(
          Cipher.ENCRYPT_MODE,
          new SecretKeySpec(derived, 0, 32, "AES"),
          new IvParameterSpec(derived, 32, 16));
      byte[] body = aes.doFinal(plain);
      byte[] out = new byte[MAGIC.length + SALT_BYTES + body.length];
      System.arraycopy(MAGIC, 0, out, 0, MAGIC.length);
      System.arraycopy(salt, 0, out, MAGIC.length, SALT_BYTES);
      System.arraycopy(body, 0, out, MAGIC.length + SALT_BYTES, body.length);
      return out;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-256-CBC is missing from this JDK", e);
    }
  }

  private static byte[] derive(String passphrase, byte[] salt) throws GeneralSecurityException {
    PBEKeySpec spec = new PBEKeySpec(passphrase.toCharArray(), salt, ITERATIONS, 48 * 8);
    try {
      return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
    } finally {
      spec.clearPassword();
    }
  }

  /** Owner-only permissions where the file system has POSIX permissions. */
  static void restrict(Path file) throws IOException {
    try {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    } catch (UnsupportedOperationException notPosix) {
      // Windows: the user's profile directory's ACL applies
    }
  }
}
