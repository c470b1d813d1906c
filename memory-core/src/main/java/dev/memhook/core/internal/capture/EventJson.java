package dev.memhook.core.internal.capture;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEvent;
import dev.memhook.api.capture.LifecycleEventType;
import dev.memhook.lucene.MemoryRecordJson;
import java.io.IOException;
import java.io.StringWriter;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Reads the JSON a hook script posts ({@code MemoryCapture.observeJson}) into a {@link
 * LifecycleEvent}. The event is not validated here beyond its shape; {@link EventValidation} does
 * that for JSON and typed events alike.
 *
 * <p>Accepted shape: {@code hookType}, {@code sessionId}, {@code project}, {@code cwd}, {@code
 * timestamp} (an ISO-8601 instant string or an integral number of epoch milliseconds), {@code
 * eventId} and a {@code data} object with {@code toolName}, {@code input}, {@code output}, {@code
 * prompt}, {@code error}, {@code agentName}, {@code message} and {@code speaker}. Claude Code's own
 * hook payload is read too: {@code hook_event_name}, {@code session_id}, {@code event_id}, and at
 * the top level {@code tool_name}, {@code tool_input}, {@code tool_response}, {@code prompt} and
 * {@code error}; inside {@code data}, {@code tool_name}, {@code tool_input}, {@code tool_response}
 * and {@code agent_name}. A field given twice under two names is rejected as ambiguous. {@code
 * input} and {@code output} may be any JSON value: an object or array becomes its compact JSON
 * text, a number or boolean its text. A JSON {@code null} is an absent field. Unknown fields are
 * ignored.
 *
 * <p>Hostile input fails fast and closed: a document over {@value #MAX_DOCUMENT_CHARS} characters
 * is refused before parsing; nesting deeper than {@value #MAX_DEPTH}, numbers over {@value
 * #MAX_NUMBER_CHARS} characters, duplicate keys, non-standard tokens ({@code NaN}, comments),
 * trailing text after the object and strings holding a lone surrogate are refused while parsing.
 * Parsing is iterative, so no input can overflow the stack.
 *
 * <p>Errors: every failure is an {@link IllegalArgumentException} whose message names the field
 * path ({@code data.toolName}, {@code timestamp}) and what is wrong; no Jackson type escapes, and
 * error messages quote at most a few characters of the input. Stateless and thread-safe.
 */
public final class EventJson {

  /** The longest event document, in characters (16 MiB). */
  public static final int MAX_DOCUMENT_CHARS = CaptureJson.MAX_DOCUMENT_CHARS;

  /** The deepest nesting of objects and arrays, the event object included. */
  public static final int MAX_DEPTH = CaptureJson.MAX_DEPTH;

  /** The longest number, in characters. */
  public static final int MAX_NUMBER_CHARS = CaptureJson.MAX_NUMBER_CHARS;

  /** The fields of an event, each with the path error messages use. */
  private enum Field {
    HOOK_TYPE("hookType"),
    SESSION_ID("sessionId"),
    PROJECT("project"),
    CWD("cwd"),
    TIMESTAMP("timestamp"),
    EVENT_ID("eventId"),
    TOOL_NAME("data.toolName"),
    INPUT("data.input"),
    OUTPUT("data.output"),
    PROMPT("data.prompt"),
    ERROR("data.error"),
    AGENT_NAME("data.agentName"),
    MESSAGE("data.message"),
    SPEAKER("data.speaker");

    final String path;

    Field(String path) {
      this.path = path;
    }
  }

  private static final Map<String, Field> TOP =
      Map.ofEntries(
          Map.entry("hookType", Field.HOOK_TYPE),
          Map.entry("hook_event_name", Field.HOOK_TYPE),
          Map.entry("sessionId", Field.SESSION_ID),
          Map.entry("session_id", Field.SESSION_ID),
          Map.entry("project", Field.PROJECT),
          Map.entry("cwd", Field.CWD),
          Map.entry("timestamp", Field.TIMESTAMP),
          Map.entry("eventId", Field.EVENT_ID),
          Map.entry("event_id", Field.EVENT_ID),
          Map.entry("tool_name", Field.TOOL_NAME),
          Map.entry("tool_input", Field.INPUT),
          Map.entry("tool_response", Field.OUTPUT),
          Map.entry("prompt", Field.PROMPT),
          Map.entry("error", Field.ERROR));

  private static final Map<String, Field> DATA =
      Map.ofEntries(
          Map.entry("toolName", Field.TOOL_NAME),
          Map.entry("tool_name", Field.TOOL_NAME),
          Map.entry("input", Field.INPUT),
          Map.entry("tool_input", Field.INPUT),
          Map.entry("output", Field.OUTPUT),
          Map.entry("tool_response", Field.OUTPUT),
          Map.entry("prompt", Field.PROMPT),
          Map.entry("error", Field.ERROR),
          Map.entry("agentName", Field.AGENT_NAME),
          Map.entry("agent_name", Field.AGENT_NAME),
          Map.entry("message", Field.MESSAGE),
          Map.entry("speaker", Field.SPEAKER));

  private static final String VALID_TYPES = validTypes();

  private EventJson() {}

  /**
   * The event {@code json} describes.
   *
   * @throws NullPointerException if {@code json} is null
   * @throws IllegalArgumentException if {@code json} is not one well-formed JSON object of the
   *     accepted shape within the limits above; the message names the field and the fault
   */
  public static LifecycleEvent parse(String json) {
    if (json.length() > MAX_DOCUMENT_CHARS) {
      throw new IllegalArgumentException(
          "event JSON is "
              + json.length()
              + " characters long; at most "
              + MAX_DOCUMENT_CHARS
              + " are accepted");
    }
    if (json.isBlank()) {
      throw new IllegalArgumentException("event JSON is empty; expected one JSON object");
    }
    try (JsonParser p = CaptureJson.FACTORY.createParser(json)) {
      try {
        JsonToken first = p.nextToken();
        if (first != JsonToken.START_OBJECT) {
          throw new IllegalArgumentException(
              "event JSON must be one object, got "
                  + CaptureJson.describe(first)
                  + " at the top level");
        }
        Slots slots = new Slots();
        readObject(p, TOP, "", slots);
        rejectTrailing(p);
        return toEvent(slots);
      } catch (JsonProcessingException e) {
        throw malformed(e, e.getLocation() != null ? e.getLocation() : p.currentLocation());
      }
    } catch (IOException e) {
      // a String source does no I/O; this is a parse failure Jackson reports as I/O
      throw new IllegalArgumentException("event JSON could not be read: " + e.getMessage());
    }
  }

  /** What the parse found so far: each field's value and the key it was given as. */
  private static final class Slots {
    final String[] values = new String[Field.values().length];
    final String[] givenAs = new String[values.length];
    Instant timestamp;

    String get(Field field) {
      return values[field.ordinal()];
    }
  }

  private static void readObject(JsonParser p, Map<String, Field> fields, String prefix, Slots s)
      throws IOException {
    for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
      String name = p.currentName();
      JsonToken value = p.nextToken();
      if (prefix.isEmpty() && name.equals("data")) {
        if (value == JsonToken.START_OBJECT) {
          readObject(p, DATA, "data.", s);
        } else if (value != JsonToken.VALUE_NULL) {
          throw new IllegalArgumentException(
              "data must be an object, got " + CaptureJson.describe(value));
        }
        continue;
      }
      Field field = fields.get(name);
      if (field == null) {
        p.skipChildren();
        continue;
      }
      String path = prefix + name;
      if (s.givenAs[field.ordinal()] != null) {
        throw new IllegalArgumentException(
            field.path
                + " is given twice, as "
                + s.givenAs[field.ordinal()]
                + " and as "
                + path
                + "; send one");
      }
      s.givenAs[field.ordinal()] = path;
      if (field == Field.TIMESTAMP) {
        s.timestamp = timestamp(p, path, value);
      } else {
        s.values[field.ordinal()] = readValue(p, field, path, value);
      }
    }
  }

  private static String readValue(JsonParser p, Field field, String path, JsonToken value)
      throws IOException {
    switch (value) {
      case VALUE_NULL:
        return null;
      case VALUE_STRING:
        return wellFormed(p.getText(), path);
      case VALUE_NUMBER_INT:
      case VALUE_NUMBER_FLOAT:
      case VALUE_TRUE:
      case VALUE_FALSE:
        if (field == Field.INPUT || field == Field.OUTPUT) {
          return p.getText();
        }
        break;
      case START_OBJECT:
      case START_ARRAY:
        if (field == Field.INPUT || field == Field.OUTPUT) {
          return copyTree(p, path);
        }
        break;
      default:
        break;
    }
    throw new IllegalArgumentException(
        path + " must be a string, got " + CaptureJson.describe(value));
  }

  private static Instant timestamp(JsonParser p, String path, JsonToken value) throws IOException {
    if (value == JsonToken.VALUE_NULL) {
      return null;
    }
    if (value == JsonToken.VALUE_STRING) {
      String text = p.getText();
      try {
        return Instant.parse(text);
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException(
            path
                + " '"
                + abbreviate(text)
                + "' is not an ISO-8601 instant (such as 2026-11-30T10:15:00Z) or a number of"
                + " epoch milliseconds");
      }
    }
    if (value == JsonToken.VALUE_NUMBER_INT
        && p.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
      return Instant.ofEpochMilli(p.getLongValue());
    }
    throw new IllegalArgumentException(
        path
            + " must be an ISO-8601 instant string or a whole number of epoch milliseconds, got "
            + (value.isNumeric()
                ? "the number " + abbreviate(p.getText())
                : CaptureJson.describe(value)));
  }

  /** The object or array the parser stands on, as compact JSON text. */
  private static String copyTree(JsonParser p, String path) throws IOException {
    StringWriter out = new StringWriter();
    try (JsonGenerator g = CaptureJson.FACTORY.createGenerator(out)) {
      CaptureJson.copy(p, g, name -> wellFormed(name, path), text -> wellFormed(text, path), null);
    }
    return out.toString();
  }

  private static void rejectTrailing(JsonParser p) throws IOException {
    JsonToken after;
    try {
      after = p.nextToken();
    } catch (JsonProcessingException e) {
      after = JsonToken.NOT_AVAILABLE;
    }
    if (after != null) {
      throw new IllegalArgumentException(
          "event JSON must be one object with nothing after it; more text follows at "
              + where(p.currentLocation()));
    }
  }

  private static LifecycleEvent toEvent(Slots s) {
    String typeName = s.get(Field.HOOK_TYPE);
    if (typeName == null) {
      throw new IllegalArgumentException("hookType is missing; expected one of " + VALID_TYPES);
    }
    LifecycleEventType type =
        LifecycleEventType.fromWire(typeName)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "hookType '"
                            + abbreviate(typeName)
                            + "' is not a known hook type; expected one of "
                            + VALID_TYPES));
    String sessionId = s.get(Field.SESSION_ID);
    if (sessionId == null) {
      throw new IllegalArgumentException("sessionId is missing");
    }
    EventData data =
        new EventData(
            s.get(Field.TOOL_NAME),
            s.get(Field.INPUT),
            s.get(Field.OUTPUT),
            s.get(Field.PROMPT),
            s.get(Field.ERROR),
            s.get(Field.AGENT_NAME),
            s.get(Field.MESSAGE),
            s.get(Field.SPEAKER));
    return new LifecycleEvent(
        type,
        sessionId,
        s.get(Field.PROJECT),
        s.get(Field.CWD),
        s.timestamp,
        s.get(Field.EVENT_ID),
        data);
  }

  private static String wellFormed(String text, String path) {
    int at = MemoryRecordJson.unpairedSurrogate(text);
    if (at >= 0) {
      throw new IllegalArgumentException(
          path
              + " holds a lone surrogate (\\u"
              + Integer.toHexString(text.charAt(at)).toUpperCase(Locale.ROOT)
              + " without its pair at index "
              + at
              + "); JSON text must be valid UTF-16");
    }
    return text;
  }

  private static IllegalArgumentException malformed(JsonProcessingException e, JsonLocation at) {
    String what = e instanceof StreamConstraintsException ? "exceeds a limit" : "is malformed";
    // Jackson's limit messages name its own setting ("from `StreamReadConstraints...`"): drop that
    String fault = String.valueOf(e.getOriginalMessage()).replaceAll(", from `[^`]*`", "");
    return new IllegalArgumentException("event JSON " + what + " at " + where(at) + ": " + fault);
  }

  private static String where(JsonLocation at) {
    return at == null
        ? "an unknown position"
        : "line " + at.getLineNr() + ", column " + at.getColumnNr();
  }

  private static String abbreviate(String text) {
    if (text.length() <= 40) {
      return text;
    }
    int end = Character.isHighSurrogate(text.charAt(38)) ? 38 : 39;
    return text.substring(0, end) + "…";
  }

  private static String validTypes() {
    StringJoiner names = new StringJoiner(", ", "", " (case, '_' and '-' are ignored)");
    for (LifecycleEventType type : LifecycleEventType.values()) {
      names.add(type.wireName());
    }
    return names.toString();
  }
}
