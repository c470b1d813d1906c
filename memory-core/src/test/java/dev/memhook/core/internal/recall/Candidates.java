package dev.memhook.core.internal.recall;

import dev.memhook.api.MemoryId;
import dev.memhook.api.SignalHit;

/** Fused candidates built by hand, for the tests of the stages after fusion. */
final class Candidates {

  private Candidates() {}

  /** Each candidate as {@code id=fused{hits}}, in order: what two fusions are compared by. */
  /**
   * Where fusion of {@code lists} (one list per signal) first lists {@code id}: the first signal in
   * {@link dev.memhook.api.Signal} order whose list holds it, then its first rank there, ordered as
   * {@link Candidate#BEST_FIRST} orders ties; worked out from the lists, not from the candidate.
   */
  static long firstListed(java.util.List<Fusion.RankedList> lists, dev.memhook.api.MemoryId id) {
    for (dev.memhook.api.Signal s : dev.memhook.api.Signal.values()) {
      for (Fusion.RankedList l : lists) {
        if (l.signal() != s) {
          continue;
        }
        for (int i = 0; i < l.hits().size(); i++) {
          if (l.hits().get(i).id().equals(id)) {
            return ((long) s.ordinal() << 32) | (i + 1);
          }
        }
      }
    }
    return Long.MAX_VALUE;
  }

  /**
   * Whether {@code before} may rank right above {@code after} among the candidates fusion made of
   * {@code lists}: a higher fused score, or an equal one and listed first, or listed alike and the
   * smaller id.
   */
  static boolean ranksAbove(
      java.util.List<Fusion.RankedList> lists, Candidate before, Candidate after) {
    if (before.fused != after.fused) {
      return before.fused > after.fused;
    }
    long b = firstListed(lists, before.id);
    long a = firstListed(lists, after.id);
    return b < a || (b == a && before.id.compareTo(after.id) < 0);
  }

  static java.util.List<String> render(java.util.List<Candidate> candidates) {
    java.util.List<String> out = new java.util.ArrayList<>();
    for (Candidate c : candidates) {
      out.add(c.id + "=" + c.fused + c.hits);
    }
    return out;
  }

  /**
   * A candidate with id {@code id}, fused score {@code fused} and the given signal hits; a vector
   * hit's score is also its own cosine ({@link Candidate#cosine}), as when no passage lifted it.
   */
  static Candidate of(String id, double fused, SignalHit... hits) {
    Candidate c = new Candidate(MemoryId.of(id));
    c.fused = fused;
    for (SignalHit hit : hits) {
      c.hits.put(hit.signal(), hit);
      if (hit.signal() == dev.memhook.api.Signal.VECTOR) {
        c.cosine = hit.score();
      }
    }
    return c;
  }

  /**
   * {@code size} fused scores drawn from {@code r}, between 0.05 and 1.05, about half of them
   * rounded to a multiple of 0.05 so that ties occur.
   */
  static double[] drawnScores(java.util.Random r, int size) {
    double[] scores = new double[size];
    for (int i = 0; i < size; i++) {
      double f = 0.05 + r.nextDouble();
      scores[i] = r.nextBoolean() ? Math.round(f * 20) / 20.0 : f;
    }
    return scores;
  }

  /**
   * Places drawn from {@code r} over memories {@code ids}: about one in six fails the gate, one in
   * ten is not returnable, 1 to 10 places, and no session cap or one of 1 to 3, half the time each.
   */
  static Places drawnPlaces(java.util.Random r, java.util.List<String> ids) {
    java.util.Set<MemoryId> failsGate = new java.util.HashSet<>();
    java.util.Set<MemoryId> excluded = new java.util.HashSet<>();
    for (String id : ids) {
      if (r.nextInt(6) == 0) {
        failsGate.add(MemoryId.of(id));
      }
      if (r.nextInt(10) == 0) {
        excluded.add(MemoryId.of(id));
      }
    }
    return new Places(
        1 + r.nextInt(10),
        r.nextBoolean() ? Integer.MAX_VALUE : 1 + r.nextInt(3),
        c -> !failsGate.contains(c.id),
        m -> !excluded.contains(m.id()));
  }

  /** Places that never fill: a stage reading under them reads every candidate up to its depth. */
  static Places unboundedPlaces() {
    return new Places(Integer.MAX_VALUE, Integer.MAX_VALUE, c -> true, m -> true);
  }

  /**
   * The places of {@code ranked} as result assembly fills them under {@code places}' rules, each as
   * {@code id=fused}, the records read from {@code store}.
   */
  static java.util.List<String> placesFilled(
      java.util.List<Candidate> ranked, Places places, dev.memhook.api.spi.MemoryStore store) {
    java.util.List<String> filled = new java.util.ArrayList<>();
    java.util.Map<String, Integer> perSession = new java.util.HashMap<>();
    for (Candidate c : ranked) {
      if (filled.size() == places.count()) {
        break;
      }
      dev.memhook.api.Memory m = store.get(c.id).orElse(null);
      if (m == null || !places.passesGate().test(c) || !places.returnable().test(m)) {
        continue;
      }
      if (m.sourceSession() != null
          && perSession.merge(m.sourceSession(), 1, Integer::sum) > places.maxPerSession()) {
        continue;
      }
      filled.add(c.id + "=" + c.fused);
    }
    return filled;
  }
}
