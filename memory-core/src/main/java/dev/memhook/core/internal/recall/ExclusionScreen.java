package dev.memhook.core.internal.recall;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.RecalledMemory;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Takes an {@link Exclusion}'s memories out of the candidates that act before result assembly: the
 * ones that give the query its evidence at the {@linkplain RelevanceGate gate} and the ones that
 * seed {@linkplain GraphExpansion graph expansion}. A hook's own latest message, captured just
 * before its recall, matches that message perfectly; left in, it would be the query's evidence
 * (letting through weaker candidates that no other memory vouches for) and a graph seed (pulling in
 * what shares its concepts), though it is never returned.
 *
 * <p>Only those candidates' records are read, in ranking order: each candidate that reaches an
 * evidence floor until one that is not excluded does, and each that clears a direct floor until the
 * graph's seeds are found. A candidate whose record is gone (forgotten since the search) stays, for
 * assembly to skip. The other excluded memories are left to {@link ResultAssembly}, which reads
 * every record it returns anyway.
 *
 * <p>Stateless and thread-safe.
 */
final class ExclusionScreen {

  private final RelevanceGate gate;
  private final int graphSeeds;

  ExclusionScreen(RelevanceGate gate, int graphSeeds) {
    this.gate = gate;
    this.graphSeeds = graphSeeds;
  }

  /**
   * {@code fused} without the excluded memories among the candidates that act before assembly, in
   * its order; appends each one taken out to {@code excluded}, with its fused score and signal
   * hits.
   *
   * @param basis the query's text ceiling and cosine base, for the gate's floors
   * @param records where the records are read, so assembly does not read them again
   */
  List<Candidate> screen(
      List<Candidate> fused,
      GateBasis basis,
      Exclusion exclusion,
      RecordReader records,
      List<RecalledMemory> excluded) {
    if (exclusion.isNone()) {
      return fused;
    }
    List<Candidate> kept = new ArrayList<>(fused.size());
    boolean evidenceFound = false;
    int seedsFound = 0;
    for (Candidate c : fused) {
      boolean evidence = !evidenceFound && gate.reachesEvidence(c, basis);
      boolean seed = seedsFound < graphSeeds && gate.passesDirectFloor(c, basis);
      if (!evidence && !seed) {
        kept.add(c);
        continue;
      }
      records.read(List.of(c));
      Memory m = records.get(c.id);
      if (m != null && exclusion.excludes(m)) {
        excluded.add(new RecalledMemory(m, c.fused, c.signalHits()));
        continue;
      }
      kept.add(c);
      evidenceFound |= evidence;
      seedsFound += seed ? 1 : 0;
    }
    return kept;
  }

  /**
   * {@code fused} without the memories already taken out: fusion run again (after graph expansion)
   * puts them back from the signals' lists.
   */
  static List<Candidate> without(List<Candidate> fused, List<RecalledMemory> excluded) {
    if (excluded.isEmpty()) {
      return fused;
    }
    Set<MemoryId> out = new HashSet<>();
    excluded.forEach(r -> out.add(r.memory().id()));
    List<Candidate> kept = new ArrayList<>(fused.size());
    for (Candidate c : fused) {
      if (!out.contains(c.id)) {
        kept.add(c);
      }
    }
    return kept;
  }
}
