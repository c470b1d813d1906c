package dev.memhook.core.internal.recall;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The time, preference, asker and assistant stage of recall: what the question says beyond its
 * topic. When it names a time ({@link TimeWords}), memories that happened in that window, or near
 * it, move up; when it asks for advice or a standing choice ({@link PreferenceCue}), memories that
 * state a preference, habit, plan or choice move up; when it asks about its asker ({@link
 * AskerCue}: "how many weddings have I been to?"), what a person told moves up past what agents and
 * tools wrote; when it asks what the assistant said before ({@link AgentCue}: "can you remind me of
 * the venue you recommended?"), what an agent said moves up past the asker's own turns on the
 * topic.
 *
 * <p>All four are soft: the stage multiplies a candidate's fused score by {@code 1 + } {@link
 * #TIME_BOOST} {@code · closeness + } {@link #PREFERENCE_BOOST} {@code · stance + } {@link
 * #ASKER_BOOST} {@code · told + } {@link #AGENT_BOOST} {@code · said}, each of closeness, stance,
 * told and said in [0, 1] (told and said never both above 0: the asker and assistant cues never
 * fire together), and nothing is removed. So the rule it keeps is: <b>a candidate whose fused score
 * was more than {@link #maxFactor} times another's still ranks above it</b>; a direct hit that led
 * by that much cannot be pushed down by a memory the question's time or wording favours, and a
 * window that names the wrong time (or a question that merely sounds like a request) costs at most
 * that margin. Fused scores are positive for every fusion method, which the rule needs.
 *
 * <p>Only candidates that can still take one of the result's places are looked at: of the first
 * {@code depth}, those read in ranking order until the places are held ({@link Places#hold}), and
 * after them each one whose fused score times the most these cues can add still reaches the score
 * of the last place's holder. Whatever the cues, no candidate below that can pass all the
 * candidates holding the places, whose scores only rise; so the rest keep their scores unread, and
 * a later stage that lifts one of them raises it first as this stage would have ({@link
 * Boosted#catchUp}). The records looked at are read once, for result assembly too. A question that
 * names no time, asks for no preference and is not about its asker reads nothing and leaves the
 * ranking as it was. Stateless and thread-safe.
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

  /**
   * What a question about its asker adds to the fused score of a memory a person told, as a share
   * of it: as much as the other cues, so that the asker's own mention of the topic passes an
   * agent's reply that matched the topic's words somewhat better (an assistant's long answer
   * repeats the question's words; the fact is in the user's turn), never one that matched it far
   * better.
   */
  static final double ASKER_BOOST = 0.5;

  /**
   * What a question about the assistant's earlier words adds to the fused score of a memory an
   * agent said, as a share of it: as much as the asker cue adds to a person's words, its mirror.
   */
  static final double AGENT_BOOST = 0.5;

  /** How far outside an open window ("before May") closeness falls to 0. */
  static final Duration OPEN_MARGIN = Duration.ofDays(7);

  /** A closed window's margin is its length, but at least this: a day's memories are near it. */
  static final Duration MIN_MARGIN = Duration.ofDays(1);

  /**
   * What a question says beyond its topic.
   *
   * @param window the time it names, or null
   * @param preference whether it asks for advice or a standing choice
   * @param asker whether it asks about its asker
   * @param agent whether it asks what the assistant said before
   */
  record Cues(TimeWords.TimeWindow window, boolean preference, boolean asker, boolean agent) {

    /** The cues of {@code text} asked at {@code reference}. */
    static Cues of(String text, Instant reference) {
      return new Cues(
          TimeWords.window(text, reference).orElse(null),
          PreferenceCue.asks(text),
          AskerCue.asks(text),
          AgentCue.asks(text));
    }

    /** Whether any cue fired. */
    boolean any() {
      return window != null || preference || asker || agent;
    }
  }

  /**
   * What the stage did: the new ranking, why, and which candidates it looked at.
   *
   * <p>Not thread-safe: {@link #catchUp} records each candidate it raises.
   */
  static final class Boosted {
    private final List<Candidate> ranked;
    private final String description;
    private final Cues cues;
    private final Set<MemoryId> passedOver;

    private Boosted(
        List<Candidate> ranked, String description, Cues cues, Set<MemoryId> passedOver) {
      this.ranked = ranked;
      this.description = description;
      this.cues = cues;
      this.passedOver = passedOver;
    }

    /**
     * The most {@link #catchUp} can raise {@code c}'s score to: its score times the most the cues
     * add if the stage passed it over, else its score.
     */
    double ceiling(Candidate c) {
      return passedOver.contains(c.id) ? c.fused * maxFactor(cues) : c.fused;
    }

    /** {@code sorted} as it was: no cue fired. */
    static Boosted unchanged(List<Candidate> sorted) {
      return new Boosted(sorted, "", new Cues(null, false, false, false), new HashSet<>());
    }

    /** The candidates, best first. */
    List<Candidate> ranked() {
      return ranked;
    }

    /**
     * What fired and how many candidates it favoured, for {@code RecallResult.fusion()}; empty when
     * nothing fired.
     */
    String description() {
      return description;
    }

    /**
     * Raises {@code c}, whose record is {@code m}, as the stage would have had it looked at it:
     * once, and only if it was among the first {@code depth} candidates and passed over as unable
     * to take a place. A stage that lifts a candidate calls this first, so the lift starts from the
     * score the candidate would have had.
     */
    void catchUp(Candidate c, Memory m) {
      if (m != null && passedOver.remove(c.id)) {
        c.fused *= factor(cues, m);
      }
    }
  }

  private CueBoost() {}

  /**
   * The most a candidate's fused score is multiplied by: the asker and assistant cues never fire
   * together, so only the larger of their boosts counts.
   */
  static double maxFactor() {
    return 1 + TIME_BOOST + PREFERENCE_BOOST + Math.max(ASKER_BOOST, AGENT_BOOST);
  }

  /** The most the cues of {@code cues} multiply a fused score by. */
  static double maxFactor(Cues cues) {
    return 1
        + (cues.window() != null ? TIME_BOOST : 0)
        + (cues.preference() ? PREFERENCE_BOOST : 0)
        + (cues.asker() ? ASKER_BOOST : 0)
        + (cues.agent() ? AGENT_BOOST : 0);
  }

  /**
   * {@code sorted} (best first) with the scores of the candidates that can take one of {@code
   * places}, among the first {@code depth}, raised by {@code cues}, sorted again; itself,
   * unchanged, when no cue fired. Reads those candidates' records through {@code records}, and as
   * many more as it takes to know which hold the places; a candidate whose record is gone keeps its
   * score.
   */
  static Boosted apply(
      List<Candidate> sorted, Cues cues, RecordReader records, int depth, Places places) {
    if (!cues.any() || sorted.isEmpty()) {
      return Boosted.unchanged(sorted);
    }
    int end = Math.min(depth, sorted.size());
    int looked = reach(sorted, maxFactor(cues), records, end, places);
    Set<MemoryId> passedOver = new HashSet<>();
    sorted.subList(looked, end).forEach(c -> passedOver.add(c.id));
    List<Candidate> head = sorted.subList(0, looked);
    int inWindow = 0;
    int stating = 0;
    int toldByPeople = 0;
    int saidByAgents = 0;
    for (Candidate c : head) {
      Memory m = records.get(c.id);
      if (m == null) {
        continue;
      }
      double closeness = closeness(cues, m);
      double stance = stance(cues, m);
      double told = told(cues, m);
      double said = said(cues, m);
      inWindow += closeness > 0 ? 1 : 0;
      stating += stance > 0 ? 1 : 0;
      toldByPeople += told > 0 ? 1 : 0;
      saidByAgents += said > 0 ? 1 : 0;
      c.fused *= factor(closeness, stance, told, said);
    }
    List<Candidate> out = new ArrayList<>(sorted);
    out.sort(Candidate.BEST_FIRST);
    return new Boosted(
        out,
        describe(cues, new Counts(inWindow, stating, toldByPeople, saidByAgents, head.size())),
        cues,
        passedOver);
  }

  /**
   * How many of the first {@code end} candidates the stage looks at, their records read: those read
   * until {@code places} are held ({@link Places#hold}), then every further one whose score times
   * {@code most} reaches the score of the last place's holder.
   */
  private static int reach(
      List<Candidate> sorted, double most, RecordReader records, int end, Places places) {
    Places.Held held = places.hold(sorted, records, end);
    int looked = held.read();
    while (looked < end && sorted.get(looked).fused * most >= held.bar()) {
      looked++;
    }
    records.read(sorted.subList(held.read(), looked));
    return looked;
  }

  /** What {@code cues} multiply the fused score of {@code m} by. */
  private static double factor(Cues cues, Memory m) {
    return factor(closeness(cues, m), stance(cues, m), told(cues, m), said(cues, m));
  }

  /**
   * The factor of a memory at {@code closeness} to the window with {@code stance}, told by a person
   * or not ({@code told}), said by an agent or not ({@code said}), each in [0, 1].
   */
  private static double factor(double closeness, double stance, double told, double said) {
    return 1
        + TIME_BOOST * closeness
        + PREFERENCE_BOOST * stance
        + ASKER_BOOST * told
        + AGENT_BOOST * said;
  }

  private static double closeness(Cues cues, Memory m) {
    return cues.window() == null ? 0 : closeness(cues.window(), m.occurredAt());
  }

  private static double stance(Cues cues, Memory m) {
    return cues.preference() ? PreferenceCue.stance(m) : 0;
  }

  private static double told(Cues cues, Memory m) {
    return cues.asker() ? AskerCue.told(m) : 0;
  }

  private static double said(Cues cues, Memory m) {
    return cues.agent() ? AgentCue.said(m) : 0;
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

  /** How many of the {@code looked} candidates each cue favoured. */
  private record Counts(int inWindow, int stating, int told, int said, int looked) {}

  private static String describe(Cues cues, Counts n) {
    List<String> parts = new ArrayList<>(4);
    if (cues.window() != null) {
      TimeWords.TimeWindow w = cues.window();
      parts.add(
          String.format(
              Locale.ROOT,
              "time \"%s\": from %s until %s, %d of %d candidates in or near it (score up to x%.2f)",
              w.phrase(),
              day(w.start()),
              day(w.end()),
              n.inWindow(),
              n.looked(),
              1 + TIME_BOOST));
    }
    if (cues.preference()) {
      parts.add(
          String.format(
              Locale.ROOT,
              "preference question: %d of %d candidates state a preference, habit, plan or"
                  + " choice (score up to x%.2f)",
              n.stating(),
              n.looked(),
              1 + PREFERENCE_BOOST));
    }
    if (cues.asker()) {
      parts.add(
          String.format(
              Locale.ROOT,
              "question about the asker: %d of %d candidates are a person's own words (score up to"
                  + " x%.2f)",
              n.told(),
              n.looked(),
              1 + ASKER_BOOST));
    }
    if (cues.agent()) {
      parts.add(
          String.format(
              Locale.ROOT,
              "question about what the assistant said: %d of %d candidates are an agent's words"
                  + " (score up to x%.2f)",
              n.said(),
              n.looked(),
              1 + AGENT_BOOST));
    }
    return String.join("; ", parts);
  }

  /** A window bound as a day, "open" for an open side. */
  private static String day(Instant i) {
    if (i.equals(Instant.MIN) || i.equals(Instant.MAX)) {
      return "open";
    }
    return LocalDate.ofInstant(i, ZoneOffset.UTC).toString();
  }
}
