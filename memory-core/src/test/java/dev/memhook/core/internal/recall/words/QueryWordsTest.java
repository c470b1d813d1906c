package dev.memhook.core.internal.recall.words;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.core.HostileText;
import dev.memhook.lucene.internal.analysis.SimpleTokens;
import dev.memhook.testkit.Seeds;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The words a query is about, as the focus a hook names for its messages and as terms. */
class QueryWordsTest {

  @Test
  void focus_keepsEachContentWordOnce_inOrder_withoutStopWordsChatterOrPlurals() {
    assertEquals(
        "prod repo pool size set",
        QueryWords.focus(
            List.of("Can you remind me what's the prod Repo pool size when POOL_SIZE isn't set?")));
    assertEquals(
        "staging models file called",
        QueryWords.focus(List.of("staging models", "what should the model file be called")),
        "a plural and its singular are one term; the first spelling is kept");
  }

  @Test
  void focus_stopsAtItsTermCap_andReadsOnlyTheHeadOfALongMessage() {
    StringBuilder many = new StringBuilder();
    for (int i = 0; i < 40; i++) {
      many.append("word").append((char) ('a' + i % 26)).append((char) ('a' + i / 26)).append(' ');
    }
    assertEquals(
        QueryWords.MAX_TERMS, QueryWords.focus(List.of(many.toString())).split(" ").length);
    String late = "x ".repeat(QueryWords.SCANNED_CHARS) + "kubernetes";
    assertEquals("", QueryWords.focus(List.of(late)), "a word past the head is not read");
    assertEquals("", QueryWords.focus(List.of("a".repeat(QueryWords.MAX_WORD_CHARS + 1))));
    assertTrue(
        QueryWords.focus(List.of(many.toString().repeat(50))).length()
            <= QueryWords.MAX_FOCUS_CHARS);
  }

  @Test
  void terms_readAFocusAsFocusWroteIt() {
    assertEquals(List.of("pool", "size", "model"), QueryWords.terms("pool size models model"));
    assertEquals(List.of(), QueryWords.terms("the and please"));
  }

  @Test
  void aWordAndItsPlural_areOneTerm_butAWordEndingInDoubleSIsNot() {
    assertEquals("model", QueryWords.term("models"));
    assertEquals("class", QueryWords.term("class"));
    assertEquals("bus", QueryWords.term("bus"), "a word of three letters is kept as it is");
  }

  @Test
  void aCompoundsParts_areWrittenIntoTheFocusBesideIt_sinceALowerCasedFocusLosesWhereTheyBegin() {
    String focus = QueryWords.focus(List.of("bump PoolSize for the timeout"));
    assertEquals("bump poolsize pool size timeout", focus);
    assertEquals(List.of("bump", "poolsize", "pool", "size", "timeout"), QueryWords.terms(focus));
  }

  static LongStream seeds() {
    return Seeds.seeds(20);
  }

  /**
   * Whatever the messages (hostile text of any length, a word repeated past every bound), their
   * focus keeps its bounds and names no chatter, and {@link QueryWords#terms} reads it back (the
   * hook writes a focus and the summary call reads it) as its own words and their parts only, the
   * first word first. A lower-cased compound may read back with a part the focus did not name
   * ("poolsize2" gives "poolsize"), so the two lists are not always equal.
   */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void anyMessages_giveAFocusWithinItsBounds_thatTermsReadsBackAsItsOwnWords(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    String where = Seeds.replay(seed);
    List<String> messages = new ArrayList<>();
    for (int i = 1 + r.nextInt(3); i > 0; i--) {
      int length = r.nextInt(r.nextBoolean() ? 500 : 50_000);
      messages.add(
          r.nextInt(5) == 0 ? "words ".repeat(length / 6) : HostileText.storable(r, length));
    }
    String focus = QueryWords.focus(messages);
    assertTrue(focus.length() <= QueryWords.MAX_FOCUS_CHARS, where);
    List<String> words = focus.isEmpty() ? List.of() : List.of(focus.split(" "));
    assertTrue(words.size() <= QueryWords.MAX_TERMS, where);
    List<String> terms = QueryWords.terms(focus);
    assertTrue(terms.size() <= QueryWords.MAX_TERMS, where);
    if (!words.isEmpty()) {
      assertEquals(QueryWords.term(words.get(0)), terms.get(0), where);
    }
    // what terms reads is the focus's own words and their parts, nothing else
    Set<String> read = new HashSet<>();
    words.forEach(w -> SimpleTokens.tokenize(w).forEach(t -> read.add(QueryWords.term(t))));
    assertTrue(read.containsAll(terms), where);
    for (String word : words) {
      assertTrue(word.length() <= QueryWords.MAX_WORD_CHARS, where);
      assertFalse(QueryWords.CHATTER.contains(word), where);
    }
  }
}
