package dev.memhook.core.internal.inject;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.memhook.core.HostileText;
import dev.memhook.testkit.Seeds;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The length accounting every get_memory budget rests on, checked against Jackson itself. */
class JsonTextTest {

  static java.util.stream.LongStream seeds() {
    return Seeds.seeds(20);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void escapedLength_isExactlyWhatTheRenderedJsonTakes_andTheRenderingParsesBackEqual(long seed)
      throws Exception {
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < 200; i++) {
      String s = HostileText.of(random, random.nextInt(300));
      String json = JsonText.render(TextNode.valueOf(s));
      assertEquals(JsonText.quotedLength(s), json.length(), Seeds.replay(seed));
      assertEquals(s, JsonText.JSON.readTree(json).asText(), Seeds.replay(seed));
      assertTrue(
          StandardCharsets.UTF_8.newEncoder().canEncode(json),
          "a rendering is well-formed UTF-16, so UTF-8 can carry it: " + Seeds.replay(seed));
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void cutPoint_fitsTheBudget_andNeverSplitsASurrogatePair(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < 200; i++) {
      String s = HostileText.of(random, 1 + random.nextInt(200));
      int from = random.nextInt(s.length());
      int budget = random.nextInt(60);
      int end = JsonText.cutPoint(s, from, budget);
      assertTrue(JsonText.escapedLength(s, from, end) <= budget, Seeds.replay(seed));
      assertFalse(
          end > from
              && end < s.length()
              && Character.isHighSurrogate(s.charAt(end - 1))
              && Character.isLowSurrogate(s.charAt(end)),
          "cut inside a pair at " + end + ": " + Seeds.replay(seed));
      if (end < s.length()) {
        int next =
            Character.isHighSurrogate(s.charAt(end)) ? Math.min(end + 2, s.length()) : end + 1;
        assertTrue(
            JsonText.escapedLength(s, from, next) > budget,
            "the cut is the longest that fits: " + Seeds.replay(seed));
      }
      String shown = JsonText.abbreviate(s, budget);
      assertTrue(JsonText.quotedLength(shown) - 2 <= budget, Seeds.replay(seed));
      assertTrue(
          shown.equals(s) || shown.isEmpty() || shown.endsWith(JsonText.ELLIPSIS),
          "a shortened string is marked: " + Seeds.replay(seed));
    }
  }

  @Test
  void loneSurrogates_areWrittenAsEscapes_andPairsAsTheyAre() {
    String json = JsonText.render(TextNode.valueOf("a\ud800b\ud83d\ude00c\udc00"));
    assertEquals("\"a\\uD800b\ud83d\ude00c\\uDC00\"", json);
  }

  @Test
  void quotesAndControlCharacters_costTheirEscapes() {
    assertEquals(2 + 2 * 3, JsonText.quotedLength("\"\"\""));
    assertEquals(2 + 6 * 2, JsonText.quotedLength("\u0000\u0001"));
    assertEquals(2 + 2 + 1, JsonText.quotedLength("\nx"));
  }
}
