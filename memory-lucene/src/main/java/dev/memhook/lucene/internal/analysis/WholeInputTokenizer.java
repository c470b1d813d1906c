package dev.memhook.lucene.internal.analysis;

import java.io.IOException;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;

/**
 * A tokenizer that reads its whole input on {@link #reset} into a buffer it reuses from text to
 * text, as Lucene's {@code PatternTokenizer} does, and scans it from {@link #next}: the tokenizers
 * of this package replace pattern ones token for token, offsets included. It sets the final offset
 * at {@link #end} and lets go of a large input's buffer on {@link #close}.
 *
 * <p>Not thread-safe (one instance per analysis chain, as every tokenizer).
 */
abstract class WholeInputTokenizer extends Tokenizer {

  /** The capacity kept between texts: a larger buffer is let go when the tokenizer closes. */
  private static final int KEPT = 8 * 1024;

  /** The offsets of the token being emitted. */
  protected final OffsetAttribute offset = addAttribute(OffsetAttribute.class);

  /** Where the scan of {@link #text()} goes on: 0 after {@link #reset}. */
  protected int next;

  private final char[] chunk = new char[1024];
  private StringBuilder chars = new StringBuilder();

  /** The whole input, valid until the next {@link #reset}. */
  protected final CharSequence text() {
    return chars;
  }

  @Override
  public void reset() throws IOException {
    super.reset();
    chars.setLength(0);
    for (int n = input.read(chunk); n != -1; n = input.read(chunk)) {
      chars.append(chunk, 0, n);
    }
    next = 0;
  }

  @Override
  public void end() throws IOException {
    super.end();
    int last = correctOffset(chars.length());
    offset.setOffset(last, last);
  }

  @Override
  public void close() throws IOException {
    super.close();
    if (chars.capacity() > KEPT) {
      chars = new StringBuilder();
    } else {
      chars.setLength(0);
    }
  }
}
