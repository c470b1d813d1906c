package dev.memhook.api;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a recall returned, best first, and what it left out.
 *
 * <p>An empty {@link #memories()} is a good answer: it means no candidate had enough evidence to be
 * worth the model's attention. Immutable and thread-safe.
 *
 * @param memories the recalled memories, best first
 * @param dropped candidates left out after fusion, and by which rule
 * @param took how long each signal's search took (the vector signal's includes embedding the
 *     query), each on its own thread: the text and vector searches may run at the same time, so the
 *     times can overlap; empty when not measured
 * @param fusion how the signals were combined for this query: the method, how confident each
 *     signal's own list was, the rule that applied and the weights used (such as {@code
 *     "standardised scores; peaks text 5.39, vector 5.61; query shape exact (identifier, path, SHA,
 *     error code or flag): weights text 0.97, vector 0.16, graph 0.50"}); empty when not recorded
 */
public record RecallResult(
    List<RecalledMemory> memories,
    List<DroppedCandidate> dropped,
    Map<Signal, Duration> took,
    String fusion) {

  /** Copies the lists and the map; a null {@code fusion} is rejected. */
  public RecallResult {
    memories = List.copyOf(Objects.requireNonNull(memories, "memories"));
    dropped = List.copyOf(Objects.requireNonNull(dropped, "dropped"));
    took = Map.copyOf(Objects.requireNonNull(took, "took"));
    Objects.requireNonNull(fusion, "fusion");
  }

  /** A result whose fusion was not recorded. */
  public RecallResult(
      List<RecalledMemory> memories, List<DroppedCandidate> dropped, Map<Signal, Duration> took) {
    this(memories, dropped, took, "");
  }

  /** A result whose timings were not measured. */
  public RecallResult(List<RecalledMemory> memories, List<DroppedCandidate> dropped) {
    this(memories, dropped, Map.of(), "");
  }

  /** A result with nothing recalled and nothing dropped. */
  public static RecallResult empty() {
    return new RecallResult(List.of(), List.of(), Map.of(), "");
  }

  /** The ids of the recalled memories, best first. */
  public List<MemoryId> ids() {
    return memories.stream().map(RecalledMemory::id).toList();
  }

  /** A multi-line account of the ranking and of every rule that dropped a candidate. */
  public String explain() {
    StringBuilder sb = new StringBuilder();
    if (!fusion.isEmpty()) {
      sb.append("fusion: ").append(fusion).append('\n');
    }
    int rank = 1;
    for (RecalledMemory m : memories) {
      sb.append(rank++).append(". ").append(m.id()).append("  ").append(m.why()).append('\n');
    }
    for (DroppedCandidate d : dropped) {
      sb.append("dropped ")
          .append(d.id())
          .append(" by ")
          .append(d.rule())
          .append(": ")
          .append(d.detail())
          .append('\n');
    }
    return sb.toString();
  }
}
