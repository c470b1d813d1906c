package dev.memhook.api;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The checks behind the field limits stated on {@link MemoryDraft}, kept in one place so that a
 * draft, a stored {@link Memory} and a {@link SourcePin} enforce exactly the same numbers. Each
 * check throws an {@link IllegalArgumentException} that names the field, the limit and what it got,
 * and never echoes the offending text (it may be huge, or a secret).
 *
 * <p>Stateless.
 */
final class FieldLimits {

  private FieldLimits() {}

  /** {@code value} if it is at most {@code max} characters long. */
  static String length(String field, String value, int max) {
    Objects.requireNonNull(value, field);
    if (value.length() > max) {
      throw new IllegalArgumentException(
          field + " must be at most " + max + " characters, got " + value.length());
    }
    return value;
  }

  /** {@code value} if it is null, or non-blank and at most {@code max} characters long. */
  static String optional(String field, String value, int max) {
    if (value == null) {
      return null;
    }
    if (value.isBlank()) {
      throw new IllegalArgumentException(field + " must be null or non-blank");
    }
    return length(field, value, max);
  }

  /**
   * An unmodifiable copy of {@code values}: at most {@code maxCount} entries, none null, none
   * longer than {@code maxLength}; blank entries only if {@code blankAllowed}.
   */
  static List<String> strings(
      String field, List<String> values, int maxCount, int maxLength, boolean blankAllowed) {
    Objects.requireNonNull(values, field);
    count(field, values.size(), maxCount);
    for (int i = 0; i < values.size(); i++) {
      String v = values.get(i);
      if (v == null) {
        throw new NullPointerException(field + "[" + i + "] is null");
      }
      if (!blankAllowed && v.isBlank()) {
        throw new IllegalArgumentException(field + "[" + i + "] must not be blank");
      }
      length(field + "[" + i + "]", v, maxLength);
    }
    return List.copyOf(values);
  }

  /**
   * An unmodifiable, order-keeping copy of {@code attributes}: at most {@value
   * MemoryDraft#MAX_ATTRIBUTES} entries, keys non-blank and at most {@value
   * MemoryDraft#MAX_ATTRIBUTE_KEY} characters, values non-null and at most {@value
   * MemoryDraft#MAX_ATTRIBUTE_VALUE}. An entry is named by its position in iteration order ({@code
   * attributes[2] key}), never by its key, which may be a secret as much as its value.
   */
  static Map<String, String> attributes(Map<String, String> attributes) {
    Objects.requireNonNull(attributes, "attributes");
    count("attributes", attributes.size(), MemoryDraft.MAX_ATTRIBUTES);
    Map<String, String> copy = new LinkedHashMap<>();
    int i = 0;
    for (Map.Entry<String, String> e : attributes.entrySet()) {
      String k = e.getKey();
      String v = e.getValue();
      String entry = "attributes[" + i++ + "]";
      if (k == null || v == null) {
        throw new NullPointerException(entry + " has a null key or value");
      }
      if (k.isBlank()) {
        throw new IllegalArgumentException(entry + " key must not be blank");
      }
      length(entry + " key", k, MemoryDraft.MAX_ATTRIBUTE_KEY);
      length(entry + " value", v, MemoryDraft.MAX_ATTRIBUTE_VALUE);
      copy.put(k, v);
    }
    return Collections.unmodifiableMap(copy);
  }

  /** An unmodifiable copy of {@code pins}, at most {@value MemoryDraft#MAX_SOURCE_PINS}. */
  static List<SourcePin> pins(List<SourcePin> pins) {
    Objects.requireNonNull(pins, "sourcePins");
    count("sourcePins", pins.size(), MemoryDraft.MAX_SOURCE_PINS);
    return List.copyOf(pins);
  }

  /**
   * {@code value} as an error message may quote it: its first {@code max} characters and an
   * ellipsis, so a message never carries a huge value.
   */
  static String abbreviate(String value, int max) {
    return value.length() <= max ? value : value.substring(0, max) + "…";
  }

  private static void count(String field, int size, int max) {
    if (size > max) {
      throw new IllegalArgumentException(
          field + " must hold at most " + max + " entries, got " + size);
    }
  }
}
