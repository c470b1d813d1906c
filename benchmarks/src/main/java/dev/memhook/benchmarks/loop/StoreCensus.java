package dev.memhook.benchmarks.loop;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryType;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a scenario's store holds after its replay: its latest memories, raw observations apart from
 * distilled ones (every other type), so a miss can be told apart: the fact was never stored, stored
 * only in raw observations, or distilled into a memory, and still not injected. Immutable.
 *
 * @param memories each latest memory: its kind and its text (title, summary and content)
 */
record StoreCensus(List<Stored> memories) {

  StoreCensus {
    memories = List.copyOf(memories);
  }

  /** Where a probe's fact is in the store. */
  enum Where {
    /** No memory holds an expected string. */
    NOWHERE("not stored"),
    /** Only raw observations do. */
    OBSERVATION("in observations only"),
    /** A distilled memory does. */
    DISTILLED("in a distilled memory");

    final String label;

    Where(String label) {
      this.label = label;
    }
  }

  /**
   * One stored memory.
   *
   * @param id its id
   * @param distilled whether it is of another type than {@link MemoryType#OBSERVATION}
   * @param text its title, summary and content
   */
  record Stored(String id, boolean distilled, String text) {}

  /** The latest memories of {@code memory}'s store. */
  static StoreCensus of(MemoryService memory) {
    List<Stored> out = new ArrayList<>();
    memory
        .maintenance()
        .export(
            m -> {
              if (m.latest()) {
                out.add(stored(m));
              }
            });
    return new StoreCensus(out);
  }

  private static Stored stored(Memory m) {
    return new Stored(
        m.id().value(),
        m.type() != MemoryType.OBSERVATION,
        m.title() + "\n" + m.summary() + "\n" + m.content());
  }

  /** How many raw observations. */
  int observations() {
    return (int) memories.stream().filter(s -> !s.distilled()).count();
  }

  /** How many distilled memories. */
  int distilled() {
    return (int) memories.stream().filter(Stored::distilled).count();
  }

  /** Where {@code probe}'s fact is; {@link Where#NOWHERE} for an off-topic probe. */
  Where where(LoopData.Probe probe) {
    if (probe.offTopic()) {
      return Where.NOWHERE;
    }
    Where best = Where.NOWHERE;
    for (Stored s : memories) {
      if (probe.matches(s.text())) {
        if (s.distilled()) {
          return Where.DISTILLED;
        }
        best = Where.OBSERVATION;
      }
    }
    return best;
  }

  /** The ids of the memories holding one of {@code probe}'s expected strings, in store order. */
  Set<String> holders(LoopData.Probe probe) {
    Set<String> ids = new LinkedHashSet<>();
    if (!probe.offTopic()) {
      for (Stored s : memories) {
        if (probe.matches(s.text())) {
          ids.add(s.id());
        }
      }
    }
    return ids;
  }
}
