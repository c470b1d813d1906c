package dev.memhook.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON for flat objects: the members' values are strings, whole numbers, booleans or arrays of
 * strings ({@code null} members are skipped). The codec of {@value ServeFiles#RUNNING_FILE} and of
 * the {@code /cli} exchange ({@link CliEndpoint}, {@link RemoteCli}), both sides of each, because
 * the client that reads them runs before anything else loads: Jackson alone costs a short command
 * about as much as the rest of its start (benchmarks/RESULTS.md, section 18).
 *
 * <p>Stateless and thread-safe. Nulls: a null map or key is a {@link NullPointerException}.
 */
final class FlatJson {
  private FlatJson() {}

  /**
   * {@code members} as one JSON object, in their iteration order.
   *
   * @throws IllegalArgumentException if a value is not a {@link String}, {@link Number} (written as
   *     its {@code long} value), {@link Boolean} or {@link List} of strings
   */
  static String write(Map<String, ?> members) {
    StringBuilder b = new StringBuilder("{");
    for (Map.Entry<String, ?> e : members.entrySet()) {
      Object v = e.getValue();
      if (v == null) {
        continue;
      }
      if (b.length() > 1) {
        b.append(',');
      }
      string(b, e.getKey()).append(':');
      if (v instanceof String s) {
        string(b, s);
      } else if (v instanceof Number n) {
        b.append(n.longValue());
      } else if (v instanceof Boolean flag) {
        b.append(flag.booleanValue());
      } else if (v instanceof List<?> list) {
        b.append('[');
        for (int i = 0; i < list.size(); i++) {
          if (!(list.get(i) instanceof String s)) {
            throw new IllegalArgumentException(e.getKey() + " holds a non-string: " + list.get(i));
          }
          string(b.append(i == 0 ? "" : ","), s);
        }
        b.append(']');
      } else {
        throw new IllegalArgumentException(e.getKey() + " is a " + v.getClass().getSimpleName());
      }
    }
    return b.append('}').toString();
  }

  private static StringBuilder string(StringBuilder b, String s) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    return b.append('"');
  }

  /**
   * The members of the JSON object {@code text}: strings as {@link String}, whole numbers as {@link
   * Long}, booleans as {@link Boolean}, arrays of strings as {@link List}; {@code null} members are
   * left out.
   *
   * @throws IllegalArgumentException if {@code text} is not one such object
   */
  static Map<String, Object> read(String text) {
    Reader r = new Reader(text);
    Map<String, Object> out = r.object();
    r.skipSpace();
    if (r.at < text.length()) {
      throw r.error("text after the object");
    }
    return out;
  }

  private static final class Reader {
    private final String s;
    private int at;

    Reader(String s) {
      this.s = s;
    }

    Map<String, Object> object() {
      expect('{');
      Map<String, Object> out = new LinkedHashMap<>();
      skipSpace();
      if (peek() == '}') {
        at++;
        return out;
      }
      while (true) {
        skipSpace();
        String key = string();
        skipSpace();
        expect(':');
        skipSpace();
        Object value = value();
        if (value != null) {
          out.put(key, value);
        }
        skipSpace();
        char c = next();
        if (c == '}') {
          return out;
        }
        if (c != ',') {
          throw error("',' or '}' expected");
        }
      }
    }

    private Object value() {
      char c = peek();
      if (c == '"') {
        return string();
      }
      if (c == '[') {
        return strings();
      }
      if (c == '-' || (c >= '0' && c <= '9')) {
        int start = at;
        at++;
        while (at < s.length() && Character.isDigit(s.charAt(at))) {
          at++;
        }
        try {
          return Long.parseLong(s.substring(start, at));
        } catch (NumberFormatException e) {
          throw error("a whole number expected");
        }
      }
      for (String word : new String[] {"true", "false", "null"}) {
        if (s.startsWith(word, at)) {
          at += word.length();
          return word.equals("null") ? null : Boolean.valueOf(word);
        }
      }
      throw error("a string, whole number, boolean or array of strings expected");
    }

    private List<String> strings() {
      expect('[');
      List<String> out = new ArrayList<>();
      skipSpace();
      if (peek() == ']') {
        at++;
        return out;
      }
      while (true) {
        skipSpace();
        out.add(string());
        skipSpace();
        char c = next();
        if (c == ']') {
          return out;
        }
        if (c != ',') {
          throw error("',' or ']' expected");
        }
      }
    }

    private String string() {
      expect('"');
      StringBuilder b = new StringBuilder();
      while (true) {
        char c = next();
        if (c == '"') {
          return b.toString();
        }
        if (c < 0x20) {
          throw error("a control character in a string");
        }
        if (c != '\\') {
          b.append(c);
          continue;
        }
        char e = next();
        switch (e) {
          case '"', '\\', '/' -> b.append(e);
          case 'b' -> b.append('\b');
          case 'f' -> b.append('\f');
          case 'n' -> b.append('\n');
          case 'r' -> b.append('\r');
          case 't' -> b.append('\t');
          case 'u' -> {
            if (at + 4 > s.length()) {
              throw error("a cut \\u escape");
            }
            try {
              b.append((char) Integer.parseInt(s.substring(at, at + 4), 16));
            } catch (NumberFormatException x) {
              throw error("a bad \\u escape");
            }
            at += 4;
          }
          default -> throw error("a bad escape");
        }
      }
    }

    void skipSpace() {
      while (at < s.length() && " \t\r\n".indexOf(s.charAt(at)) >= 0) {
        at++;
      }
    }

    private char peek() {
      if (at >= s.length()) {
        throw error("the text ends early");
      }
      return s.charAt(at);
    }

    private char next() {
      char c = peek();
      at++;
      return c;
    }

    private void expect(char c) {
      if (next() != c) {
        at--;
        throw error("'" + c + "' expected");
      }
    }

    IllegalArgumentException error(String what) {
      return new IllegalArgumentException("not flat JSON at offset " + at + ": " + what);
    }
  }
}
