package dev.memhook.core.internal.recall;

import dev.memhook.api.Memory;
import dev.memhook.api.RecallResult;
import dev.memhook.api.RecalledMemory;
import java.util.List;
import java.util.Objects;

/**
 * The memories a recall leaves out whatever they score: none, or those captured from one source
 * session. A hook excludes its own conversation's session, whose turns are in the model's context
 * already and whose latest message, captured just before the recall, matches itself perfectly.
 *
 * <p>An excluded memory acts nowhere after fusion. {@link ExclusionScreen} takes it out of the
 * candidates that would give the query its evidence at the relevance gate or seed graph expansion,
 * and {@link ResultAssembly} leaves out the rest as records are read, before the session cap and
 * the limit count, so an excluded memory never takes a place and the limit counts only memories
 * that may be returned. It does not change which candidates the signals find or how they fuse.
 *
 * <p>Immutable and thread-safe.
 */
public final class Exclusion {

  private static final Exclusion NONE = new Exclusion(null);

  /** The excluded source session; null for none. */
  private final String sourceSession;

  private Exclusion(String sourceSession) {
    this.sourceSession = sourceSession;
  }

  /** Leaves nothing out. */
  public static Exclusion none() {
    return NONE;
  }

  /**
   * Leaves out the memories whose {@link Memory#sourceSession()} is {@code session}.
   *
   * @throws NullPointerException if {@code session} is null
   */
  public static Exclusion sourceSession(String session) {
    return new Exclusion(Objects.requireNonNull(session, "session"));
  }

  /** Whether this leaves nothing out. */
  boolean isNone() {
    return sourceSession == null;
  }

  /**
   * Whether {@code memory} is left out: by recall, and by the standing memories a hook offers
   * (which take the same rule, {@code inject.ScopedRecall}).
   */
  public boolean excludes(Memory memory) {
    return sourceSession != null && sourceSession.equals(memory.sourceSession());
  }

  /**
   * What a recall with an exclusion returned.
   *
   * @param result the recall's result: only memories the exclusion let through, up to the limit
   * @param excluded the memories the exclusion left out, in ranking order, each with its fused
   *     score and signal hits; they took no place
   */
  public record Result(RecallResult result, List<RecalledMemory> excluded) {
    /** Copies the list; nulls are rejected. */
    public Result {
      Objects.requireNonNull(result, "result");
      excluded = List.copyOf(Objects.requireNonNull(excluded, "excluded"));
    }
  }

  @Override
  public String toString() {
    return sourceSession == null ? "Exclusion[none]" : "Exclusion[session " + sourceSession + "]";
  }
}
