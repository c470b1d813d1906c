package dev.memhook.core.internal.sanitize;

import java.util.Arrays;

/**
 * The ranges one rule redacts in one text, in increasing order and not overlapping, and the text
 * they make. A rule that finds nothing leaves the text as it was, without copying it.
 *
 * <p>Not thread-safe; one per rule application.
 */
final class Edits {

  private int[] ranges = new int[8];
  private int size;
  private int lastEnd;

  /**
   * Redacts {@code [start, end)}. An empty range, or one that starts before the previous one ends,
   * is ignored, so a rule never redacts the same characters twice.
   */
  void add(int start, int end) {
    if (end <= start || start < lastEnd) {
      return;
    }
    if (size == ranges.length) {
      ranges = Arrays.copyOf(ranges, size * 2);
    }
    ranges[size++] = start;
    ranges[size++] = end;
    lastEnd = end;
  }

  boolean isEmpty() {
    return size == 0;
  }

  /** The start of the {@code i}th range, in order. */
  int start(int i) {
    return ranges[2 * i];
  }

  /** The end of the {@code i}th range, in order. */
  int end(int i) {
    return ranges[2 * i + 1];
  }

  /** {@code text} with every range replaced by {@code marker}. */
  String applyTo(String text, String marker) {
    if (size == 0) {
      return text;
    }
    StringBuilder out = new StringBuilder(text.length() + (size / 2) * marker.length());
    int last = 0;
    for (int i = 0; i < size; i += 2) {
      out.append(text, last, ranges[i]).append(marker);
      last = ranges[i + 1];
    }
    return out.append(text, last, text.length()).toString();
  }
}
