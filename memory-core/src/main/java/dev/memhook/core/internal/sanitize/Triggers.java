package dev.memhook.core.internal.sanitize;

import java.util.Arrays;

/**
 * The positions where any of a few literals occurs in a text, in increasing order: the cheap scan
 * that finds where a rule could match, so its regex runs only there. Each literal is searched
 * forward only, so walking every position costs one {@code indexOf} pass per literal.
 *
 * <p>Not thread-safe; one per rule application.
 */
final class Triggers {

  private final String haystack;
  private final String[] literals;
  private final int[] next;

  Triggers(String haystack, String[] literals) {
    this.haystack = haystack;
    this.literals = literals;
    this.next = new int[literals.length];
    Arrays.fill(next, -2);
  }

  /** The first position at or after {@code from} where a literal starts, or -1. */
  int next(int from) {
    int best = -1;
    for (int i = 0; i < literals.length; i++) {
      int at = next[i];
      if (at == -1) {
        continue;
      }
      if (at < from) {
        at = haystack.indexOf(literals[i], from);
        next[i] = at;
        if (at < 0) {
          continue;
        }
      }
      if (best < 0 || at < best) {
        best = at;
      }
    }
    return best;
  }
}
