package dev.memhook.core.internal.recall;

import dev.memhook.api.MemoryId;
import dev.memhook.api.SignalHit;

/** Fused candidates built by hand, for the tests of the stages after fusion. */
final class Candidates {

  private Candidates() {}

  /** Each candidate as {@code id=fused{hits}}, in order: what two fusions are compared by. */
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
