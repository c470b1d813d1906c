package dev.memhook.api.chat;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.Iterator;
import java.util.Map;

/**
 * Tool-call arguments as the short human-readable text a {@link ChatMessage#toolCall} message and
 * {@link ToolCall#toString()} show: a map as {@code {key=value, …}} and a list (or any other
 * iterable or array) as {@code [a, b]}, as {@link java.util.AbstractMap#toString()} writes them;
 * any other value by {@link String#valueOf(Object)}.
 *
 * <p>Arguments come from a model and may nest without end, so the walk is iterative, never
 * recursive, and a map or list nested more than {@value #MAX_DEPTH} levels deep is written as
 * {@code {…}} or {@code […]}: rendering a call never overflows the stack, whatever it holds (a map
 * that contains itself included).
 *
 * <p>Stateless and thread-safe.
 */
final class ArgumentsText {

  /** The deepest map or list written out; a deeper one is shown as {@code {…}} or {@code […]}. */
  static final int MAX_DEPTH = 32;

  private ArgumentsText() {}

  /** One open map or list: its remaining entries, and whether one was written yet. */
  private static final class Level {
    final Iterator<?> items;
    final boolean map;
    boolean first = true;

    Level(Iterator<?> items, boolean map) {
      this.items = items;
      this.map = map;
    }
  }

  /** {@code value} rendered, nested maps and lists cut at {@link #MAX_DEPTH}. */
  static String of(Object value) {
    StringBuilder out = new StringBuilder();
    Deque<Level> open = new ArrayDeque<>();
    Object next = value;
    boolean pending = true;
    while (true) {
      if (pending) {
        pending = false;
        Iterator<?> items = itemsOf(next);
        if (items == null) {
          out.append(next);
        } else if (open.size() >= MAX_DEPTH) {
          out.append(next instanceof Map ? "{…}" : "[…]");
        } else {
          boolean map = next instanceof Map;
          out.append(map ? '{' : '[');
          open.push(new Level(items, map));
        }
      }
      Level top = open.peek();
      if (top == null) {
        return out.toString();
      }
      if (!top.items.hasNext()) {
        out.append(top.map ? '}' : ']');
        open.pop();
        continue;
      }
      if (!top.first) {
        out.append(", ");
      }
      top.first = false;
      Object item = top.items.next();
      if (top.map) {
        Map.Entry<?, ?> entry = (Map.Entry<?, ?>) item;
        Object key = entry.getKey();
        out.append(itemsOf(key) == null ? key : key instanceof Map ? "{…}" : "[…]").append('=');
        next = entry.getValue();
      } else {
        next = item;
      }
      pending = true;
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
