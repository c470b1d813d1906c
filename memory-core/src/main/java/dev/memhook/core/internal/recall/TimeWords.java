package dev.memhook.core.internal.recall;

import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.Month;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the time a question names ("yesterday", "last week", "in May", "on Monday", "three weeks
 * ago", "in 2023", "before June 5, 2023") as a window of instants, counted from a reference instant
 * (when the question is asked). Dates are calendar days in UTC, the zone memories' times are
 * compared in.
 *
 * <p>The forms, case-insensitive unless said:
 *
 * <ul>
 *   <li>{@code today}, {@code tonight}, {@code this morning}: the reference day; {@code yesterday},
 *       {@code last night}: the day before; {@code the day before yesterday};
 *   <li>{@code last|past|previous week|month|year}: the calendar unit before the reference's
 *       ({@code past} and {@code previous} the same); {@code this week|month|year}: the reference's
 *       unit up to the reference; {@code last weekend}: the last Saturday and Sunday wholly before
 *       the reference day;
 *   <li>{@code last|past N days|weeks|months|years}: from N units before the reference to it;
 *   <li>{@code N days|weeks|months|years ago} (N a number, a word up to twelve, {@code a}, {@code
 *       an}, {@code a couple of}, {@code a few}): the unit around that point;
 *   <li>a month: {@code in|during|since|until|before|after|by|early|mid|late|last|this} + month
 *       name, or a month name with a year ({@code May 2023}): the month, in the given year, else
 *       the latest one not after the reference ({@code last May}: before the reference's month);
 *   <li>a date: {@code May 5}, {@code 5 May}, {@code May 5th, 2023}, {@code 2023-05-05}: the day
 *       (without a year, the latest not after the reference);
 *   <li>a year: {@code in|during|since|until|before|after|by} + a year from 1900 to 2099;
 *   <li>a weekday: {@code on|last|this past} + weekday: the latest one on or before the reference
 *       day ({@code last}: before it);
 *   <li>{@code before|after|since|until|prior to} + any date above: everything before its start or
 *       after its end; {@code N units before|after} + a date: the unit around that point.
 * </ul>
 *
 * Only full month names count, and "May" only capitalised or with a year: "may I", "march forward",
 * "a second" and "in a month or two" name no time. A window that would lie wholly after the
 * reference is no window (memories come from the past) and one that reaches past it is cut at it.
 * When a question names several times, the narrowest window wins. Stateless and thread-safe.
 */
final class TimeWords {

  /**
   * A span of time a question names.
   *
   * @param start the first instant in it ({@link Instant#MIN} when open before)
   * @param end the first instant after it ({@link Instant#MAX} when open after)
   * @param phrase the words that named it, as written
   */
  record TimeWindow(Instant start, Instant end, String phrase) {

    /** Whether it is open on either side ("before May", "since 2022"). */
    boolean open() {
      return start.equals(Instant.MIN) || end.equals(Instant.MAX);
    }

    /** Its length; {@link Duration#ZERO} for a window open on either side. */
    Duration length() {
      return open() ? Duration.ZERO : Duration.between(start, end);
    }
  }

  private static final String MONTHS =
      "january|february|march|april|may|june|july|august|september|october|november|december";
  private static final String UNITS = "day|week|month|year";
  private static final String NUMBER =
      "\\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
          + "|a couple of|a few|couple of|few";
  private static final String DAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday";

  private static final Map<String, Integer> NUMBER_WORDS =
      Map.ofEntries(
          Map.entry("a", 1),
          Map.entry("an", 1),
          Map.entry("one", 1),
          Map.entry("two", 2),
          Map.entry("three", 3),
          Map.entry("four", 4),
          Map.entry("five", 5),
          Map.entry("six", 6),
          Map.entry("seven", 7),
          Map.entry("eight", 8),
          Map.entry("nine", 9),
          Map.entry("ten", 10),
          Map.entry("eleven", 11),
          Map.entry("twelve", 12),
          Map.entry("a couple of", 2),
          Map.entry("couple of", 2),
          Map.entry("a few", 3),
          Map.entry("few", 3));

  private static final Pattern ISO_DATE =
      Pattern.compile("(?<![\\d-])((?:19|20)\\d{2})-(\\d{2})-(\\d{2})(?![\\d-])");
  private static final Pattern MONTH_DAY =
      Pattern.compile(
          "(?i)\\b("
              + MONTHS
              + ")\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b(?:,?\\s+((?:19|20)\\d{2})\\b)?");
  private static final Pattern DAY_MONTH =
      Pattern.compile(
          "(?i)\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?("
              + MONTHS
              + ")\\b(?:,?\\s+((?:19|20)\\d{2})\\b)?");
  private static final Pattern MONTH_YEAR =
      Pattern.compile("(?i)\\b(" + MONTHS + "),?\\s+((?:19|20)\\d{2})\\b");
  private static final Pattern MONTH =
      Pattern.compile(
          "(?i)\\b(in|during|since|until|till|before|after|by|early|mid|late|last|this|of)\\s+("
              + MONTHS
              + ")\\b");
  private static final Pattern YEAR =
      Pattern.compile(
          "(?i)\\b(in|during|since|until|till|before|after|by)\\s+(?:the\\s+year\\s+)?((?:19|20)\\d{2})\\b");
  private static final Pattern DAY_WORDS =
      Pattern.compile(
          "(?i)\\b(the day before yesterday|yesterday|last night|today|tonight|this morning)\\b");
  private static final Pattern LAST_UNIT =
      Pattern.compile("(?i)\\b(last|past|previous|this)\\s+(week|month|year|weekend)\\b");
  private static final Pattern LAST_N_UNITS =
      Pattern.compile("(?i)\\b(?:last|past|previous)\\s+(" + NUMBER + ")\\s+(" + UNITS + ")s?\\b");
  private static final Pattern AGO =
      Pattern.compile("(?i)\\b(" + NUMBER + ")\\s+(" + UNITS + ")s?\\s+ago\\b");
  private static final Pattern WEEKDAY =
      Pattern.compile("(?i)\\b(on|last|this past)\\s+(" + DAYS + ")\\b");

  /** After a month name: a year or a day makes it a month-year or a date, read as such. */
  private static final Pattern YEAR_AFTER =
      Pattern.compile(",?\\s+(?:(?:19|20)\\d{2}|\\d{1,2}(?:st|nd|rd|th)?)\\b");

  /** Words before a date that open its window: "before May 2023", "since 2021". */
  private static final Pattern OPENER =
      Pattern.compile("(?i)\\b(before|prior to|until|till|after|since)\\s+$");

  /** "two weeks before", "the week after", "a day before", just before a date. */
  private static final Pattern SHIFT =
      Pattern.compile(
          "(?i)\\b(" + NUMBER + "|the)\\s+(" + UNITS + ")s?\\s+(before|after|prior to)\\s+$");

  private TimeWords() {}

  /**
   * The narrowest window {@code query} names, counted from {@code reference}, or empty if it names
   * none this class reads (see the class comment), or if {@code reference} lies so near either end
   * of time ({@link Instant#MIN} and {@link Instant#MAX}, which a host may pass as "whenever") that
   * the calendar cannot count a window from it.
   */
  static Optional<TimeWindow> window(String query, Instant reference) {
    try {
      return windowFrom(query, reference);
    } catch (DateTimeException e) {
      return Optional.empty(); // a day beyond the calendar's years
    }
  }

  private static Optional<TimeWindow> windowFrom(String query, Instant reference) {
    LocalDate today = LocalDate.ofInstant(reference, ZoneOffset.UTC);
    TimeWindow best = null;
    for (TimeWindow w :
        new TimeWindow[] {
          isoDates(query, reference),
          monthDays(query, today, reference),
          monthYears(query, reference),
          months(query, today, reference),
          years(query, reference),
          dayWords(query, today, reference),
          lastUnits(query, today, reference),
          lastNUnits(query, today, reference),
          ago(query, today, reference),
          weekdays(query, today, reference)
        }) {
      if (w != null && (best == null || narrower(w, best))) {
        best = w;
      }
    }
    return Optional.ofNullable(best);
  }

  private static boolean narrower(TimeWindow a, TimeWindow b) {
    if (a.open() != b.open()) {
      return !a.open();
    }
    return a.length().compareTo(b.length()) < 0;
  }

  private static TimeWindow isoDates(String q, Instant ref) {
    Matcher m = ISO_DATE.matcher(q);
    while (m.find()) {
      LocalDate d = date(num(m.group(1)), num(m.group(2)), num(m.group(3)));
      if (d != null) {
        return anchored(q, m.start(), m.end(), d, d.plusDays(1), ref);
      }
    }
    return null;
  }

  private static TimeWindow monthDays(String q, LocalDate today, Instant ref) {
    TimeWindow best = null;
    for (Pattern p : new Pattern[] {MONTH_DAY, DAY_MONTH}) {
      Matcher m = p.matcher(q);
      while (m.find()) {
        boolean monthFirst = p == MONTH_DAY;
        String monthWord = m.group(monthFirst ? 1 : 2);
        String year = m.group(3);
        if (!monthNamed(monthWord, year != null)) {
          continue;
        }
        Month month = month(monthWord);
        int day = num(m.group(monthFirst ? 2 : 1));
        LocalDate d;
        if (year != null) {
          d = date(num(year), month.getValue(), day);
        } else {
          d = date(today.getYear(), month.getValue(), day);
          if (d != null && d.isAfter(today)) {
            d = date(today.getYear() - 1, month.getValue(), day);
          }
        }
        if (d != null) {
          TimeWindow w = anchored(q, m.start(), m.end(), d, d.plusDays(1), ref);
          if (w != null && (best == null || narrower(w, best))) {
            best = w;
          }
        }
      }
    }
    return best;
  }

  private static TimeWindow monthYears(String q, Instant ref) {
    Matcher m = MONTH_YEAR.matcher(q);
    while (m.find()) {
      LocalDate first = LocalDate.of(num(m.group(2)), month(m.group(1)), 1);
      TimeWindow w = anchored(q, m.start(), m.end(), first, first.plusMonths(1), ref);
      if (w != null) {
        return w;
      }
    }
    return null;
  }

  private static TimeWindow months(String q, LocalDate today, Instant ref) {
    Matcher m = MONTH.matcher(q);
    while (m.find()) {
      if (!monthNamed(m.group(2), false)
          || YEAR_AFTER.matcher(q).region(m.end(), q.length()).lookingAt()) {
        continue; // "in May 2023", "before May 5": monthYears and monthDays read them
      }
      String lead = m.group(1).toLowerCase(Locale.ROOT);
      Month month = month(m.group(2));
      LocalDate first = LocalDate.of(today.getYear(), month, 1);
      boolean last = lead.equals("last");
      if (first.isAfter(today) || last && !first.isBefore(today.withDayOfMonth(1))) {
        first = first.minusYears(1);
      }
      boolean opens = lead.matches("since|until|till|before|after");
      TimeWindow w =
          opens
              ? open(lead, m.group(), first, first.plusMonths(1), ref)
              : cut(first, first.plusMonths(1), m.group(), ref);
      if (w != null) {
        return w;
      }
    }
    return null;
  }

  private static TimeWindow years(String q, Instant ref) {
    Matcher m = YEAR.matcher(q);
    while (m.find()) {
      LocalDate first = LocalDate.of(num(m.group(2)), 1, 1);
      String lead = m.group(1).toLowerCase(Locale.ROOT);
      TimeWindow w =
          lead.matches("since|until|till|before|after")
              ? open(lead, m.group(), first, first.plusYears(1), ref)
              : cut(first, first.plusYears(1), m.group(), ref);
      if (w != null) {
        return w;
      }
    }
    return null;
  }

  private static TimeWindow dayWords(String q, LocalDate today, Instant ref) {
    Matcher m = DAY_WORDS.matcher(q);
    if (!m.find()) {
      return null;
    }
    String w = m.group(1).toLowerCase(Locale.ROOT);
    LocalDate d =
        switch (w) {
          case "the day before yesterday" -> today.minusDays(2);
          case "yesterday", "last night" -> today.minusDays(1);
          default -> today;
        };
    return cut(d, d.plusDays(1), m.group(), ref);
  }

  private static TimeWindow lastUnits(String q, LocalDate today, Instant ref) {
    Matcher m = LAST_UNIT.matcher(q);
    if (!m.find()) {
      return null;
    }
    boolean current = m.group(1).equalsIgnoreCase("this");
    String unit = m.group(2).toLowerCase(Locale.ROOT);
    LocalDate start;
    LocalDate end;
    switch (unit) {
      case "week" -> {
        start = today.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
        if (!current) {
          start = start.minusWeeks(1);
        }
        end = start.plusWeeks(1);
      }
      case "month" -> {
        start = today.withDayOfMonth(1);
        if (!current) {
          start = start.minusMonths(1);
        }
        end = start.plusMonths(1);
      }
      case "year" -> {
        start = today.withDayOfYear(1);
        if (!current) {
          start = start.minusYears(1);
        }
        end = start.plusYears(1);
      }
      default -> { // weekend: "this weekend" before it comes is no window
        start = today.minusDays(2).with(TemporalAdjusters.previousOrSame(DayOfWeek.SATURDAY));
        if (current) {
          LocalDate thisOne = today.with(TemporalAdjusters.previousOrSame(DayOfWeek.SATURDAY));
          if (today.getDayOfWeek() != DayOfWeek.SATURDAY
              && today.getDayOfWeek() != DayOfWeek.SUNDAY) {
            return null;
          }
          start = thisOne;
        }
        end = start.plusDays(2);
      }
    }
    return cut(start, end, m.group(), ref);
  }

  private static TimeWindow lastNUnits(String q, LocalDate today, Instant ref) {
    Matcher m = LAST_N_UNITS.matcher(q);
    if (!m.find()) {
      return null;
    }
    int n = count(m.group(1));
    if (n < 1) {
      return null;
    }
    LocalDate start = minus(today, n, m.group(2));
    return cut(start, today.plusDays(1), m.group(), ref);
  }

  private static TimeWindow ago(String q, LocalDate today, Instant ref) {
    Matcher m = AGO.matcher(q);
    if (!m.find()) {
      return null;
    }
    int n = count(m.group(1));
    if (n < 1) {
      return null;
    }
    return around(minus(today, n, m.group(2)), m.group(2), m.group(), ref);
  }

  private static TimeWindow weekdays(String q, LocalDate today, Instant ref) {
    Matcher m = WEEKDAY.matcher(q);
    if (!m.find()) {
      return null;
    }
    DayOfWeek day = DayOfWeek.valueOf(m.group(2).toUpperCase(Locale.ROOT));
    boolean on = m.group(1).equalsIgnoreCase("on");
    LocalDate d =
        on
            ? today.with(TemporalAdjusters.previousOrSame(day))
            : today.with(TemporalAdjusters.previous(day));
    return cut(d, d.plusDays(1), m.group(), ref);
  }

  /**
   * The window of a date found at {@code [from, to)} of {@code q}, as the words before it make it:
   * shifted ("two weeks before May 5"), opened ("before May 5") or the date itself.
   */
  private static TimeWindow anchored(
      String q, int from, int to, LocalDate start, LocalDate end, Instant ref) {
    String before = q.substring(Math.max(0, from - 40), from);
    Matcher shift = SHIFT.matcher(before);
    if (shift.find()) {
      int n = shift.group(1).equalsIgnoreCase("the") ? 1 : count(shift.group(1));
      if (n >= 1) {
        String unit = shift.group(2);
        boolean after = shift.group(3).equalsIgnoreCase("after");
        String phrase = shift.group() + q.substring(from, to);
        if (shift.group(1).equalsIgnoreCase("the")) { // "the week before May 5": the whole unit
          return after
              ? cut(end, plus(end, 1, unit), phrase, ref)
              : cut(minus(start, 1, unit), start, phrase, ref);
        }
        return around(after ? plus(start, n, unit) : minus(start, n, unit), unit, phrase, ref);
      }
    }
    Matcher opener = OPENER.matcher(before);
    if (opener.find()) {
      return open(
          opener.group(1).toLowerCase(Locale.ROOT),
          opener.group() + q.substring(from, to),
          start,
          end,
          ref);
    }
    return cut(start, end, q.substring(from, to), ref);
  }

  /** "before X", "until X": before X's start; "after X", "since X": from X's end, or its start. */
  private static TimeWindow open(
      String lead, String phrase, LocalDate start, LocalDate end, Instant ref) {
    return switch (lead) {
      case "before", "prior to", "until", "till" -> cut(null, start, phrase, ref);
      case "since" -> cut(start, null, phrase, ref);
      default -> cut(end, null, phrase, ref);
    };
  }

  /** The unit of {@code unit} centred on {@code point}, a day for days. */
  private static TimeWindow around(LocalDate point, String unit, String phrase, Instant ref) {
    long days =
        switch (unit.toLowerCase(Locale.ROOT)) {
          case "day" -> 0;
          case "week" -> 3;
          case "month" -> 15;
          default -> 182;
        };
    return cut(point.minusDays(days), point.plusDays(days + 1), phrase, ref);
  }

  /**
   * {@code [start, end)} (null: open on that side) as instants, cut at {@code ref}; null if it
   * starts after {@code ref}.
   */
  private static TimeWindow cut(LocalDate start, LocalDate end, String phrase, Instant ref) {
    Instant s = start == null ? Instant.MIN : start.atStartOfDay(ZoneOffset.UTC).toInstant();
    Instant e = end == null ? Instant.MAX : end.atStartOfDay(ZoneOffset.UTC).toInstant();
    if (s.isAfter(ref)) {
      return null;
    }
    if (e.isAfter(ref) && end != null) {
      e = ref;
    }
    if (!e.isAfter(s)) {
      return null;
    }
    return new TimeWindow(s, e, phrase.strip());
  }

  /** Whether a month word counts: "May" only capitalised or with a year ("may I" is no month). */
  private static boolean monthNamed(String word, boolean withYear) {
    return !word.equalsIgnoreCase("may") || withYear || word.equals("May");
  }

  private static Month month(String word) {
    return Month.valueOf(word.toUpperCase(Locale.ROOT));
  }

  private static LocalDate minus(LocalDate d, int n, String unit) {
    return d.minus(n, chrono(unit));
  }

  private static LocalDate plus(LocalDate d, int n, String unit) {
    return d.plus(n, chrono(unit));
  }

  private static ChronoUnit chrono(String unit) {
    return switch (unit.toLowerCase(Locale.ROOT)) {
      case "day" -> ChronoUnit.DAYS;
      case "week" -> ChronoUnit.WEEKS;
      case "month" -> ChronoUnit.MONTHS;
      default -> ChronoUnit.YEARS;
    };
  }

  /** A count as written, or -1 past a thousand (no time a question means). */
  private static int count(String word) {
    String w = word.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
    Integer named = NUMBER_WORDS.get(w);
    if (named != null) {
      return named;
    }
    int n = num(w);
    return n <= 1000 ? n : -1;
  }

  private static int num(String digits) {
    return Integer.parseInt(digits);
  }

  /** The date, or null if there is no such day (February 30). */
  private static LocalDate date(int year, int month, int day) {
    try {
      return LocalDate.of(year, month, day);
    } catch (java.time.DateTimeException e) {
      return null; // not a day of the calendar: the words name no date
    }
  }
}
