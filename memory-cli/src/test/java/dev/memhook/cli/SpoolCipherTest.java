package dev.memhook.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SpoolCipher: openssl's salted PBKDF2 format read back, a wrong key never giving the plain text, a
 * key never replaced.
 */
class SpoolCipherTest {
  @TempDir Path store;

  @Test
  void sealed_opensWithTheKey_andAWrongKeyOrOtherBytesAreRefused() throws Exception {
    String key = SpoolCipher.ensureKey(store);
    byte[] plain = "{\"prompt\":\"é ✓\"}".getBytes(StandardCharsets.UTF_8);
    byte[] sealed = SpoolCipher.seal(plain, key);
    assertEquals("Salted__", new String(sealed, 0, 8, StandardCharsets.US_ASCII));
    assertArrayEquals(plain, SpoolCipher.open(sealed, key));
    // no authentication tag: a wrong key is refused by its padding, but about one salt in 256
    // gives valid padding and other bytes; what it must never give is the plain text
    try {
      assertFalse(Arrays.equals(plain, SpoolCipher.open(sealed, "f".repeat(64))));
    } catch (IllegalArgumentException refusedByPadding) {
      assertTrue(refusedByPadding.getMessage().contains("does not decrypt with the store's key"));
    }
    assertThrows(IllegalArgumentException.class, () -> SpoolCipher.open(plain, key));
  }

  @Test
  void ensureKey_makesOneOnce_andKeepsIt() throws Exception {
    String first = SpoolCipher.ensureKey(store);
    assertEquals(64, first.length());
    assertEquals(first, SpoolCipher.ensureKey(store));
    assertEquals(first + "\n", Files.readString(store.resolve(SpoolCipher.KEY_FILE)));
  }
}
