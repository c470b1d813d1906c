package dev.memhook.core.internal.recall;

import dev.memhook.api.Memory;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The time and preference stage of recall: what the question says beyond its topic. When it names a
 * time ({@link TimeWords}), memories that happened in that window, or near it, move up; when it
 * asks for advice or a standing choice ({@link PreferenceCue}), memories that state a preference,
 * habit, plan or choice move up.
 *
 * <p>Both are soft: the stage multiplies a candidate's fused score by {@code 1 + } {@link
 * #TIME_BOOST} {@code · closeness + } {@link #PREFERENCE_BOOST} {@code · stance}, closeness and
 * stance each in [0, 1], and nothing is removed. So the rule it keeps is: <b>a candidate whose
 * fused score was more than {@link #maxFactor} times another's still ranks above it</b>; a direct
 * hit that led by that much cannot be pushed down by a memory the question's time or wording
 * favours, and a window that names the wrong time (or a question that merely sounds like a request)
 * costs at most that margin. Fused scores are positive for every fusion method, which the rule
 * needs.
 *
 * <p>Only the first {@code depth} candidates are looked at (their records are read once, for result
 * assembly too); the rest keep their scores. A question that names no time and asks for no
 * preference reads nothing and leaves the ranking as it was. Stateless and thread-safe.
 */
final class CueBoost {

  /**
   * The most the time window adds to a fused score, as a share of it: for a memory inside the
   * window. Enough to reorder memories that matched the topic about as well, never to lift one that
   * matched it far worse.
   */
  static final double TIME_BOOST = 0.5;

  /** The most a preference question adds to a fused score, as a share of it. */
  static final double PREFERENCE_BOOST = 0.5;

  /** How far outside an open window ("before May") closeness falls to 0. */
  static final Duration OPEN_MARGIN = Duration.ofDays(7);

  /** A closed window's margin is its length, but at least this: a day's memories are near it. */
  static final Duration MIN_MARGIN = Duration.ofDays(1);

  private static final Comparator<Candidate> BEST_FIRST =
      Comparator.<Candidate>comparingDouble(c -> -c.fused).thenComparing(c -> c.id);

  /**
   * What a question says beyond its topic.
   *
   * @param window the time it names, or null
   * @param preference whether it asks for advice or a standing choice
   */
  record Cues(TimeWords.TimeWindow window, boolean preference) {

    /** The cues of {@code text} asked at {@code reference}. */
    static Cues of(String text, Instant reference) {
      return new Cues(TimeWords.window(text, reference).orElse(null), PreferenceCue.asks(text));
    }

    /** Whether either cue fired. */
    boolean any() {
      return window != null || preference;
    }
  }

  /**
   * What the stage did.
   *
   * @param ranked the candidates, best first
   * @param description what fired and how many candidates it favoured, for {@code
   *     RecallResult.fusion()}; empty when nothing fired
   */
  record Boosted(List<Candidate> ranked, String description) {}

  private CueBoost() {}

  /** The most a candidate's fused score is multiplied by. */
  static double maxFactor() {
    return 1 + TIME_BOOST + PREFERENCE_BOOST;
  }

  /**
   * {@code sorted} (best first) with the first {@code depth} candidates' scores raised by {@code
   * cues}, sorted again; itself, unchanged, when no cue fired. Reads those candidates' records
   * through {@code records}; a candidate whose record is gone keeps its score.
   */
  static Boosted apply(List<Candidate> sorted, Cues cues, RecordReader records, int depth) {
    if (!cues.any() || sorted.isEmpty()) {
      return new Boosted(sorted, "");
    }
    List<Candidate> head = sorted.subList(0, Math.min(depth, sorted.size()));
    records.read(head);
    int inWindow = 0;
    int stating = 0;
    for (Candidate c : head) {
      Memory m = records.get(c.id);
      if (m == null) {
        continue;
      }
      double closeness = cues.window() == null ? 0 : closeness(cues.window(), m.occurredAt());
      double stance = cues.preference() ? PreferenceCue.stance(m) : 0;
      inWindow += closeness > 0 ? 1 : 0;
      stating += stance > 0 ? 1 : 0;
      c.fused *= 1 + TIME_BOOST * closeness + PREFERENCE_BOOST * stance;
    }
    List<Candidate> out = new ArrayList<>(sorted);
    out.sort(BEST_FIRST);
    return new Boosted(out, describe(cues, inWindow, stating, head.size()));
  }

  /**
   * 1 inside {@code w}; outside, falling linearly to 0 at a margin from it (the window's length, at
   * least {@link #MIN_MARGIN}; {@link #OPEN_MARGIN} for an open window).
   */
  static double closeness(TimeWords.TimeWindow w, Instant at) {
    if (!at.isBefore(w.start()) && at.isBefore(w.end())) {
      return 1;
    }
    Duration away =
        at.isBefore(w.start()) ? Duration.between(at, w.start()) : Duration.between(w.end(), at);
    Duration margin = w.open() ? OPEN_MARGIN : max(w.length(), MIN_MARGIN);
    return Math.max(0, 1 - (double) away.toSeconds() / margin.toSeconds());
  }

  private static Duration max(Duration a, Duration b) {
    return a.compareTo(b) >= 0 ? a : b;
  }

  private static String describe(Cues cues, int inWindow, int stating, int looked) {
    StringBuilder sb = new StringBuilder();
    if (cues.window() != null) {
      TimeWords.TimeWindow w = cues.window();
      sb.append(
          String.format(
              Locale.ROOT,
              "time \"%s\": from %s until %s, %d of %d candidates in or near it (score up to x%.2f)",
              w.phrase(),
              day(w.start()),
              day(w.end()),
              inWindow,
              looked,
              1 + TIME_BOOST));
    }
    if (cues.preference()) {
      if (sb.length() > 0) {
        sb.append("; ");
      }
      sb.append(
          String.format(
              Locale.ROOT,
              "preference question: %d of %d candidates state a preference, habit, plan or"
                  + " choice (score up to x%.2f)",
              stating,
              looked,
              1 + PREFERENCE_BOOST));
    }
    return sb.toString();
  }

  /** A window bound as a day, "open" for an open side. */
  private static String day(Instant i) {
    if (i.equals(Instant.MIN) || i.equals(Instant.MAX)) {
      return "open";
    }
    return LocalDate.ofInstant(i, ZoneOffset.UTC).toString();
  }
}
