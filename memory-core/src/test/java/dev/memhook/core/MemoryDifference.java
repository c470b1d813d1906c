package dev.memhook.core;

import dev.memhook.api.Memory;
import java.lang.reflect.RecordComponent;
import java.util.Objects;

/**
 * Which component of two memories differs, with its values escaped to ASCII: a failure message that
 * holds hostile text whole can be cut short by the reports that print it.
 */
final class MemoryDifference {

  private MemoryDifference() {}

  /** "no difference", or the first differing component and both values, escaped. */
  static String of(Memory expected, Memory actual) {
    if (expected == null || actual == null) {
      return "one is null";
    }
    for (RecordComponent c : Memory.class.getRecordComponents()) {
      try {
        Object a = c.getAccessor().invoke(expected);
        Object b = c.getAccessor().invoke(actual);
        if (!Objects.equals(a, b)) {
          return c.getName()
              + " differs: "
              + escape(String.valueOf(a))
              + " vs "
              + escape(String.valueOf(b));
        }
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
    }
    return "no difference";
  }

  private static String escape(String s) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < s.length() && out.length() < 2_000; i++) {
      char c = s.charAt(i);
      if (c >= 0x20 && c < 0x7f) {
        out.append(c);
      } else {
        out.append(String.format("\\u%04x", (int) c));
      }
    }
    return out.toString();
  }
}
