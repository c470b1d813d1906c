package dev.memhook.djl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class TextPrefixesTest {

  @Test
  void qualify_appendsTheConventionUnlessThereIsNone() {
    assertEquals("all-minilm-l6-v2-q", TextPrefixes.NONE.qualify("all-minilm-l6-v2-q"));
    assertEquals(
        "bge-small-en-v1.5-q+bge-query-instruction",
        TextPrefixes.BGE_QUERY.qualify("bge-small-en-v1.5-q"));
    assertEquals(
        "e5-small-v2-q+e5-query-passage", TextPrefixes.E5_QUERY_PASSAGE.qualify("e5-small-v2-q"));
    assertEquals(
        "m+mine", new TextPrefixes("mine", "search_query: ", "search_document: ").qualify("m"));
  }

  @Test
  void constructor_rejectsMalformedConventions() {
    assertThrows(IllegalArgumentException.class, () -> new TextPrefixes("Mine", "q: ", ""));
    assertThrows(IllegalArgumentException.class, () -> new TextPrefixes("a+b", "q: ", ""));
    assertThrows(IllegalArgumentException.class, () -> new TextPrefixes("mine", "q:", ""));
    assertThrows(IllegalArgumentException.class, () -> new TextPrefixes("mine", "", ""));
    assertThrows(IllegalArgumentException.class, () -> new TextPrefixes("none", "q: ", ""));
    assertThrows(NullPointerException.class, () -> new TextPrefixes("mine", null, "d: "));
  }
}
