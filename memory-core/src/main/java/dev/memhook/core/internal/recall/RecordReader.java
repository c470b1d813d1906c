package dev.memhook.core.internal.recall;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.spi.MemoryStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The records one recall reads from the store, each id asked for at most once: graph expansion
 * reads its seeds and result assembly does not read them again. Not thread-safe; one per recall.
 */
final class RecordReader {

  private final MemoryStore store;
  private final Map<MemoryId, Memory> records = new HashMap<>();

  RecordReader(MemoryStore store) {
    this.store = store;
  }

  /**
   * A reader that starts with the records {@code read} already holds (read earlier in the same
   * recall); ids absent from it are read from {@code store} when asked for.
   */
  RecordReader(MemoryStore store, Map<MemoryId, Memory> read) {
    this.store = store;
    records.putAll(read);
  }

  /**
   * Reads the records of the candidates not read before, in one {@link MemoryStore#getAll} call, or
   * in none if every one was read.
   */
  void read(List<Candidate> candidates) {
    List<MemoryId> missing = new ArrayList<>();
    for (Candidate c : candidates) {
      if (!records.containsKey(c.id)) {
        missing.add(c.id);
      }
    }
    if (!missing.isEmpty()) {
      records.putAll(store.getAll(missing));
    }
  }

  /** {@link #read} by ids: the records of {@code ids} not read before, in one call or none. */
  void readIds(List<MemoryId> ids) {
    List<MemoryId> missing = new ArrayList<>();
    for (MemoryId id : ids) {
      if (!records.containsKey(id) && !missing.contains(id)) {
        missing.add(id);
      }
    }
    if (!missing.isEmpty()) {
      records.putAll(store.getAll(missing));
    }
  }

  /**
   * The record read for {@code id}, latest or not; null if it was not {@linkplain #read read} or
   * the store no longer had it (forgotten since the search).
   */
  Memory get(MemoryId id) {
    return records.get(id);
  }
}
