package dev.memhook.core.internal.recall;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.Signal;
import dev.memhook.api.SignalHit;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.SessionWindow;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Neighbouring-turn expansion: a seed's speaker's own turns just before and after it in its source
 * session move up, or join the candidates, below the seed.
 *
 * <h2>Design note</h2>
 *
 * A question about something a person told often finds one turn of the telling and misses the next
 * thing the same person said about it, which shares the topic but not the question's words. The
 * other speaker's turns in between are rarely the evidence: they react, and their words already
 * count where they matter (a memory's {@link Memory#context()}, the turn before it, is indexed with
 * it). So for each of the best {@link #SEEDS} seeds (the best direct hits, {@link
 * GraphExpansion#seeds}), the store's {@link MemoryStore#sessionWindows} gives the memories told
 * within {@link #SPAN} of it in its session, in one call for all of them, and on each side the
 * nearest one with the seed's {@linkplain Memory#origin() origin} is its neighbour (in a dialogue
 * of two, the turns two away).
 *
 * <p>A neighbour's fused score rises by {@link #LIFT} times its seed's fused score and never falls;
 * a neighbour that was not a candidate joins with that lift as its score. The rules it keeps: <b>no
 * memory is lifted to or above the seed that brought it</b>; <b>no memory is lifted above a
 * candidate that scored at least {@link #PROTECTED} of the best fused score and more than it</b>,
 * so neighbours only take places below the direct hits that answer the question well; and <b>a
 * candidate that led a neighbour by more than {@code LIFT} times the best fused score still leads
 * it</b>. A neighbour carries a {@link Signal#NEIGHBOUR} hit: the rank of its seed and what it
 * added to the fused score (0 for one that already ranked above where the rules let it rise).
 * Neighbours that the rules stop at the same score (both sides of one seed, just below it) keep the
 * order their whole lifts would have given them; lifted by the same amount as well (both sides of
 * one seed, neither a candidate before), the order they were found in: by their seeds' ranks, the
 * turn told before a seed first. Never by their ids: the ids are drawn at random when memories are
 * stored, so two stores of the same memories would order them differently.
 *
 * <p>The speakers are read from the records, but only where a lift can still change the result's
 * places ({@link Places}): a side of a seed none of whose memories could rise to the score of the
 * last place's holder, even with its seed's whole lift and what the cue stage may still add ({@link
 * CueBoost.Boosted#catchUp}), is not read and lends nothing. The holders' scores do not fall here,
 * so those places come out as if every side had been read.
 *
 * <p>Stateless and thread-safe: it holds the store; what a recall reads goes to that recall's
 * {@link RecordReader}.
 */
final class SessionNeighbours {

  /**
   * How many memories on each side of a seed the store is asked for: the same speaker's next turn
   * in a dialogue of two is two away.
   */
  static final int SPAN = 2;

  /**
   * How many of the seeds lend their neighbours a lift: the best three. A neighbour has no evidence
   * of its own (a memory the graph brings shares the seed's concepts); it borrows its seed's
   * standing, and the neighbours of weaker hits crowd other sessions' evidence out of a short
   * recall (a question whose answer spans sessions; benchmarks/RESULTS.md §24).
   */
  static final int SEEDS = 3;

  /**
   * The most a neighbour's fused score rises, as a share of its seed's: enough to lift a memory
   * that matched the question a little above others that matched it as little, not enough to pass a
   * direct hit that matched it clearly.
   */
  static final double LIFT = 0.3;

  /**
   * The share of the best fused score from which a candidate keeps its place against every
   * neighbour: a hit that matched the question at least half as well as the best one is direct
   * evidence, and a memory lifted only for where it was told must not push it down a short recall.
   */
  static final double PROTECTED = 0.5;

  /**
   * What the stage did.
   *
   * @param ranked the candidates, best first
   * @param description how many neighbours of how many seeds were lifted, for {@code
   *     RecallResult.fusion()}; empty when none was
   */
  record Expanded(List<Candidate> ranked, String description) {}

  private final MemoryStore store;

  SessionNeighbours(MemoryStore store) {
    this.store = store;
  }

  /**
   * {@code ranked} (best first) with the neighbours of the best {@link #SEEDS} of {@code seeds}
   * lifted or added, sorted again; itself when there are no seeds or none has a neighbour. Seeds
   * are matched by id and taken in {@code ranked}'s order, so they may come from an earlier ranking
   * of the same recall.
   */
  Expanded apply(
      Scope scope,
      List<Candidate> ranked,
      List<Candidate> seeds,
      RecordReader records,
      CueBoost.Boosted cues,
      Places places) {
    if (seeds.isEmpty()) {
      return new Expanded(ranked, "");
    }
    Map<MemoryId, Candidate> byId = new HashMap<>();
    Map<MemoryId, Integer> rankOf = new HashMap<>();
    for (int i = 0; i < ranked.size(); i++) {
      byId.put(ranked.get(i).id, ranked.get(i));
      rankOf.put(ranked.get(i).id, i + 1);
    }
    // the best SEEDS of the seeds, as the ranking now stands (the cue stage may have moved them)
    Set<MemoryId> seedIds = new HashSet<>();
    seeds.forEach(c -> seedIds.add(c.id));
    List<Candidate> current = new ArrayList<>();
    for (Candidate c : ranked) {
      if (current.size() == SEEDS) {
        break;
      }
      if (seedIds.contains(c.id)) {
        current.add(c);
      }
    }
    if (current.isEmpty()) {
      return new Expanded(ranked, "");
    }
    Map<MemoryId, SessionWindow> windows =
        store.sessionWindows(scope, current.stream().map(c -> c.id).toList(), SPAN);
    if (windows.isEmpty()) {
      return new Expanded(ranked, "");
    }
    // A side none of whose memories a lift from its seed could take to the last place's holder
    // cannot change the places: it is not read. The holders' scores do not fall here.
    double bar = places.hold(ranked, records, ranked.size()).bar();
    Map<MemoryId, List<List<MemoryId>>> sides = new HashMap<>();
    List<MemoryId> toRead = new ArrayList<>();
    for (Candidate c : current) {
      SessionWindow w = windows.get(c.id);
      List<List<MemoryId>> reachable = new ArrayList<>();
      for (List<MemoryId> side :
          w == null ? List.<List<MemoryId>>of() : List.of(w.before(), w.after())) {
        if (mayReach(side, c, bar, byId, cues)) {
          reachable.add(side);
          toRead.addAll(side);
        }
      }
      sides.put(c.id, reachable);
      if (!reachable.isEmpty()) {
        toRead.add(c.id);
      }
    }
    records.readIds(toRead);
    // each neighbour's best lift, from the highest seed that brings it (seeds come best first)
    Map<MemoryId, Lift> lifts = new LinkedHashMap<>();
    int seedsWithNeighbours = 0;
    for (Candidate seed : current) {
      Memory told = records.get(seed.id);
      if (told == null || sides.get(seed.id).isEmpty()) {
        continue;
      }
      boolean any = false;
      for (List<MemoryId> side : sides.get(seed.id)) {
        MemoryId n = sameSpeaker(side, told, records);
        if (n != null && !isAmong(n, current) && !lifts.containsKey(n)) {
          lifts.put(n, new Lift(seed, rankOf.get(seed.id)));
          any = true;
        }
      }
      seedsWithNeighbours += any ? 1 : 0;
    }
    if (lifts.isEmpty()) {
      return new Expanded(ranked, "");
    }
    // the places no neighbour takes: the candidates that scored at least PROTECTED of the best,
    // with their scores before any lift (ranked is best first)
    int protectedCount = 0;
    double[] protectedScores = new double[ranked.size()];
    while (protectedCount < ranked.size()
        && ranked.get(protectedCount).fused >= PROTECTED * ranked.get(0).fused) {
      protectedScores[protectedCount] = ranked.get(protectedCount).fused;
      protectedCount++;
    }
    List<Candidate> out = new ArrayList<>(ranked);
    // each lifted neighbour's score before its cap: neighbours capped alike keep the order their
    // lifts would have given them; lifted alike too (both sides of one seed, new to the ranking),
    // the order they were found in: by their seeds' ranks, the turn before a seed first
    Map<Candidate, Double> uncapped = new HashMap<>();
    Map<Candidate, Integer> found = new HashMap<>();
    int joined = 0;
    for (Map.Entry<MemoryId, Lift> e : lifts.entrySet()) {
      Candidate n = byId.get(e.getKey());
      if (n == null) {
        n = new Candidate(e.getKey());
        out.add(n);
        joined++;
      } else {
        cues.catchUp(n, records.get(n.id)); // lifted from where the cues would have put it
      }
      Candidate seed = e.getValue().seed();
      double own = n.fused;
      double cap = Math.nextDown(seed.fused);
      // the lowest protected score above the neighbour's own (a neighbour is never above itself)
      for (int i = protectedCount - 1; i >= 0; i--) {
        if (protectedScores[i] > own && !ranked.get(i).id.equals(n.id)) {
          cap = Math.min(cap, Math.nextDown(protectedScores[i]));
          break;
        }
      }
      double wanted = own + LIFT * seed.fused;
      n.fused = Math.max(own, Math.min(wanted, cap));
      uncapped.put(n, Math.max(own, wanted));
      found.put(n, found.size());
      n.hits.put(
          Signal.NEIGHBOUR,
          new SignalHit(Signal.NEIGHBOUR, e.getValue().seedRank(), n.fused - own));
    }
    out.sort(
        Comparator.<Candidate>comparingDouble(c -> -c.fused)
            .thenComparingDouble(c -> -uncapped.getOrDefault(c, c.fused))
            .thenComparingInt(c -> found.getOrDefault(c, Integer.MAX_VALUE))
            .thenComparing(Candidate.BEST_FIRST));
    return new Expanded(out, describe(lifts.size(), joined, seedsWithNeighbours));
  }

  /**
   * Whether a memory of {@code side} could rise to {@code bar} by a lift from {@code seed}: its
   * score as the cue stage may still raise it ({@link CueBoost.Boosted#ceiling}; none for a memory
   * that is not a candidate) plus the most the seed lends.
   */
  private static boolean mayReach(
      List<MemoryId> side,
      Candidate seed,
      double bar,
      Map<MemoryId, Candidate> byId,
      CueBoost.Boosted cues) {
    for (MemoryId id : side) {
      Candidate c = byId.get(id);
      double own = c == null ? 0 : cues.ceiling(c);
      if (own + LIFT * seed.fused >= bar) {
        return true;
      }
    }
    return false;
  }

  /**
   * The nearest memory of {@code side} (nearest first) told by {@code told}'s origin, or null: a
   * memory whose record is gone, or of another scope, is passed over.
   */
  private static MemoryId sameSpeaker(List<MemoryId> side, Memory told, RecordReader records) {
    for (MemoryId id : side) {
      Memory m = records.get(id);
      if (m != null && m.latest() && m.origin().equals(told.origin())) {
        return id;
      }
    }
    return null;
  }

  private static boolean isAmong(MemoryId id, List<Candidate> seeds) {
    for (Candidate s : seeds) {
      if (s.id.equals(id)) {
        return true;
      }
    }
    return false;
  }

  private static String describe(int lifted, int joined, int seeds) {
    return String.format(
        Locale.ROOT,
        "neighbouring turns: %d memories told next to %d seeds by the same speaker (%d new),"
            + " lifted by up to %.2f of their seed's score, always below it",
        lifted,
        seeds,
        joined,
        LIFT);
  }

  /** The seed that lifts a neighbour, and the seed's rank. */
  private record Lift(Candidate seed, int seedRank) {}
}
