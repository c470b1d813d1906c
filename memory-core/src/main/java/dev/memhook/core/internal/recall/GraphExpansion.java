package dev.memhook.core.internal.recall;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.StoreHit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Graph expansion: the concepts and files of a recall's seeds find, through {@link
 * MemoryStore#searchRelated}, the memories that share them. The seeds are the best fused candidates
 * that clear a {@linkplain RelevanceGate#passesDirectFloor direct floor} of the gate, so a weak top
 * hit does not pull in its neighbours. Thread-safe: it holds the store, the options and the gate;
 * what a recall reads goes to that recall's {@link RecordReader}.
 */
final class GraphExpansion {

  private final MemoryStore store;
  private final RecallOptions options;
  private final RelevanceGate gate;

  GraphExpansion(MemoryStore store, RecallOptions options, RelevanceGate gate) {
    this.store = store;
    this.options = options;
    this.gate = gate;
  }

  /**
   * The seeds among {@code fused}: the best candidates, at most {@link RecallOptions#graphSeeds()},
   * that clear a direct floor of the gate; empty when graph expansion is off (no seeds or weight
   * 0).
   *
   * @param basis the query's text ceiling and cosine base, for the seeds' direct floor
   */
  List<Candidate> seeds(List<Candidate> fused, GateBasis basis) {
    if (options.graphSeeds() <= 0 || options.graphWeight() <= 0) {
      return List.of();
    }
    List<Candidate> seeds = new ArrayList<>();
    for (Candidate c : fused) {
      if (seeds.size() == options.graphSeeds()) {
        break;
      }
      if (gate.passesDirectFloor(c, basis)) {
        seeds.add(c);
      }
    }
    return seeds;
  }

  /**
   * The memories related to {@code seeds}, best first, without the seeds, at most {@code depth};
   * empty, without a related search, when there are no seeds or they have no concepts and no files.
   *
   * @param records where the seeds' records are read, so result assembly does not read them again
   */
  List<StoreHit> expand(Scope scope, List<Candidate> seeds, RecordReader records, int depth) {
    if (seeds.isEmpty()) {
      return List.of();
    }
    records.read(seeds);
    Set<String> concepts = new LinkedHashSet<>();
    Set<String> files = new LinkedHashSet<>();
    Set<MemoryId> seedIds = new HashSet<>();
    for (Candidate seed : seeds) {
      Memory m = records.get(seed.id);
      if (m != null) {
        concepts.addAll(m.concepts());
        files.addAll(m.files());
        seedIds.add(seed.id);
      }
    }
    if (concepts.isEmpty() && files.isEmpty()) {
      return List.of();
    }
    // The seeds are among the related (they share their own concepts and files): ask for that many
    // more, so that once they are taken out the list can still hold depth others. A seed the store
    // no longer has is not among the related, so it is neither counted nor taken out.
    List<StoreHit> related = store.searchRelated(scope, concepts, files, depth + seedIds.size());
    List<StoreHit> out = new ArrayList<>(related.size());
    for (StoreHit hit : related) {
      if (!seedIds.contains(hit.id())) {
        out.add(hit);
      }
    }
    return out;
  }
}
