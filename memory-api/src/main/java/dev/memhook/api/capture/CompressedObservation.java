package dev.memhook.api.capture;

import java.util.List;
import java.util.Objects;

/**
 * The compressed form of an {@link Observation}: what recall indexes and a batched injection shows.
 *
 * <p>Immutable and thread-safe; lists are copied. Nothing is null. The service checks a
 * compressor's answer before using it: a blank title, a title, fact or narrative over the memory
 * limits ({@link dev.memhook.api.MemoryDraft}), or an importance outside 0..1 makes it fall back to
 * the synthetic form.
 *
 * @param title a one-line title
 * @param facts short statements of what happened, each one sentence
 * @param narrative a few sentences saying what happened
 * @param concepts lower-case concept tags
 * @param files file paths the observation touches
 * @param kind what it records
 * @param importance how much it matters, 0 to 1
 */
public record CompressedObservation(
    String title,
    List<String> facts,
    String narrative,
    List<String> concepts,
    List<String> files,
    ObservationKind kind,
    double importance) {

  /** Copies the lists and requires every component. */
  public CompressedObservation {
    Objects.requireNonNull(title, "title");
    facts = List.copyOf(facts);
    Objects.requireNonNull(narrative, "narrative");
    concepts = List.copyOf(concepts);
    files = List.copyOf(files);
    Objects.requireNonNull(kind, "kind");
  }
}
