package dev.memhook.api.capture;

import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryType;
import java.util.List;
import java.util.Objects;

/**
 * One durable memory a {@link dev.memhook.api.capture.Consolidator} distils from a session's
 * observations. The service stores it as a new memory, or as a new version of a near-duplicate it
 * already holds, linked to the observations it came from. A {@linkplain #corrects() correction} is
 * stored as a new version of the memory of its scope it corrects, when the service finds one (the
 * same type family and the closest wording about the same subject), so the old statement is no
 * longer recalled or offered; otherwise it is stored as a new memory.
 *
 * <p>Immutable and thread-safe; lists are copied; nothing is null.
 *
 * @param type what kind of knowledge it is (never {@link MemoryType#OBSERVATION})
 * @param title a short title
 * @param content the statement itself
 * @param concepts lower-case concept tags
 * @param files file paths it is about
 * @param importance how much it matters, 0 to 1
 * @param sources the observations it was distilled from
 * @param corrects whether it says that something the scope knew is no longer so ("we moved the
 *     staging database to port 6543", "actually, releases go out on Tuesdays now")
 */
public record Consolidation(
    MemoryType type,
    String title,
    String content,
    List<String> concepts,
    List<String> files,
    double importance,
    List<MemoryId> sources,
    boolean corrects) {

  /** Copies the lists and requires every component. */
  public Consolidation {
    Objects.requireNonNull(type, "type");
    if (type == MemoryType.OBSERVATION) {
      throw new IllegalArgumentException("a consolidation is not an observation");
    }
    Objects.requireNonNull(title, "title");
    Objects.requireNonNull(content, "content");
    concepts = List.copyOf(concepts);
    files = List.copyOf(files);
    sources = List.copyOf(sources);
  }

  /** A consolidation that corrects nothing: a new statement, or a refinement of a held one. */
  public Consolidation(
      MemoryType type,
      String title,
      String content,
      List<String> concepts,
      List<String> files,
      double importance,
      List<MemoryId> sources) {
    this(type, title, content, concepts, files, importance, sources, false);
  }
}
