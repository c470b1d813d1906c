package dev.memhook.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which paths are scopes: the documented pattern, checked without a regular expression. */
class ScopeTest {

  /** The pattern the class documents, as a regular expression: the oracle of the seeded test. */
  private static final Pattern DOCUMENTED =
      Pattern.compile("[A-Za-z0-9._@+-]{1,64}(/[A-Za-z0-9._@+-]{1,64}){0,7}");

  private static final String ALPHABET = "a/Z9._@+-/ :é\u0000";

  @Test
  void theCheck_agreesWithTheDocumentedPattern_onSeededRandomPaths() {
    long seed = System.nanoTime();
    System.out.println("ScopeTest seed " + seed);
    Random random = new Random(seed);
    for (int n = 0; n < 20_000; n++) {
      StringBuilder path = new StringBuilder();
      int segments = random.nextInt(11);
      for (int s = 0; s < segments; s++) {
        if (s > 0 || random.nextInt(10) == 0) {
          path.append('/');
        }
        int length = random.nextInt(6) == 0 ? 60 + random.nextInt(8) : random.nextInt(4);
        for (int i = 0; i < length; i++) {
          // mostly scope characters, so that one bad character or one bad length decides
          path.append(
              random.nextInt(12) == 0
                  ? ALPHABET.charAt(random.nextInt(ALPHABET.length()))
                  : ALPHABET.charAt(2 + random.nextInt(7)));
        }
      }
      String p = path.toString();
      boolean expected = DOCUMENTED.matcher(p).matches();
      if (expected) {
        assertEquals(p, new Scope(p).value(), "seed " + seed);
      } else {
        assertThrows(IllegalArgumentException.class, () -> new Scope(p), "seed " + seed + ": " + p);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"default", "acme/alice/checkout-service", "a/b/c/d/e/f/g/h", "@x+y.z_-"})
  void paths_ofOneToEightSegments_areScopes(String path) {
    assertEquals(path, new Scope(path).value());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"", "/", "a/", "/a", "a//b", "a/b/c/d/e/f/g/h/i", "a b", "a:b", "é", "a\\b"})
  void otherPaths_areRefused(String path) {
    assertThrows(IllegalArgumentException.class, () -> new Scope(path));
  }

  @Test
  void aSegmentHoldsAtMost64Characters() {
    assertEquals("a".repeat(64) + "/b", new Scope("a".repeat(64) + "/b").value());
    assertThrows(IllegalArgumentException.class, () -> new Scope("a".repeat(65)));
    assertThrows(IllegalArgumentException.class, () -> new Scope("b/" + "a".repeat(10_000_000)));
  }
}
