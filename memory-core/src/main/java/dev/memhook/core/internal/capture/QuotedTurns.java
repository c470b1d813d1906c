package dev.memhook.core.internal.capture;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.StoreHit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Finds the captured observations that quote a forgotten one as their context. Capture stores each
 * turn with the turn before it as context, so forgetting a turn must also clear the context of the
 * turn after it, or the forgotten text stays searchable and on disk there.
 *
 * <p>Stateless and thread-safe.
 */
public final class QuotedTurns {

  /** How many text hits are checked for a quoting turn. */
  private static final int CANDIDATES = 20;

  /** How much of the forgotten text a context must contain to count as quoting it. */
  private static final int QUOTE_CHARS = 200;

  private QuotedTurns() {}

  /** Whether {@code memory} is an observation capture stored. */
  public static boolean captured(Memory memory) {
    return memory.id().value().startsWith(EventKeys.OBSERVATION_PREFIX);
  }

  /**
   * The latest captured observations of {@code forgotten}'s session, other than those in {@code
   * skip}, whose context quotes it, each with its context cleared (ready to be put back in place of
   * the quoting version).
   */
  public static List<Memory> quoting(MemoryStore store, Memory forgotten, List<MemoryId> skip) {
    Objects.requireNonNull(forgotten, "forgotten");
    String session = forgotten.sourceSession();
    String content = forgotten.content();
    if (session == null || content.isBlank()) {
      return List.of();
    }
    String quote = content.length() <= QUOTE_CHARS ? content : content.substring(0, QUOTE_CHARS);
    List<MemoryId> ids = new ArrayList<>();
    for (StoreHit hit : store.searchText(forgotten.scope(), quote, CANDIDATES).hits()) {
      if (!skip.contains(hit.id())) {
        ids.add(hit.id());
      }
    }
    List<Memory> out = new ArrayList<>();
    for (Memory m : store.getAll(ids).values()) {
      if (captured(m) && session.equals(m.sourceSession()) && m.context().contains(quote)) {
        out.add(m.toBuilder().context("").build());
      }
    }
    return out;
  }
}
