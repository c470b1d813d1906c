package dev.memhook.cli;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * HTML escaping and URL building for the viewer's server-rendered pages. Every string that comes
 * from the store, a request or the environment goes into a page through {@link #text} (element
 * content and quoted attribute values alike), and every link's query through {@link #link}, so that
 * memory text is shown as text however hostile it is. Stateless and thread-safe; null is rejected
 * with a {@link NullPointerException}.
 */
final class Html {
  private Html() {}

  /**
   * {@code s} escaped for element content and for a double- or single-quoted attribute value: the
   * five characters that can end either are replaced by character references.
   */
  static String text(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '&' -> sb.append("&amp;");
        case '<' -> sb.append("&lt;");
        case '>' -> sb.append("&gt;");
        case '"' -> sb.append("&quot;");
        case '\'' -> sb.append("&#39;");
        default -> sb.append(c);
      }
    }
    return sb.toString();
  }

  /** {@link #text} of {@code o}'s string form. */
  static String text(Object o) {
    return text(String.valueOf(o));
  }

  /**
   * A path with a query of name-value pairs, URL-encoded and then escaped for an {@code href}
   * attribute: {@code link("/view/memory", "id", id)}.
   *
   * @throws IllegalArgumentException if the pairs are not names and values in turn
   */
  static String link(String path, String... pairs) {
    if (pairs.length % 2 != 0) {
      throw new IllegalArgumentException("pairs must be names and values in turn");
    }
    StringBuilder sb = new StringBuilder(path);
    for (int i = 0; i < pairs.length; i += 2) {
      sb.append(i == 0 ? '?' : '&')
          .append(URLEncoder.encode(pairs[i], StandardCharsets.UTF_8))
          .append('=')
          .append(URLEncoder.encode(pairs[i + 1], StandardCharsets.UTF_8));
    }
    return text(sb.toString());
  }

  /**
   * The name-value pairs of a URL query or a form body ({@code application/x-www-form-urlencoded}),
   * decoded; the first value of a name wins, a name without {@code =} has the empty value.
   */
  static Map<String, String> params(String raw) {
    Map<String, String> out = new LinkedHashMap<>();
    if (raw == null || raw.isEmpty()) {
      return out;
    }
    for (String pair : raw.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String name =
          URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      String value =
          eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
      out.putIfAbsent(name, value);
    }
    return out;
  }
}
