package dev.memhook.lucene.internal.analysis;

import java.io.IOException;
import java.io.Reader;

/**
 * A tokenizer's whole input, read at once into a buffer the tokenizer reuses from text to text;
 * {@link #release} gives back the memory of a large one. Not thread-safe.
 */
final class InputText {

  /** The capacity kept between texts: a larger buffer is let go when the tokenizer closes. */
  private static final int KEPT = 8 * 1024;

  private final char[] chunk = new char[1024];
  private StringBuilder chars = new StringBuilder();

  /** Replaces the text with everything {@code input} holds. */
  void read(Reader input) throws IOException {
    chars.setLength(0);
    for (int n = input.read(chunk); n != -1; n = input.read(chunk)) {
      chars.append(chunk, 0, n);
    }
  }

  /** The text read, valid until the next {@link #read}. */
  CharSequence chars() {
    return chars;
  }

  /** Empties the text, dropping the buffer if it grew beyond what a short text needs. */
  void release() {
    if (chars.capacity() > KEPT) {
      chars = new StringBuilder();
    } else {
      chars.setLength(0);
    }
  }
}
