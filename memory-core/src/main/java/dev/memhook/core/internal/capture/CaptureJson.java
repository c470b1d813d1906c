package dev.memhook.core.internal.capture;

import com.fasterxml.jackson.core.ErrorReportConfiguration;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.io.JsonEOFException;
import java.io.IOException;
import java.util.function.UnaryOperator;

/**
 * The one Jackson configuration capture reads JSON with, and an iterative copy of a JSON value that
 * passes every key and string through a function. Both the event parser ({@link EventJson}) and the
 * scrubber of tool input and output ({@link EventScrub}) use it, so both enforce the same limits.
 *
 * <p>Stateless and thread-safe.
 */
final class CaptureJson {

  /** The longest JSON document, in characters (16 MiB). */
  static final int MAX_DOCUMENT_CHARS = 16 * 1024 * 1024;

  /** The deepest nesting of objects and arrays, the outermost included. */
  static final int MAX_DEPTH = 64;

  /** The longest number, in characters. */
  static final int MAX_NUMBER_CHARS = 1_000;

  /** The longest object key, in characters. */
  static final int MAX_NAME_CHARS = 64 * 1024;

  /**
   * Strict JSON under explicit limits, duplicate keys rejected (which of two values counts would be
   * a guess). Error messages quote at most 24 characters of a bad token and no raw content, since
   * the input may hold secrets.
   */
  static final JsonFactory FACTORY =
      JsonFactory.builder()
          .streamReadConstraints(
              StreamReadConstraints.builder()
                  .maxNestingDepth(MAX_DEPTH)
                  .maxDocumentLength(MAX_DOCUMENT_CHARS)
                  .maxStringLength(MAX_DOCUMENT_CHARS)
                  .maxNameLength(MAX_NAME_CHARS)
                  .maxNumberLength(MAX_NUMBER_CHARS)
                  .build())
          .errorReportConfiguration(
              ErrorReportConfiguration.builder()
                  .maxErrorTokenLength(24)
                  .maxRawContentLength(0)
                  .build())
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .build();

  private CaptureJson() {}

  /**
   * Copies the object or array {@code p} stands on to {@code g}, key by key and leaf by leaf, with
   * {@code names} applied to each key and {@code strings} to each string value; numbers keep their
   * text. Returns with {@code p} on the value's closing bracket. Iterative: the depth is bounded by
   * the parser's constraints, never by the stack.
   *
   * <p>A source that ends early fails with {@link JsonEOFException}; closing {@code g} then closes
   * the open brackets, and a key is written only together with its value, so none dangles. When
   * {@code cutSource} (the text {@code p} reads) is given and it ends inside a string value, what
   * that string holds up to the end is written too, decoded, before the exception is thrown.
   */
  static void copy(
      JsonParser p,
      JsonGenerator g,
      UnaryOperator<String> names,
      UnaryOperator<String> strings,
      String cutSource)
      throws IOException {
    int depth = 0;
    String name = null;
    JsonToken t = p.currentToken();
    do {
      if (t == null) {
        throw new IllegalStateException("the JSON value ends before its closing bracket");
      }
      if (t == JsonToken.FIELD_NAME) {
        name = names.apply(p.currentName());
      } else {
        if (name != null && !t.isStructEnd()) {
          g.writeFieldName(name);
        }
        name = null;
        depth += write(p, g, t, strings, cutSource);
      }
      t = depth == 0 ? null : p.nextToken();
    } while (depth > 0);
  }

  /** Writes the token; returns how it changes the depth. */
  private static int write(
      JsonParser p, JsonGenerator g, JsonToken t, UnaryOperator<String> strings, String cutSource)
      throws IOException {
    switch (t) {
      case START_OBJECT -> g.writeStartObject();
      case START_ARRAY -> g.writeStartArray();
      case END_OBJECT -> g.writeEndObject();
      case END_ARRAY -> g.writeEndArray();
      case VALUE_STRING -> g.writeString(strings.apply(stringValue(p, g, strings, cutSource)));
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> g.writeNumber(p.getText());
      case VALUE_TRUE, VALUE_FALSE -> g.writeBoolean(t == JsonToken.VALUE_TRUE);
      case VALUE_NULL -> g.writeNull();
      default -> throw new IllegalStateException("unexpected JSON token " + t);
    }
    return t.isStructStart() ? 1 : t.isStructEnd() ? -1 : 0;
  }

  private static String stringValue(
      JsonParser p, JsonGenerator g, UnaryOperator<String> strings, String cutSource)
      throws IOException {
    try {
      return p.getText(); // Jackson reads a string's body lazily, here
    } catch (JsonEOFException e) {
      if (cutSource != null) {
        long quote = p.currentTokenLocation().getCharOffset();
        if (quote >= 0 && quote < cutSource.length() && cutSource.charAt((int) quote) == '"') {
          g.writeString(strings.apply(unescapePrefix(cutSource, (int) quote + 1)));
        }
      }
      throw e;
    }
  }

  /**
   * The JSON string body starting at {@code from}, decoded up to the end of {@code text} (or an
   * unescaped quote); an escape cut short at the end is dropped.
   */
  static String unescapePrefix(String text, int from) {
    StringBuilder out = new StringBuilder(text.length() - from);
    int n = text.length();
    for (int i = from; i < n; i++) {
      char c = text.charAt(i);
      if (c == '"') {
        break;
      }
      if (c != '\\') {
        out.append(c);
        continue;
      }
      if (i + 1 >= n) {
        break;
      }
      char e = text.charAt(++i);
      switch (e) {
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'n' -> out.append('\n');
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        case 'u' -> {
          if (i + 4 >= n) {
            return out.toString();
          }
          try {
            out.append((char) Integer.parseInt(text, i + 1, i + 5, 16));
          } catch (NumberFormatException bad) {
            return out.toString();
          }
          i += 4;
        }
        default -> out.append(e); // \" \\ \/ and anything else: the character itself
      }
    }
    return out.toString();
  }

  /** What a reader calls the value {@code t} starts: "an object", "a number", "nothing". */
  static String describe(JsonToken t) {
    if (t == null) {
      return "nothing";
    }
    return switch (t) {
      case START_OBJECT -> "an object";
      case START_ARRAY -> "an array";
      case VALUE_STRING -> "a string";
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
      case VALUE_TRUE, VALUE_FALSE -> "a boolean";
      case VALUE_NULL -> "null";
      default -> t.toString();
    };
  }
}
