package dev.memhook.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which texts are memory ids: the documented pattern, checked without a regular expression. */
class MemoryIdTest {

  /** The pattern the class documents, as a regular expression: the oracle of the seeded test. */
  private static final Pattern DOCUMENTED = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

  private static final String ALPHABET = "aZ09._:-/ éé\u00a0\u0660\uff10\ud83d\ude00\u0000\n";

  @Test
  void theCheck_agreesWithTheDocumentedPattern_onSeededRandomTexts() {
    long seed = System.nanoTime();
    System.out.println("MemoryIdTest seed " + seed);
    Random random = new Random(seed);
    for (int n = 0; n < 20_000; n++) {
      int length = random.nextInt(10) == 0 ? 120 + random.nextInt(16) : random.nextInt(8);
      StringBuilder text = new StringBuilder(length);
      for (int i = 0; i < length; i++) {
        // mostly id characters, so that long valid texts are common and one bad character decides
        text.append(
            random.nextInt(8) == 0
                ? ALPHABET.charAt(random.nextInt(ALPHABET.length()))
                : ALPHABET.charAt(random.nextInt(8)));
      }
      String t = text.toString();
      assertEquals(
          DOCUMENTED.matcher(t).matches(), MemoryId.isValid(t), "seed " + seed + ": '" + t + "'");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"a", "mem_8k2v", "A-Z.0:9_", "Z", "9", "-", ":"})
  void idCharacters_makeAnId(String text) {
    assertTrue(MemoryId.isValid(text));
    assertEquals(text, MemoryId.of(text).value());
  }

  @ParameterizedTest
  @ValueSource(strings = {"", " ", "a b", "a/b", "é", "\uff10", "\u0660", "a\n", "\ud83d\ude00"})
  void otherCharacters_orNothing_makeNoId(String text) {
    assertFalse(MemoryId.isValid(text));
    assertThrows(IllegalArgumentException.class, () -> MemoryId.of(text));
  }

  @Test
  void anIdHoldsAtMost128Characters() {
    assertTrue(MemoryId.isValid("a".repeat(MemoryId.MAX_LENGTH)));
    assertFalse(MemoryId.isValid("a".repeat(MemoryId.MAX_LENGTH + 1)));
    assertFalse(MemoryId.isValid("a".repeat(10_000_000)));
  }

  @Test
  void null_isNoId_andTheConstructorRefusesIt() {
    assertFalse(MemoryId.isValid(null));
    assertThrows(NullPointerException.class, () -> MemoryId.of(null));
  }
}
