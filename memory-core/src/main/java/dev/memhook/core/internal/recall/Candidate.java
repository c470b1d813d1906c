package dev.memhook.core.internal.recall;

import dev.memhook.api.MemoryId;
import dev.memhook.api.Signal;
import dev.memhook.api.SignalHit;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** A fused candidate: its id, fused score and how each signal ranked it. Not thread-safe. */
final class Candidate {
  final MemoryId id;
  double fused;
  final Map<Signal, SignalHit> hits = new EnumMap<>(Signal.class);

  Candidate(MemoryId id) {
    this.id = id;
  }

  double score(Signal signal, double absent) {
    SignalHit hit = hits.get(signal);
    return hit == null ? absent : hit.score();
  }

  List<SignalHit> signalHits() {
    return new ArrayList<>(hits.values());
  }
}
