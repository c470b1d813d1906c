package dev.memhook.core.internal.recall;

import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.StoreCapability;
import dev.memhook.testkit.ForwardingMemoryStore;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A store that declares {@link StoreCapability#PASSAGE_VECTORS} (unless made {@link #undeclared})
 * and answers {@code passageCosines} with the cosines a test chose, whatever the query: the recall
 * stages' view of a store whose memories have sentences. Every other call goes to the store it
 * wraps. Not thread-safe.
 */
final class PassageAnswers extends ForwardingMemoryStore {

  private final Map<MemoryId, Double> cosines;

  /** The ids each {@code passageCosines} call asked for, in order. */
  final List<List<MemoryId>> asked = new ArrayList<>();

  private final boolean declared;

  /** Over {@code store}: each id of {@code cosines} answers its cosine, any other id nothing. */
  PassageAnswers(MemoryStore store, Map<MemoryId, Double> cosines) {
    this(store, cosines, true);
  }

  private PassageAnswers(MemoryStore store, Map<MemoryId, Double> cosines, boolean declared) {
    super(store);
    this.cosines = Map.copyOf(cosines);
    this.declared = declared;
  }

  /**
   * The same store declaring no capability at all: a recall must not ask it, and {@link #asked}
   * says whether one did.
   */
  static PassageAnswers undeclared(MemoryStore store, Map<MemoryId, Double> cosines) {
    return new PassageAnswers(store, cosines, false);
  }

  @Override
  public Set<StoreCapability> capabilities() {
    return declared
        ? EnumSet.of(StoreCapability.PASSAGE_VECTORS)
        : EnumSet.noneOf(StoreCapability.class);
  }

  @Override
  public Map<MemoryId, Double> passageCosines(
      Scope scope, Collection<MemoryId> ids, Embedding query) {
    asked.add(List.copyOf(ids));
    Map<MemoryId, Double> out = new LinkedHashMap<>();
    ids.forEach(id -> Optional.ofNullable(cosines.get(id)).ifPresent(c -> out.put(id, c)));
    return out;
  }
}
