package dev.memhook.djl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.memhook.api.spi.Embedding;
import org.junit.jupiter.api.Test;

/**
 * How much of a long text is embedded: the first {@code maxWindows} windows of its first {@code
 * maxWindows × maxTokens × 8} characters, so one text's cost is bounded however long it is.
 */
class LongTextBoundTest {

  private static String words(int count, String salt) {
    StringBuilder sb = new StringBuilder();
    String[] vocabulary = {"river", "lantern", "cobalt", "harbor", "meadow", "signal", "copper"};
    for (int i = 0; i < count; i++) {
      sb.append(vocabulary[(i * 7 + salt.length()) % vocabulary.length]).append(' ');
    }
    return sb.toString();
  }

  @Test
  void aTextLongerThanTheWindowBound_isEmbeddedByItsFirstWindows() {
    String head = words(200, ""); // far more than two windows of 32 tokens
    String tailA = "volcano eruption lava ash evacuation";
    String tailB = "quarterly invoice refund ledger audit";
    try (DjlEmbedder two =
            DjlEmbedder.bundledBuilder(BundledModel.MINILM_L6_V2_Q)
                .maxTokens(32)
                .maxWindows(2)
                .build();
        DjlEmbedder many =
            DjlEmbedder.bundledBuilder(BundledModel.MINILM_L6_V2_Q)
                .maxTokens(32)
                .maxWindows(DjlEmbedder.MAX_MAX_WINDOWS)
                .build()) {
      assertEquals(two.embed(head + tailA), two.embed(head + tailB));
      assertEquals(two.embedQuery(head + tailA), two.embedQuery(head + tailB));
      assertNotEquals(two.embed("lantern " + head), two.embed(head), "the beginning counts");
      assertNotEquals(
          many.embed(head + tailA), many.embed(head + tailB), "without the bound the tail counts");
    }
  }

  @Test
  void aTextLongerThanTheCharacterBound_isTokenisedOnlyToTheBound() {
    try (DjlEmbedder embedder = DjlEmbedder.bundledMiniLm()) {
      int bound = DjlEmbedder.DEFAULT_MAX_WINDOWS * DjlEmbedder.DEFAULT_MAX_TOKENS * 8;
      // one long word is one [UNK] token: without the cut, the tail would be tokenised and embedded
      String text = "x".repeat(bound - 3) + " river";
      Embedding cut = embedder.embed(text.substring(0, bound));
      assertEquals(cut, embedder.embed(text));
      assertEquals(cut, embedder.embed(text + " harbor lantern meadow ".repeat(50_000)));
    }
  }

  @Test
  void theCharacterCut_neverSplitsASurrogatePair() {
    assertEquals("ab", LoadedModel.cut("ab\uD83D\uDE00cd", 3));
    assertEquals("ab\uD83D\uDE00", LoadedModel.cut("ab\uD83D\uDE00cd", 4));
    assertEquals("short", LoadedModel.cut("short", 10));
  }
}
