package dev.memhook.core.internal.recall.words;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

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
}
