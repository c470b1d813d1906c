package dev.memhook.cli;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Scope;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Option;

/**
 * The filter options of {@code list} and {@code forget}: scope, type, session and a creation time
 * range; options not given match everything. Times are ISO-8601 instants ({@code
 * 2026-11-30T10:15:00Z}), dates ({@code 2026-11-30}, midnight UTC) or ages ({@code 90m}, {@code
 * 12h}, {@code 7d}: that long before now). Not thread-safe; one per command run.
 */
final class MemoryFilter {
  private static final Pattern AGE = Pattern.compile("(\\d{1,9})([smhd])");

  @Option(names = "--scope", paramLabel = "SCOPE", description = "Only this scope.")
  Scope scope;

  @Option(names = "--type", paramLabel = "TYPE", description = "Only this memory type.")
  MemoryType type;

  @Option(names = "--session", paramLabel = "ID", description = "Only memories of this session.")
  String session;

  @Option(
      names = "--since",
      paramLabel = "TIME",
      description = "Only memories stored at or after TIME (2026-11-30T10:15:00Z, 2026-11-30, 7d).")
  String since;

  @Option(
      names = "--until",
      paramLabel = "TIME",
      description = "Only memories stored before TIME (same forms as --since).")
  String until;

  /** Whether any option was given. */
  boolean restricts() {
    return scope != null || type != null || session != null || since != null || until != null;
  }

  /**
   * The filter as a predicate, with ages counted back from {@code now}.
   *
   * @throws CliException ({@link ExitCode#USAGE}) if a time is malformed
   */
  Predicate<Memory> predicate(Instant now) {
    Instant from = since == null ? null : time("--since", since, now);
    Instant to = until == null ? null : time("--until", until, now);
    return m ->
        (scope == null || m.scope().equals(scope))
            && (type == null || m.type() == type)
            && (session == null || session.equals(m.sourceSession()))
            && (from == null || !m.createdAt().isBefore(from))
            && (to == null || m.createdAt().isBefore(to));
  }

  static Instant time(String option, String text, Instant now) {
    Matcher age = AGE.matcher(text.toLowerCase(Locale.ROOT));
    if (age.matches()) {
      long n = Long.parseLong(age.group(1));
      Duration d =
          switch (age.group(2)) {
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
          };
      return now.minus(d);
    }
    try {
      return text.contains("T")
          ? Instant.parse(text)
          : LocalDate.parse(text).atStartOfDay(ZoneOffset.UTC).toInstant();
    } catch (DateTimeParseException e) {
      throw new CliException(
          ExitCode.USAGE,
          option
              + " must be an instant (2026-11-30T10:15:00Z), a date (2026-11-30) or an age (7d,"
              + " 12h, 90m), got '"
              + text
              + "'");
    }
  }
}
