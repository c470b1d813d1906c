package dev.memhook.benchmarks.eval;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Parses the session times of conversation data sets, such as {@code 1:56 pm on 8 May, 2023}
 * (12-hour clock, case-insensitive am/pm, English month names, full or three-letter), read as UTC.
 * Stateless and thread-safe.
 */
public final class ConversationTime {

  private static final DateTimeFormatter FULL = formatter("h:mm a 'on' d MMMM, yyyy");
  private static final DateTimeFormatter SHORT = formatter("h:mm a 'on' d MMM, yyyy");

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
    for (DateTimeFormatter f : new DateTimeFormatter[] {FULL, SHORT}) {
      try {
        return Optional.of(LocalDateTime.parse(t, f).toInstant(ZoneOffset.UTC));
      } catch (DateTimeParseException e) {
        // try the next format
      }
    }
    return Optional.empty();
  }
}
