package dev.memhook.core.internal.compress;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What {@code crontab -l} showed, in words: when each job runs and what it runs. A crontab line
 * {@code 15 3 * * * /opt/etl/run_export.sh} shares no word with "when does the export run?" or
 * "what triggers the nightly etl?"; its restatement, "every day at 03:15, at night:
 * /opt/etl/run_export.sh (cron 15 3 * * *)", does, and keeps the expression for an exact search.
 *
 * <p>The command is {@code crontab -l}, optionally with {@code -u user}, after {@code sudo}, or run
 * on another machine with {@code ssh host}; the machine and the user name the restatement, so that
 * a later listing of the same crontab replaces it. Comments, blank lines and variable assignments
 * ({@code MAILTO=…}) are skipped, and so is a line the sanitizer touched. A schedule the words
 * below do not cover (day-of-month and day-of-week together, month lists, steps within ranges) is
 * given as its expression alone: "on the cron schedule 0 4 1-7 * 1".
 *
 * <p>Stateless and thread-safe.
 */
final class Crontab {

  /**
   * A minute, hour or day-of-month field: digits, {@code *}, and the list, range and step marks.
   */
  private static final Pattern FIELD = Pattern.compile("[0-9*/,\\-]{1,40}");

  /** A month or day-of-week field, which may also use three-letter names ({@code mon-fri}). */
  private static final Pattern NAMED_FIELD =
      Pattern.compile("(?=.{1,40}$)(?:[0-9*/]+|[A-Za-z]{3})(?:[,/\\-](?:[0-9*]+|[A-Za-z]{3}))*");

  /** A variable assignment line ({@code MAILTO=ops@example.com}, {@code SHELL=/bin/bash}). */
  private static final Pattern ASSIGNMENT = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*\\s*=.*");

  private static final Pattern NUMBER = Pattern.compile("\\d{1,2}");

  private static final List<String> DAYS =
      List.of("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday");

  /** The longest job command restated, in characters. */
  private static final int MAX_COMMAND = 120;

  private Crontab() {}

  /**
   * The restatement of {@code lines}, the output of {@code words} (the command split on
   * whitespace), if the command lists a crontab and the output holds a job.
   */
  static Optional<ProjectSettings.Found> of(List<String> words, List<String> lines) {
    List<String> w = new ArrayList<>();
    for (String word : words) {
      String bare = word.replace("'", "").replace("\"", "");
      if (!bare.isEmpty()) {
        w.add(bare);
      }
    }
    String host = "";
    int i = 0;
    if (w.size() > 2 && w.get(0).equals("ssh") && !w.get(1).startsWith("-")) {
      host = w.get(1).substring(w.get(1).indexOf('@') + 1);
      i = 2;
    }
    if (i < w.size() && w.get(i).equals("sudo")) {
      i++;
    }
    if (i >= w.size() || !ToolFamily.firstWord(w.get(i)).equals("crontab")) {
      return Optional.empty();
    }
    String user = "";
    boolean list = false;
    for (int k = i + 1; k < w.size(); k++) {
      String flag = w.get(k);
      if (flag.equals("-l")) {
        list = true;
      } else if (flag.equals("-u") && k + 1 < w.size()) {
        user = w.get(++k);
      } else {
        return Optional.empty(); // -e, -r or a file: not a listing
      }
    }
    if (!list) {
      return Optional.empty();
    }
    List<String> jobs = new ArrayList<>();
    for (String line : lines) {
      if (jobs.size() == Listings.MAX_ROWS) {
        break;
      }
      String t = line.strip();
      if (t.isEmpty()
          || t.startsWith("#")
          || ASSIGNMENT.matcher(t).matches()
          || ProjectSettings.redacted(t)) {
        continue;
      }
      String job = job(t);
      if (job != null) {
        jobs.add(job);
      }
    }
    if (jobs.isEmpty()) {
      return Optional.empty();
    }
    String machine = host.isEmpty() ? "this machine" : host;
    String whose = user.isEmpty() ? machine : "user " + user + " on " + machine;
    return Optional.of(
        new ProjectSettings.Found(
            "the crontab of " + whose,
            "Scheduled jobs in the crontab of "
                + whose
                + " (crontab -l): "
                + String.join("; ", jobs)
                + ".",
            List.of("cron"),
            ""));
  }

  /** One crontab line as "when: what (cron expression)", or null if it is no job line. */
  static String job(String line) {
    String[] parts = line.split("\\s+", 6);
    if (parts[0].startsWith("@")) {
      String[] special = line.split("\\s+", 2);
      String when = special(special[0].toLowerCase(Locale.ROOT));
      return when == null || special.length < 2 ? null : phrase(when, special[1], special[0]);
    }
    if (parts.length < 6 || parts[5].isBlank()) {
      return null;
    }
    for (int f = 0; f < 5; f++) {
      if (!(f < 3 ? FIELD : NAMED_FIELD).matcher(parts[f]).matches()) {
        return null;
      }
    }
    String expression = String.join(" ", List.of(parts).subList(0, 5));
    return phrase(schedule(parts[0], parts[1], parts[2], parts[3], parts[4]), parts[5], expression);
  }

  private static String phrase(String when, String command, String expression) {
    return when
        + ": "
        + TextCuts.atWord(command.strip(), MAX_COMMAND)
        + " (cron "
        + expression
        + ")";
  }

  private static String special(String name) {
    return switch (name) {
      case "@reboot" -> "at every boot";
      case "@yearly", "@annually" -> "once a year, on 1 January at 00:00";
      case "@monthly" -> "every month, on the 1st at 00:00";
      case "@weekly" -> "every week, on Sunday at 00:00";
      case "@daily", "@midnight" -> "every day at 00:00, at night";
      case "@hourly" -> "every hour, at minute 0";
      default -> null;
    };
  }

  /** The schedule {@code m h dom mon dow} in words, or its expression if no phrase fits. */
  static String schedule(String minute, String hour, String dom, String month, String dow) {
    boolean everyDay = dom.equals("*") && month.equals("*") && dow.equals("*");
    String expression = "on the cron schedule " + String.join(" ", minute, hour, dom, month, dow);
    if (everyDay && hour.equals("*")) {
      if (minute.equals("*")) {
        return "every minute";
      }
      Integer step = step(minute, 59);
      if (step != null) {
        return "every " + step + " minutes";
      }
      List<Integer> minutes = values(minute, 59);
      return minutes == null ? expression : "every hour, at minute " + joined(minutes);
    }
    List<Integer> minutes = values(minute, 59);
    if (minutes == null || minutes.size() != 1) {
      return expression;
    }
    Integer hourStep = step(hour, 23);
    if (everyDay && hourStep != null) {
      return "every " + hourStep + " hours, at minute " + minutes.get(0);
    }
    List<Integer> hours = values(hour, 23);
    if (hours == null || !month.equals("*")) {
      return expression;
    }
    List<String> times = new ArrayList<>();
    boolean night = true;
    for (int h : hours) {
      times.add(String.format(Locale.ROOT, "%02d:%02d", h, minutes.get(0)));
      night &= h <= 5 || h >= 22;
    }
    String at = " at " + joined(times) + (night ? ", at night" : "");
    if (everyDay) {
      return "every day" + at;
    }
    if (!dom.equals("*") && dow.equals("*")) {
      List<Integer> days = values(dom, 31);
      return days == null || days.contains(0)
          ? expression
          : "every month, on day " + joined(days) + at;
    }
    if (dom.equals("*")) {
      String days = weekdays(dow);
      return days == null ? expression : "every " + days + at;
    }
    return expression;
  }

  /** The days of {@code dow} in words ("Monday to Friday", "Sunday"), or null. */
  private static String weekdays(String dow) {
    List<String> said = new ArrayList<>();
    for (String part : dow.split(",", -1)) {
      int dash = part.indexOf('-');
      if (dash > 0) {
        Integer from = day(part.substring(0, dash));
        Integer to = day(part.substring(dash + 1));
        if (from == null || to == null) {
          return null;
        }
        said.add(DAYS.get(from) + " to " + DAYS.get(to));
      } else {
        Integer d = day(part);
        if (d == null) {
          return null;
        }
        said.add(DAYS.get(d));
      }
    }
    return said.isEmpty() ? null : joined(said);
  }

  /** A day of the week by number (0 or 7 for Sunday) or by its three-letter name, or null. */
  private static Integer day(String s) {
    if (NUMBER.matcher(s).matches()) {
      int d = Integer.parseInt(s);
      return d <= 7 ? d % 7 : null;
    }
    String lower = s.toLowerCase(Locale.ROOT);
    for (int d = 0; d < DAYS.size(); d++) {
      if (DAYS.get(d).toLowerCase(Locale.ROOT).substring(0, 3).equals(lower)) {
        return d;
      }
    }
    return null;
  }

  /** The numbers of a list field ("5", "0,30"), each at most {@code max}, or null. */
  private static List<Integer> values(String field, int max) {
    List<Integer> out = new ArrayList<>();
    for (String part : field.split(",", -1)) {
      if (!NUMBER.matcher(part).matches() || Integer.parseInt(part) > max) {
        return null;
      }
      out.add(Integer.parseInt(part));
    }
    return out;
  }

  /** The step of a {@code *}{@code /n} field, if it is one and {@code n} is within 1..max. */
  private static Integer step(String field, int max) {
    if (!field.startsWith("*/") || !NUMBER.matcher(field.substring(2)).matches()) {
      return null;
    }
    int n = Integer.parseInt(field.substring(2));
    return n >= 1 && n <= max ? n : null;
  }

  private static String joined(List<?> items) {
    List<String> s = items.stream().map(String::valueOf).toList();
    return s.size() == 1
        ? s.get(0)
        : String.join(", ", s.subList(0, s.size() - 1)) + " and " + s.get(s.size() - 1);
  }
}
