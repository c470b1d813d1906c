package dev.memhook.core.internal.capture;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.MemoryStore;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The captured observations a consolidated memory was made from, as a forget finds them: the ids
 * that {@link SessionConsolidation} names in the {@value SessionConsolidation#SOURCES} attribute of
 * each version, read back from the store and kept only when they are still stored, in the memory's
 * scope, and captured observations ({@link QuotedTurns#captured}, {@link MemoryType#OBSERVATION}).
 * A name that fails any of these (another scope's id, a memory the host wrote, an id forgotten
 * since) is ignored, so an attribute a host set by hand cannot reach beyond the observations of its
 * own scope.
 *
 * <p>Stateless and thread-safe.
 */
public final class SourceObservations {

  private SourceObservations() {}

  /**
   * Whether {@code consolidated} names {@code observation} among the observations it was made from
   * (in its {@value SessionConsolidation#SOURCES} attribute). A name is only a claim: what it names
   * may have been forgotten since, or never have been a captured observation of the same scope.
   */
  public static boolean names(Memory consolidated, MemoryId observation) {
    String value = consolidated.attributes().get(SessionConsolidation.SOURCES);
    if (value == null) {
      return false;
    }
    for (String id : value.split(" ")) {
      if (id.equals(observation.value())) {
        return true;
      }
    }
    return false;
  }

  /**
   * The stored source observations of {@code versions} (one memory's versions, newest first, all of
   * one scope), in the order they are named: the newest version's names first, then the names only
   * older versions keep. An id among {@code versions} is never its own source.
   */
  public static List<Memory> stored(MemoryStore store, List<Memory> versions) {
    Objects.requireNonNull(store, "store");
    if (versions.isEmpty()) {
      return List.of();
    }
    Scope scope = versions.get(0).scope();
    Set<MemoryId> own = new HashSet<>();
    versions.forEach(v -> own.add(v.id()));
    Set<MemoryId> named = new LinkedHashSet<>();
    for (Memory v : versions) {
      String value = v.attributes().get(SessionConsolidation.SOURCES);
      if (value == null) {
        continue;
      }
      for (String id : value.split(" ")) {
        if (MemoryId.isValid(id) && !own.contains(MemoryId.of(id))) {
          named.add(MemoryId.of(id));
        }
      }
    }
    if (named.isEmpty()) {
      return List.of();
    }
    List<Memory> out = new ArrayList<>(named.size());
    for (Memory m : store.getAll(named).values()) {
      if (m.scope().equals(scope)
          && m.type() == MemoryType.OBSERVATION
          && QuotedTurns.captured(m)) {
        out.add(m);
      }
    }
    return out;
  }
}
