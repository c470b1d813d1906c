package dev.memhook.core.internal.inject;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Text as the model reads it: JSON rendered by Jackson, and the length a string takes inside it.
 *
 * <p>Every size budget of {@code get_memory} is counted in characters of the final JSON string, so
 * a string's cost is its escaped length: {@code "} and {@code \} and the five control characters
 * with a short escape take two characters, every other control character below U+0020 takes six
 * ({@code \}{@code u00XX}), a lone surrogate takes six (see {@link #render}), everything else one.
 * {@link #escapedLength} mirrors Jackson's default escaping; {@code JsonTextTest} checks it against
 * Jackson's output, and every result is measured again after rendering.
 *
 * <p>Lone surrogates: Jackson copies a lone surrogate into its output as is, which makes a string
 * no UTF-8 encoder can encode faithfully (hosts send JSON as UTF-8). {@link #render} writes each
 * lone surrogate as a {@code \}{@code uD800}-style escape instead: valid JSON in plain ASCII, which
 * a JSON parser reads back as exactly the stored string. Nothing is replaced or dropped.
 *
 * <p>Stateless and thread-safe.
 */
final class JsonText {

  static final ObjectMapper JSON = new ObjectMapper();

  /** The visible mark of a string cut short. */
  static final String ELLIPSIS = "…";

  private JsonText() {}

  /**
   * {@code node} as JSON text, lone surrogates escaped.
   *
   * @throws IllegalStateException if Jackson cannot render the node, which a tree of strings,
   *     numbers and booleans never causes
   */
  static String render(JsonNode node) {
    try {
      return escapeLoneSurrogates(JSON.writeValueAsString(node));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("could not render a tool result", e);
    }
  }

  /** {@code json} with every lone surrogate written as a six-character escape. */
  static String escapeLoneSurrogates(String json) {
    int first = firstLoneSurrogate(json, 0);
    if (first < 0) {
      return json;
    }
    StringBuilder out = new StringBuilder(json.length() + 16);
    int copied = 0;
    for (int i = first; i >= 0; i = firstLoneSurrogate(json, i + 1)) {
      out.append(json, copied, i).append(String.format("\\u%04X", (int) json.charAt(i)));
      copied = i + 1;
    }
    return out.append(json, copied, json.length()).toString();
  }

  private static int firstLoneSurrogate(String s, int from) {
    for (int i = from; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)) {
        if (i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
          i++;
        } else {
          return i;
        }
      } else if (Character.isLowSurrogate(c)) {
        return i;
      }
    }
    return -1;
  }

  /** The length {@code s} takes as a JSON string value, quotes included. */
  static int quotedLength(String s) {
    return 2 + escapedLength(s, 0, s.length());
  }

  /** The length of {@code s[from, to)} inside a JSON string, escapes counted, quotes not. */
  static int escapedLength(String s, int from, int to) {
    int n = 0;
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < to && Character.isLowSurrogate(s.charAt(i + 1))) {
        n += 2;
        i++;
      } else {
        n += escapedLength(c);
      }
    }
    return n;
  }

  /**
   * The end index of the longest prefix of {@code s[from, …)} whose escaped length is at most
   * {@code budget}. It never ends between the two halves of a surrogate pair.
   */
  static int cutPoint(String s, int from, int budget) {
    int used = 0;
    int i = from;
    while (i < s.length()) {
      char c = s.charAt(i);
      boolean pair =
          Character.isHighSurrogate(c)
              && i + 1 < s.length()
              && Character.isLowSurrogate(s.charAt(i + 1));
      int cost = pair ? 2 : escapedLength(c);
      if (used + cost > budget) {
        break;
      }
      used += cost;
      i += pair ? 2 : 1;
    }
    return i;
  }

  /**
   * {@code s} if its escaped length is at most {@code budget}; otherwise its longest prefix that,
   * with {@link #ELLIPSIS} appended, is. An empty string if not even the ellipsis fits.
   */
  static String abbreviate(String s, int budget) {
    if (s.length() <= budget && escapedLength(s, 0, s.length()) <= budget) {
      return s;
    }
    if (budget < ELLIPSIS.length()) {
      return "";
    }
    return s.substring(0, cutPoint(s, 0, budget - ELLIPSIS.length())) + ELLIPSIS;
  }

  /** Whether {@link #abbreviate} would shorten {@code s}. */
  static boolean fits(String s, int budget) {
    return s.length() <= budget && escapedLength(s, 0, s.length()) <= budget;
  }

  private static int escapedLength(char c) {
    if (c == '"' || c == '\\' || c == '\b' || c == '\t' || c == '\n' || c == '\f' || c == '\r') {
      return 2;
    }
    if (c < 0x20 || Character.isSurrogate(c)) {
      return 6;
    }
    return 1;
  }
}
