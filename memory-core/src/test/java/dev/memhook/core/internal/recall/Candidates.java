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

  /** A candidate with id {@code id}, fused score {@code fused} and the given signal hits. */
  static Candidate of(String id, double fused, SignalHit... hits) {
    Candidate c = new Candidate(MemoryId.of(id));
    c.fused = fused;
    for (SignalHit hit : hits) {
      c.hits.put(hit.signal(), hit);
    }
    return c;
  }
}
