package dev.memhook.djl;

import dev.memhook.api.EmbeddingException;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits one tokenised text into the token-id windows the model sees, so that long text is embedded
 * whole instead of being cut at the model's sequence length.
 *
 * <p>Design note: a text that fits in {@code maxTokens} ids is one window, unchanged. A longer one
 * keeps its leading and trailing special tokens ({@code [CLS]}, {@code [SEP]}) on every window and
 * slides over the content between them: each window holds {@code maxTokens - special} content
 * tokens, consecutive windows start three quarters of a window apart, so each overlaps the next by
 * a quarter and no token loses all its context at a window edge, and the last window ends exactly
 * at the content's end (it may be shorter than the others). The tokens of a query or document
 * prefix (see {@link TextPrefixes}) are kept at the start of every window like the leading special
 * tokens, since the model was trained to see them before any text it embeds.
 *
 * <p>Stateless; the methods are thread-safe. The returned arrays are new and owned by the caller;
 * the input arrays are not changed.
 */
final class TokenWindows {
  private TokenWindows() {}

  /**
   * The windows of one text.
   *
   * @param ids the text's token ids, special tokens included; not null
   * @param specialTokenMask 1 where {@code ids} holds a special token, 0 elsewhere; same length
   * @param maxTokens the most ids per window, special tokens included; positive
   * @param prefixTokens how many ids after the leading special tokens belong to a prefix that every
   *     window keeps; 0 for none, at most the number of content ids
   * @return the windows in text order: {@code List.of(ids)} when {@code ids} fits
   * @throws EmbeddingException if {@code maxTokens} leaves no room for content beside the special
   *     and prefix tokens
   */
  static List<long[]> split(long[] ids, long[] specialTokenMask, int maxTokens, int prefixTokens) {
    if (ids.length <= maxTokens) {
      return List.of(ids);
    }
    int head = 0;
    while (head < ids.length && specialTokenMask[head] == 1) {
      head++;
    }
    head = Math.min(ids.length, head + prefixTokens);
    int tail = 0;
    while (tail < ids.length - head && specialTokenMask[ids.length - 1 - tail] == 1) {
      tail++;
    }
    int window = maxTokens - head - tail;
    if (window < 1) {
      throw new EmbeddingException(
          "maxTokens "
              + maxTokens
              + " leaves no room for content beside "
              + (head + tail)
              + (prefixTokens > 0 ? " special and prefix tokens" : " special tokens")
              + "; raise maxTokens");
    }
    int stride = stride(window);
    int bodyEnd = ids.length - tail;
    List<long[]> out = new ArrayList<>();
    for (int start = head; ; start += stride) {
      int end = Math.min(start + window, bodyEnd);
      long[] w = new long[head + (end - start) + tail];
      System.arraycopy(ids, 0, w, 0, head);
      System.arraycopy(ids, start, w, head, end - start);
      System.arraycopy(ids, bodyEnd, w, head + (end - start), tail);
      out.add(w);
      if (end == bodyEnd) {
        return out;
      }
    }
  }

  /** Content tokens between the starts of consecutive windows of {@code window} content tokens. */
  static int stride(int window) {
    return Math.max(1, window * 3 / 4);
  }
}
