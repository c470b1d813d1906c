package dev.memhook.lucene;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The read cache of decoded memory records in front of the index: {@code getAll} reads what is
 * cached and loads the rest with one query.
 *
 * <h2>Design note</h2>
 *
 * A write may replace a record between a load and the load's put into the cache, and the cache
 * would then hold the replaced record. So the cache counts writes: a write {@linkplain #invalidate
 * invalidates} its ids after it is visible to new reads, counting first. A load reads the count
 * before its searcher is refreshed, and caches what it read only if the count has not moved: a
 * write counted after that may have replaced it. A write counted between that check and the put
 * invalidates its ids after counting, which may land before the put: a second check after the put
 * catches that and drops what was put.
 *
 * <p>Thread-safe.
 */
final class RecordCache {
  /** Loads the records of ids that were not cached, from a searcher that reflects every write. */
  @FunctionalInterface
  interface Loader {
    Map<MemoryId, Memory> load(Set<MemoryId> ids);
  }

  private final Cache<MemoryId, Memory> cache;
  private final Loader loader;

  /** Bumped by every write before it invalidates its ids. */
  private final AtomicLong writes = new AtomicLong();

  /** A cache of at most {@code maximumSize} records (0: none) in front of {@code loader}. */
  RecordCache(long maximumSize, Loader loader) {
    this.cache = Caffeine.newBuilder().maximumSize(maximumSize).build();
    this.loader = loader;
  }

  /** The memories with these ids that exist, in the order asked; those not cached are loaded. */
  Map<MemoryId, Memory> getAll(Collection<MemoryId> ids) {
    Map<MemoryId, Memory> found = new HashMap<>();
    Set<MemoryId> missing = new LinkedHashSet<>();
    for (MemoryId id : ids) {
      Objects.requireNonNull(id, "ids element");
      Memory cached = cache.getIfPresent(id);
      if (cached != null) {
        found.put(id, cached);
      } else {
        missing.add(id);
      }
    }
    if (!missing.isEmpty()) {
      long count = writes.get();
      Map<MemoryId, Memory> loaded = loader.load(missing);
      if (writes.get() == count) {
        cache.putAll(loaded);
        if (writes.get() != count) {
          cache.invalidateAll(loaded.keySet());
        }
      }
      found.putAll(loaded);
    }
    Map<MemoryId, Memory> out = new LinkedHashMap<>();
    for (MemoryId id : ids) {
      Memory m = found.get(id);
      if (m != null) {
        out.put(id, m);
      }
    }
    return out;
  }

  /**
   * Drops the records of a write's ids; called by every write after it is visible to new reads and
   * before it returns.
   */
  void invalidate(Collection<MemoryId> ids) {
    writes.incrementAndGet();
    cache.invalidateAll(ids);
  }

  /** Drops every record. */
  void clear() {
    cache.invalidateAll();
  }
}
