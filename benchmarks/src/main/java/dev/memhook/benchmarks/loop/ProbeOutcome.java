package dev.memhook.benchmarks.loop;

import dev.memhook.api.trace.ReceiptCandidate;
import java.util.List;
import java.util.Objects;

/**
 * What one probe got: the memories injected into its session, as the model reads them, and how many
 * characters the injection added. A memory offered as one of the scope's standing memories (at the
 * session's start, whatever it asks) is marked so: it counts for a hit, since the session knows it,
 * but not against an off-topic probe's cleanness or as an irrelevant memory, which measure what
 * recall adds for the prompt; {@link #cleanOfEverything} and {@link #standing} report it apart.
 * Immutable.
 *
 * @param probe the probe
 * @param injected each injected memory, in the order the model reads them
 * @param chars the characters injected in all (the tool results or the additional context, with
 *     their framing)
 * @param failures what went wrong on the way (a recall timeout, a hook that answered nothing
 *     parseable), each once; empty normally
 * @param considered every memory the hook's receipts say it considered, in their order, when the
 *     probe could read them ({@link ChatProbe}); null when it could not ({@link CliProbe}: the hook
 *     ran in another process)
 */
record ProbeOutcome(
    LoopData.Probe probe,
    List<InjectedMemory> injected,
    int chars,
    List<String> failures,
    List<Considered> considered) {

  ProbeOutcome {
    Objects.requireNonNull(probe, "probe");
    injected = List.copyOf(injected);
    failures = List.copyOf(failures);
    considered = considered == null ? null : List.copyOf(considered);
    if (chars < 0) {
      throw new IllegalArgumentException("chars must be >= 0, got " + chars);
    }
  }

  /** An outcome whose hook's receipts could not be read. */
  ProbeOutcome(
      LoopData.Probe probe, List<InjectedMemory> injected, int chars, List<String> failures) {
    this(probe, injected, chars, failures, null);
  }

  /**
   * One memory the hook considered for the probe and what it decided, from its receipt.
   *
   * @param id the memory
   * @param decision what the hook did with it
   * @param detail the receipt's reason, with its numbers (a gate drop names each floor missed)
   */
  record Considered(String id, ReceiptCandidate.Decision decision, String detail) {
    Considered {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(decision, "decision");
      Objects.requireNonNull(detail, "detail");
    }
  }

  /**
   * One injected memory.
   *
   * @param id its id
   * @param text what the model reads of it (title and summary)
   * @param standing whether it was offered as a standing memory, not recalled for the prompt
   */
  record InjectedMemory(String id, String text, boolean standing) {
    InjectedMemory {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(text, "text");
    }

    /** A memory recalled for the prompt. */
    InjectedMemory(String id, String text) {
      this(id, text, false);
    }
  }

  /** Whether an on-topic probe found its fact: an injected memory holds an expected string. */
  boolean hit() {
    return !probe.offTopic() && injected.stream().anyMatch(m -> probe.matches(m.text()));
  }

  /** Whether an off-topic probe was left alone: recall injected nothing for its prompt. */
  boolean clean() {
    return probe.offTopic() && injected.stream().allMatch(InjectedMemory::standing);
  }

  /** Whether an off-topic probe got nothing at all, standing memories included. */
  boolean cleanOfEverything() {
    return probe.offTopic() && injected.isEmpty();
  }

  /**
   * How many memories recalled for the prompt are irrelevant: for an on-topic probe those holding
   * no expected string, for an off-topic probe all of them. Standing memories are not counted.
   */
  int irrelevant() {
    return (int) injected.stream().filter(m -> !m.standing() && !probe.matches(m.text())).count();
  }

  /** How many standing memories were offered. */
  int standing() {
    return (int) injected.stream().filter(InjectedMemory::standing).count();
  }
}
