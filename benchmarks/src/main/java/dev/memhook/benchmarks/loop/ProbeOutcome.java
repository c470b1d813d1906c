package dev.memhook.benchmarks.loop;

import java.util.List;
import java.util.Objects;

/**
 * What one probe got: the memories injected into its session, as the model reads them, and how many
 * characters the injection added. Immutable.
 *
 * @param probe the probe
 * @param injected each injected memory, in the order the model reads them
 * @param chars the characters injected in all (the tool results or the additional context, with
 *     their framing)
 * @param failures what went wrong on the way (a recall timeout, a hook that answered nothing
 *     parseable), each once; empty normally
 */
record ProbeOutcome(
    LoopData.Probe probe, List<InjectedMemory> injected, int chars, List<String> failures) {

  ProbeOutcome {
    Objects.requireNonNull(probe, "probe");
    injected = List.copyOf(injected);
    failures = List.copyOf(failures);
    if (chars < 0) {
      throw new IllegalArgumentException("chars must be >= 0, got " + chars);
    }
  }

  /**
   * One injected memory.
   *
   * @param id its id
   * @param text what the model reads of it (title and summary)
   */
  record InjectedMemory(String id, String text) {
    InjectedMemory {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(text, "text");
    }
  }

  /** Whether an on-topic probe found its fact: an injected memory holds an expected string. */
  boolean hit() {
    return !probe.offTopic() && injected.stream().anyMatch(m -> probe.matches(m.text()));
  }

  /** Whether an off-topic probe was left alone: nothing was injected. */
  boolean clean() {
    return probe.offTopic() && injected.isEmpty();
  }

  /**
   * How many injected memories are irrelevant: for an on-topic probe those holding no expected
   * string, for an off-topic probe all of them.
   */
  int irrelevant() {
    return (int) injected.stream().filter(m -> !probe.matches(m.text())).count();
  }
}
