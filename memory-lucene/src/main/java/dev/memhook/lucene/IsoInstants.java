package dev.memhook.lucene;

import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;

/**
 * Reads the instants a stored record holds, which {@link Instant#toString()} wrote.
 *
 * <h2>Design note</h2>
 *
 * Every record read back parses two instants, and {@link Instant#parse} (a general ISO-8601
 * formatter: a parse context, a field map, a resolver) cost about as much as parsing the rest of
 * the record's JSON. The form {@code Instant.toString()} writes for the years 0000 to 9999 is
 * fixed: {@code yyyy-MM-ddTHH:mm:ssZ}, with a fraction of up to nine digits after the seconds. Text
 * of exactly that form, with a date that exists and a time within the day, is read here by
 * position; anything else (a leap second, a year beyond 9999, an offset, a malformed value) goes to
 * {@code Instant.parse}, so the result, and the exception for text that is not an instant, are
 * always {@code Instant.parse}'s.
 *
 * <p>Stateless and thread-safe.
 */
final class IsoInstants {
  private static final long SECONDS_PER_DAY = 86_400;

  /** Powers of ten that scale a fraction of {@code n} digits to nanoseconds, by {@code n}. */
  private static final int[] NANOS_PER_UNIT = {
    0, 100_000_000, 10_000_000, 1_000_000, 100_000, 10_000, 1_000, 100, 10, 1
  };

  private IsoInstants() {}

  /**
   * The instant {@code text} names, as {@link Instant#parse} reads it.
   *
   * @throws DateTimeParseException if it is not an instant
   * @throws NullPointerException if {@code text} is null
   */
  static Instant parse(CharSequence text) {
    Instant read = canonical(text);
    return read != null ? read : Instant.parse(text);
  }

  /**
   * The instant of {@code s} if it has the form {@code Instant.toString()} writes for the years
   * 0000 to 9999 and names a valid date and a time within the day; else null.
   */
  private static Instant canonical(CharSequence s) {
    int n = s.length();
    if (n < 20
        || n > 30
        || n == 21
        || s.charAt(4) != '-'
        || s.charAt(7) != '-'
        || s.charAt(10) != 'T'
        || s.charAt(13) != ':'
        || s.charAt(16) != ':'
        || s.charAt(n - 1) != 'Z'
        || (n > 20 && s.charAt(19) != '.')) {
      return null;
    }
    int year = digits(s, 0, 4);
    int month = digits(s, 5, 2);
    int day = digits(s, 8, 2);
    int hour = digits(s, 11, 2);
    int minute = digits(s, 14, 2);
    int second = digits(s, 17, 2);
    int fraction = n > 20 ? digits(s, 20, n - 21) : 0;
    if (year < 0
        || month < 1
        || month > 12
        || day < 1
        || day > lengthOfMonth(year, month)
        || hour < 0
        || hour > 23
        || minute < 0
        || minute > 59
        || second < 0
        || second > 59
        || fraction < 0) {
      return null;
    }
    long epochDay = LocalDate.of(year, month, day).toEpochDay();
    long seconds = epochDay * SECONDS_PER_DAY + hour * 3_600L + minute * 60L + second;
    return Instant.ofEpochSecond(seconds, n > 20 ? fraction * NANOS_PER_UNIT[n - 21] : 0);
  }

  /** The number the {@code count} ASCII digits at {@code from} spell, or -1 if any is not one. */
  private static int digits(CharSequence s, int from, int count) {
    int value = 0;
    for (int i = from; i < from + count; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    return value;
  }

  private static int lengthOfMonth(int year, int month) {
    return switch (month) {
      case 2 -> (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28;
      case 4, 6, 9, 11 -> 30;
      default -> 31;
    };
  }
}
