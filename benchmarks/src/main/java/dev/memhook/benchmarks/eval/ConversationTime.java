package dev.memhook.benchmarks.eval;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Parses the session times of conversation data sets, such as {@code 1:56 pm on 8 May, 2023}
 * (12-hour clock, case-insensitive am/pm, English month names, full or three-letter), read as UTC,
 * LongMemEval's {@code 2023/04/20 (Thu) 05:18} (read as UTC), and ISO-8601 date-times such as
 * {@code 2026-03-02T10:15:00Z} or {@code 2026-03-02T10:15:00+09:00} (without an offset: read as
 * UTC). A date alone is not a time. Stateless and thread-safe.
 */
public final class ConversationTime {

  private static final DateTimeFormatter FULL = formatter("h:mm a 'on' d MMMM, yyyy");
  private static final DateTimeFormatter SHORT = formatter("h:mm a 'on' d MMM, yyyy");
  private static final DateTimeFormatter SPACED = formatter("yyyy-MM-dd HH:mm[:ss]");
  private static final DateTimeFormatter SLASHED_WEEKDAY = formatter("yyyy/MM/dd (EEE) HH:mm");

  private ConversationTime() {}

  private static DateTimeFormatter formatter(String pattern) {
    return new DateTimeFormatterBuilder()
        .parseCaseInsensitive()
        .appendPattern(pattern)
        .toFormatter(Locale.ENGLISH);
  }

  /** The instant {@code text} names, or empty if it is not in a known format. */
  public static Optional<Instant> parse(String text) {
    Objects.requireNonNull(text, "text");
    String t = text.strip().replaceAll("\\s+", " ");
    try {
      return Optional.of(
          OffsetDateTime.parse(t, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant());
    } catch (DateTimeParseException e) {
      // not an ISO date-time with an offset
    }
    try {
      return Optional.of(
          LocalDateTime.parse(t, DateTimeFormatter.ISO_LOCAL_DATE_TIME).toInstant(ZoneOffset.UTC));
    } catch (DateTimeParseException e) {
      // not an ISO local date-time
    }
    try {
      return Optional.of(
          LocalDateTime.parse(t, SPACED).toInstant(ZoneOffset.UTC)); // "2023-05-08 13:56[:07]"
    } catch (DateTimeParseException e) {
      // not an ISO date-time with a space
    }
    try {
      return Optional.of(ZonedDateTime.parse(t, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant());
    } catch (DateTimeParseException e) {
      // not an RFC 1123 (HTTP, mail) date
    }
    try {
      return Optional.of(LocalDate.parse(t).atStartOfDay(ZoneOffset.UTC).toInstant());
    } catch (DateTimeParseException e) {
      // not an ISO date
    }
    if (t.matches("\\d{9,13}")) { // Unix time: seconds up to 10 digits, milliseconds past
      long n = Long.parseLong(t);
      return Optional.of(t.length() > 10 ? Instant.ofEpochMilli(n) : Instant.ofEpochSecond(n));
    }
    for (DateTimeFormatter f : new DateTimeFormatter[] {FULL, SHORT, SLASHED_WEEKDAY}) {
      try {
        return Optional.of(LocalDateTime.parse(t, f).toInstant(ZoneOffset.UTC));
      } catch (DateTimeParseException e) {
        // try the next format
      }
    }
    return Optional.empty();
  }
}
