package dev.memhook.core.internal.inject;

import dev.memhook.api.MemoryId;
import dev.memhook.api.trace.FetchRecord;
import dev.memhook.core.internal.inject.excerpt.Excerpts;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * What the model may send the {@code get_memory} tool, read into what the tool acts on. Every rule
 * about arguments lives here, the normalisation rules among them:
 *
 * <ol>
 *   <li>{@code ids} given as one id string is read as a one-element list;
 *   <li>an id repeated in {@code ids} is answered once, in the place it first appears;
 *   <li>{@code offset} may be any JSON number with a whole value ({@code 5}, {@code 5.0});
 *   <li>an empty {@code focus} is no focus.
 * </ol>
 *
 * Anything else is refused with a code and a message: an unknown argument, both or neither of
 * {@code id} and {@code ids}, {@code summary} that is not a boolean or comes with {@code id}, an
 * {@code offset} that is not a whole number or comes with {@code ids}, an empty or oversized list,
 * an entry that is not a memory id string.
 *
 * <p>Stateless.
 */
final class FetchArguments {

  /** The most characters of the model's text an error message echoes. */
  private static final int ECHO_CHARS = 40;

  /** The longest {@code focus} a call may give. */
  static final int MAX_FOCUS_CHARS = 1_000;

  /** The most argument keys a log line names. */
  private static final int LOGGED_KEYS = 5;

  private FetchArguments() {}

  /** What the arguments came to. */
  sealed interface Parsed {
    /** The arguments as the tool acts on them, for the fetch record. */
    Map<String, Object> effective();
  }

  /** Refused, with the structured error's code and message. */
  record Refused(String code, String message) implements Parsed {
    @Override
    public Map<String, Object> effective() {
      return Map.of();
    }
  }

  /** One memory in full, from {@code offset}. */
  record Single(String id, long offset) implements Parsed {
    @Override
    public Map<String, Object> effective() {
      return offset == 0 ? Map.of("id", echo(id)) : Map.of("id", echo(id), "offset", offset);
    }
  }

  /**
   * Several memories, as summaries or in full; no id twice.
   *
   * @param focus the words a summary's excerpt is chosen for ({@link Excerpts}); empty for none,
   *     and always empty without {@code summary}
   */
  record Batch(List<String> ids, boolean summary, String focus) implements Parsed {
    @Override
    public Map<String, Object> effective() {
      Map<String, Object> out = new LinkedHashMap<>();
      out.put("ids", ids.stream().map(FetchArguments::echo).toList());
      out.put("summary", summary);
      if (!focus.isEmpty()) {
        out.put("focus", focus);
      }
      return out;
    }
  }

  /** Reads {@code args}; never throws for bad arguments. */
  static Parsed parse(Map<String, Object> args) {
    for (String key : args.keySet()) {
      if (!"id".equals(key)
          && !"ids".equals(key)
          && !"summary".equals(key)
          && !"offset".equals(key)
          && !"focus".equals(key)) {
        return new Refused(
            "invalid_arguments",
            "unknown argument "
                + (key == null ? "null" : "'" + echo(key) + "'")
                + "; expected id (and offset), or ids (and summary, and focus with summary)");
      }
    }
    boolean hasId = args.containsKey("id");
    boolean hasIds = args.containsKey("ids");
    if (hasId == hasIds) {
      return new Refused(
          "invalid_arguments",
          hasId ? "pass either id or ids, not both" : "missing argument: pass id or ids");
    }
    Object summaryArg = args.get("summary");
    if (summaryArg != null && !(summaryArg instanceof Boolean)) {
      return new Refused("invalid_arguments", "summary must be a boolean");
    }
    Object focusArg = args.get("focus");
    if (focusArg != null && (!(focusArg instanceof String f) || f.length() > MAX_FOCUS_CHARS)) {
      return new Refused(
          "invalid_arguments",
          "focus must be a string of at most " + MAX_FOCUS_CHARS + " characters");
    }
    String focus = focusArg == null ? "" : (String) focusArg;
    if (!focus.isEmpty() && (hasId || !Boolean.TRUE.equals(summaryArg))) {
      return new Refused("invalid_arguments", "focus applies to ids with summary: true only");
    }
    if (hasId) {
      if (summaryArg != null) {
        return new Refused("invalid_arguments", "summary applies to ids only");
      }
      return single(args.get("id"), args.get("offset"));
    }
    if (args.get("offset") != null) {
      return new Refused(
          "invalid_arguments", "offset applies to id only: page through one memory at a time");
    }
    return batch(args.get("ids"), Boolean.TRUE.equals(summaryArg), focus);
  }

  private static Parsed single(Object idArg, Object offsetArg) {
    if (!(idArg instanceof String s) || !MemoryId.isValid(s)) {
      return new Refused("invalid_arguments", "id must be a memory id string");
    }
    long offset = 0;
    if (offsetArg != null) {
      offset = wholeNumber(offsetArg);
      if (offset < 0) {
        return new Refused(
            "invalid_arguments",
            "offset must be a whole number from 0 to the content length, as nextOffset gives it");
      }
    }
    return new Single(s, offset);
  }

  private static Parsed batch(Object idsArg, boolean summary, String focus) {
    List<?> list;
    if (idsArg instanceof String one) {
      list = List.of(one); // rule 1
    } else if (idsArg instanceof List<?> given) {
      list = given;
    } else {
      return new Refused("invalid_arguments", "ids must be a list of memory id strings");
    }
    if (list.isEmpty()) {
      return new Refused("invalid_arguments", "ids must not be empty");
    }
    int max = summary ? GetMemoryTool.MAX_SUMMARY_IDS : GetMemoryTool.MAX_FULL_IDS;
    if (list.size() > max) {
      return new Refused(
          "too_many_ids",
          "at most "
              + max
              + " ids per call"
              + (summary ? "" : " without summary")
              + ", got "
              + list.size());
    }
    LinkedHashSet<String> ids = new LinkedHashSet<>(); // rule 2
    for (Object o : list) {
      if (!(o instanceof String s) || !MemoryId.isValid(s)) {
        return new Refused(
            "invalid_arguments",
            "every entry of ids must be a memory id string, got "
                + (o == null
                    ? "null"
                    : o instanceof String s2
                        ? "'" + echo(s2) + "'"
                        : o.getClass().getSimpleName()));
      }
      ids.add(s);
    }
    return new Batch(new ArrayList<>(ids), summary, focus);
  }

  /**
   * {@code value} as a non-negative whole number, or -1 if it is not one: a number of any JSON type
   * with an integral value up to {@code Integer.MAX_VALUE} (rule 3). Never formats the number,
   * which for a huge one could be slow.
   */
  static long wholeNumber(Object value) {
    if (value instanceof Integer
        || value instanceof Long
        || value instanceof Short
        || value instanceof Byte) {
      long v = ((Number) value).longValue();
      return v <= Integer.MAX_VALUE ? v : -1;
    }
    if (value instanceof BigInteger b) {
      return b.signum() >= 0 && b.bitLength() < 32 ? b.longValue() : -1;
    }
    if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      return d >= 0 && d <= Integer.MAX_VALUE && d == Math.rint(d) ? (long) d : -1;
    }
    if (value instanceof BigDecimal b) {
      if (b.signum() == 0) {
        return 0;
      }
      if (b.signum() < 0 || b.precision() - b.scale() > 10) {
        return -1;
      }
      try {
        long v = b.longValueExact();
        return v <= Integer.MAX_VALUE ? v : -1;
      } catch (ArithmeticException notWhole) {
        return -1;
      }
    }
    return -1;
  }

  /** The model's text as an error message or a record echoes it: short, and no pair split. */
  static String echo(String s) {
    return JsonText.abbreviate(s, ECHO_CHARS);
  }

  /**
   * {@code args} as a fetch record keeps them: strings cut to {@value FetchRecord#MAX_ECHOED_CHARS}
   * characters, lists and maps to {@value FetchRecord#MAX_ECHOED_ENTRIES} entries, nested values no
   * deeper than a few levels, all unmodifiable. Null keys and values, which {@link Map#copyOf}
   * refuses, are written as the string {@code "null"} and left out.
   */
  static Map<String, Object> recorded(Map<String, Object> args, UnaryOperator<String> sanitize) {
    return recordedMap(args, 0, sanitize);
  }

  private static final int MAX_DEPTH = 4;

  private static Map<String, Object> recordedMap(
      Map<?, ?> map, int depth, UnaryOperator<String> sanitize) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : map.entrySet()) {
      if (out.size() == FetchRecord.MAX_ECHOED_ENTRIES) {
        break;
      }
      Object value = recordedValue(e.getValue(), depth + 1, sanitize);
      if (value != null) {
        out.put(cut(scalarText(e.getKey()), sanitize), value);
      }
    }
    return Map.copyOf(out);
  }

  /**
   * {@code s} cut, then sanitized, then cut again: a huge string is not sanitized whole, and what
   * the sanitizer leaves (a redaction marker may be longer than the secret) still fits.
   */
  private static String cut(String s, UnaryOperator<String> sanitize) {
    String head = JsonText.abbreviate(s, FetchRecord.MAX_ECHOED_CHARS * 4);
    return JsonText.abbreviate(sanitize.apply(head), FetchRecord.MAX_ECHOED_CHARS);
  }

  private static Object recordedValue(Object value, int depth, UnaryOperator<String> sanitize) {
    if (value == null) {
      return null;
    }
    if (value instanceof String s) {
      return cut(s, sanitize);
    }
    if (value instanceof Number || value instanceof Boolean) {
      return value;
    }
    if (depth > MAX_DEPTH) {
      return "…";
    }
    if (value instanceof Object[] array) {
      value = Arrays.asList(array);
    }
    if (value instanceof Iterable<?> list) {
      List<Object> out = new ArrayList<>();
      for (Object o : list) {
        if (out.size() == FetchRecord.MAX_ECHOED_ENTRIES) {
          break;
        }
        Object v = recordedValue(o, depth + 1, sanitize);
        if (v != null) {
          out.add(v);
        }
      }
      return List.copyOf(out);
    }
    if (value instanceof Map<?, ?> map) {
      return recordedMap(map, depth, sanitize);
    }
    return cut(scalarText(value), sanitize);
  }

  /**
   * A key or a value that is not JSON-like as text: a string, character or enum constant as itself,
   * a map or collection as {@code {…}} or {@code […]}, anything else by its type's name. Never
   * calls an unknown type's {@code toString}, which may walk a structure without end.
   */
  private static String scalarText(Object value) {
    if (value == null
        || value instanceof CharSequence
        || value instanceof Character
        || value instanceof Number
        || value instanceof Boolean
        || value instanceof Enum<?>) {
      return String.valueOf(value);
    }
    if (value instanceof Map<?, ?>) {
      return "{…}";
    }
    if (value instanceof Iterable<?> || value instanceof Object[]) {
      return "[…]";
    }
    return "<" + value.getClass().getSimpleName() + ">";
  }

  /**
   * What the log says about {@code args}: the first few keys, abbreviated, with the type of each
   * value. Never a value: it may be huge, nested without end, or a secret the model repeated.
   */
  static String describe(Map<String, Object> args) {
    StringBuilder out = new StringBuilder().append(args.size()).append(" argument(s) {");
    int shown = 0;
    for (Map.Entry<String, Object> e : args.entrySet()) {
      if (shown == LOGGED_KEYS) {
        out.append(", …");
        break;
      }
      out.append(shown++ == 0 ? "" : ", ")
          .append(e.getKey() == null ? "null" : echo(e.getKey()))
          .append(": ")
          .append(e.getValue() == null ? "null" : e.getValue().getClass().getSimpleName());
    }
    return out.append('}').toString();
  }
}
