package dev.memhook.core.internal.observe;

import dev.memhook.api.MemoryDraft;
import dev.memhook.core.internal.sanitize.Sanitizer;

/**
 * How one string field of what a host hands in becomes storable text: lone surrogates become U+FFFD
 * (a store encodes text as UTF-8, which cannot carry them, so without this {@code remember} would
 * return one string and {@code get} read another), then the sanitizer redacts, then the surrounding
 * whitespace goes; a field that is then over its limit is cut with {@link MemoryDraft#CUT_MARKER},
 * never silently, and never inside a surrogate pair.
 *
 * <p>Public so that capture ({@code core.internal.capture}) cleans event text, and compression cuts
 * text, the same way, with the one marker.
 *
 * <p>Stateless; thread-safe.
 */
public final class FieldText {

  private static final String MARKER = MemoryDraft.CUT_MARKER;

  /** What the sanitizer leaves of a private region. */
  private static final String PRIVATE_MARKER = "[private]";

  private FieldText() {}

  /**
   * Whether cleaned {@code text} holds nothing but what the sanitizer left of private regions, and
   * whitespace: nothing a memory's content may be.
   */
  public static boolean isOnlyPrivate(String text) {
    return text.replace(PRIVATE_MARKER, "").isBlank();
  }

  /** {@code text} with lone surrogates replaced, sanitized and stripped. */
  public static String clean(Sanitizer sanitizer, String text) {
    return sanitizer.sanitize(wellFormed(text)).strip();
  }

  /**
   * {@code value}, held under {@code key} in a structure, with lone surrogates replaced, sanitized
   * in the light of its key ({@link Sanitizer#sanitizeValue}) and stripped.
   */
  public static String cleanValue(Sanitizer sanitizer, String key, String value) {
    return sanitizer.sanitizeValue(key, wellFormed(value)).strip();
  }

  /** {@code text} with every unpaired surrogate replaced by U+FFFD. */
  public static String wellFormed(String text) {
    StringBuilder out = null;
    int n = text.length();
    for (int i = 0; i < n; i++) {
      char c = text.charAt(i);
      boolean lone;
      if (Character.isHighSurrogate(c)) {
        lone = i + 1 >= n || !Character.isLowSurrogate(text.charAt(i + 1));
        if (!lone) {
          if (out != null) {
            out.append(c).append(text.charAt(i + 1));
          }
          i++;
          continue;
        }
      } else {
        lone = Character.isLowSurrogate(c);
      }
      if (lone && out == null) {
        out = new StringBuilder(n).append(text, 0, i);
      }
      if (out != null) {
        out.append(lone ? '\uFFFD' : c);
      }
    }
    return out == null ? text : out.toString();
  }

  /** {@code text}, or its start and the marker when it is longer than {@code max}. */
  public static String cutEnd(String text, int max) {
    if (text.length() <= max) {
      return text;
    }
    int end = max - MARKER.length();
    if (end > 0 && Character.isHighSurrogate(text.charAt(end - 1))) {
      end--;
    }
    return text.substring(0, end) + MARKER;
  }

  /** {@code text}, or the marker and its end when it is longer than {@code max}. */
  static String cutStart(String text, int max) {
    if (text.length() <= max) {
      return text;
    }
    int start = text.length() - (max - MARKER.length());
    if (start < text.length() && Character.isLowSurrogate(text.charAt(start))) {
      start++;
    }
    return MARKER + text.substring(start);
  }
}
