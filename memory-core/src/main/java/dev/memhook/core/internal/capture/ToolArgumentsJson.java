package dev.memhook.core.internal.capture;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.memhook.api.MemoryDraft;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.Iterator;
import java.util.Map;

/**
 * A tool call's arguments as the JSON text capture records as the tool's input: maps as objects,
 * lists (any iterable or array) as arrays, strings, numbers, booleans and null as themselves, and
 * any other value as the string {@link String#valueOf(Object)} gives.
 *
 * <p>Arguments come from a model and may nest without end. The walk is iterative, never recursive,
 * and a map or list nested deeper than {@link CaptureJson#MAX_DEPTH} levels (the outermost
 * included) is written as the string {@link MemoryDraft#CUT_MARKER}: writing never overflows the
 * stack, and what it writes stays within the depth {@link EventScrub} reads back as JSON.
 * Non-finite numbers, which JSON cannot hold, are written as strings.
 *
 * <p>Stateless and thread-safe.
 */
final class ToolArgumentsJson {

  private ToolArgumentsJson() {}

  /** One open object or array: its remaining entries. */
  private record Level(Iterator<?> items, boolean object) {}

  /** {@code arguments} as compact JSON text, nesting cut at {@link CaptureJson#MAX_DEPTH}. */
  static String of(Map<String, Object> arguments) {
    StringWriter out = new StringWriter();
    try (JsonGenerator g = CaptureJson.FACTORY.createGenerator(out)) {
      write(arguments, g);
    } catch (IOException e) {
      // a StringWriter does no I/O
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  private static void write(Object root, JsonGenerator g) throws IOException {
    Deque<Level> open = new ArrayDeque<>();
    Object next = root;
    boolean pending = true;
    while (true) {
      if (pending) {
        pending = false;
        Iterator<?> items = itemsOf(next);
        if (items == null) {
          scalar(next, g);
        } else if (open.size() >= CaptureJson.MAX_DEPTH) {
          g.writeString(MemoryDraft.CUT_MARKER);
        } else if (next instanceof Map) {
          g.writeStartObject();
          open.push(new Level(items, true));
        } else {
          g.writeStartArray();
          open.push(new Level(items, false));
        }
      }
      Level top = open.peek();
      if (top == null) {
        return;
      }
      if (!top.items().hasNext()) {
        if (top.object()) {
          g.writeEndObject();
        } else {
          g.writeEndArray();
        }
        open.pop();
        continue;
      }
      Object item = top.items().next();
      if (top.object()) {
        Map.Entry<?, ?> entry = (Map.Entry<?, ?>) item;
        Object key = entry.getKey();
        g.writeFieldName(itemsOf(key) == null ? String.valueOf(key) : MemoryDraft.CUT_MARKER);
        next = entry.getValue();
      } else {
        next = item;
      }
      pending = true;
    }
  }

  private static void scalar(Object value, JsonGenerator g) throws IOException {
    if (value == null) {
      g.writeNull();
    } else if (value instanceof Boolean b) {
      g.writeBoolean(b);
    } else if (value instanceof Integer
        || value instanceof Long
        || value instanceof Short
        || value instanceof Byte) {
      g.writeNumber(((Number) value).longValue());
    } else if (value instanceof BigInteger b) {
      g.writeNumber(b);
    } else if (value instanceof BigDecimal b) {
      g.writeNumber(b);
    } else if (value instanceof Double d && Double.isFinite(d)) {
      g.writeNumber(d);
    } else if (value instanceof Float f && Float.isFinite(f)) {
      g.writeNumber(f);
    } else {
      g.writeString(String.valueOf(value));
    }
  }

  /** The entries of a map, the elements of an iterable or array, or null for any other value. */
  private static Iterator<?> itemsOf(Object value) {
    if (value instanceof Map<?, ?> map) {
      return map.entrySet().iterator();
    }
    if (value instanceof Iterable<?> iterable) {
      return iterable.iterator();
    }
    if (value instanceof Object[] array) {
      return Arrays.asList(array).iterator();
    }
    return null;
  }
}
