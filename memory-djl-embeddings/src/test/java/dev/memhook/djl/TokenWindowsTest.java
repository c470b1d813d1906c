package dev.memhook.djl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.EmbeddingException;
import dev.memhook.testkit.Seeds;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class TokenWindowsTest {
  static final long CLS = 101;
  static final long SEP = 102;

  /** {@code [CLS] 1 2 … contentLength [SEP]} and its special-token mask. */
  static long[][] text(int contentLength) {
    long[] ids = new long[contentLength + 2];
    long[] mask = new long[contentLength + 2];
    ids[0] = CLS;
    mask[0] = 1;
    for (int i = 1; i <= contentLength; i++) {
      ids[i] = i;
    }
    ids[contentLength + 1] = SEP;
    mask[contentLength + 1] = 1;
    return new long[][] {ids, mask};
  }

  /** {@code [CLS] from … to [SEP]}. */
  static long[] window(int from, int to) {
    return LongStream.concat(
            LongStream.concat(LongStream.of(CLS), LongStream.rangeClosed(from, to)),
            LongStream.of(SEP))
        .toArray();
  }

  @Test
  void split_returnsTextThatFitsAsItsOnlyWindow() {
    long[][] text = text(8);
    List<long[]> windows = TokenWindows.split(text[0], text[1], 10, 0);
    assertEquals(1, windows.size());
    assertSame(text[0], windows.get(0));
  }

  @Test
  void split_keepsPrefixTokensAtTheStartOfEveryWindow() {
    // ids 1 and 2 are the prefix; 10 tokens per window leave 6 content tokens, starting 4 apart.
    long[][] text = text(16);
    List<long[]> windows = TokenWindows.split(text[0], text[1], 10, 2);
    assertEquals(3, windows.size());
    assertArrayEquals(new long[] {CLS, 1, 2, 3, 4, 5, 6, 7, 8, SEP}, windows.get(0));
    assertArrayEquals(new long[] {CLS, 1, 2, 7, 8, 9, 10, 11, 12, SEP}, windows.get(1));
    assertArrayEquals(new long[] {CLS, 1, 2, 11, 12, 13, 14, 15, 16, SEP}, windows.get(2));
  }

  @Test
  void split_framesEachWindowWithSpecialTokensAndStartsThemThreeQuartersApart() {
    // 10 tokens per window: 8 content tokens, starting 6 apart.
    long[][] text = text(20);
    List<long[]> windows = TokenWindows.split(text[0], text[1], 10, 0);
    assertEquals(3, windows.size());
    assertArrayEquals(window(1, 8), windows.get(0));
    assertArrayEquals(window(7, 14), windows.get(1));
    assertArrayEquals(window(13, 20), windows.get(2));
  }

  @Test
  void split_endsTheLastWindowAtTheEndOfTheText() {
    long[][] text = text(17);
    List<long[]> windows = TokenWindows.split(text[0], text[1], 10, 0);
    assertEquals(3, windows.size());
    assertArrayEquals(window(13, 17), windows.get(2));
  }

  @Test
  void split_coversEveryContentTokenInWindowsOfAtMostMaxTokens() {
    long seed = Seeds.seed();
    Random random = new Random(seed);
    for (int round = 0; round < 200; round++) {
      int contentLength = 1 + random.nextInt(600);
      int maxTokens = DjlEmbedder.MIN_MAX_TOKENS + random.nextInt(120);
      long[][] text = text(contentLength);
      List<long[]> windows = TokenWindows.split(text[0], text[1], maxTokens, 0);
      String context =
          Seeds.replay(seed)
              + ", round "
              + round
              + ": "
              + contentLength
              + " content tokens, maxTokens "
              + maxTokens;
      boolean[] seen = new boolean[contentLength + 1];
      long previousStart = 0;
      for (long[] w : windows) {
        assertTrue(w.length <= maxTokens, context);
        assertEquals(CLS, w[0], context);
        assertEquals(SEP, w[w.length - 1], context);
        assertTrue(w[1] > previousStart, context);
        previousStart = w[1];
        for (int i = 1; i < w.length - 1; i++) {
          seen[(int) w[i]] = true;
        }
      }
      for (int token = 1; token <= contentLength; token++) {
        assertTrue(seen[token], context + ": token " + token + " is in no window");
      }
      long[] last = windows.get(windows.size() - 1);
      assertEquals(contentLength, last[last.length - 2], context + ": the last window ends early");
    }
  }

  @Test
  void split_rejectsMaxTokensThatLeavesNoRoomForContent() {
    long[] ids = {CLS, CLS, CLS, 1, 2, 3, SEP, SEP, SEP};
    long[] mask = {1, 1, 1, 0, 0, 0, 1, 1, 1};
    EmbeddingException e =
        assertThrows(EmbeddingException.class, () -> TokenWindows.split(ids, mask, 6, 0));
    assertTrue(e.getMessage().contains("maxTokens 6"), e.getMessage());
    assertTrue(e.getMessage().contains("6 special tokens"), e.getMessage());
  }

  @Test
  void stride_isThreeQuartersOfTheWindowAndAtLeastOne() {
    // The default maxTokens 256 leaves 254 content tokens per window.
    assertEquals(190, TokenWindows.stride(DjlEmbedder.DEFAULT_MAX_TOKENS - 2));
    assertEquals(6, TokenWindows.stride(8));
    assertEquals(1, TokenWindows.stride(1));
  }
}
