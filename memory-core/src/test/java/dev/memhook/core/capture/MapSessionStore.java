package dev.memhook.core.capture;

import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryStoreException;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.SessionStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link SessionStore} over maps that outlive it, as a database outlives a service: {@link
 * #reopened()} is a new store over the same data. While {@link #failing} is set, every call fails
 * as an unreachable database would. Thread-safe.
 */
final class MapSessionStore implements SessionStore {

  /** The data, shared by the stores {@link #reopened()} makes. */
  static final class Data {
    final Map<String, String> records = new ConcurrentHashMap<>();
    final Map<String, Scope> scopes = new ConcurrentHashMap<>();
    final Map<String, List<MemoryId>> ids = new ConcurrentHashMap<>();
    final AtomicInteger failed = new AtomicInteger();
    volatile boolean failing;

    synchronized List<MemoryId> ids(String sessionId) {
      return List.copyOf(ids.getOrDefault(sessionId, List.of()));
    }
  }

  final Data data;
  private final boolean shared;
  private volatile boolean closed;

  MapSessionStore(Data data, boolean shared) {
    this.data = data;
    this.shared = shared;
  }

  /** A store over new data. */
  static MapSessionStore create(boolean shared) {
    return new MapSessionStore(new Data(), shared);
  }

  /** A new store over this one's data. */
  MapSessionStore reopened() {
    return new MapSessionStore(data, shared);
  }

  boolean closed() {
    return closed;
  }

  @Override
  public boolean shared() {
    return shared;
  }

  @Override
  public List<String> loadAll() {
    check();
    return List.copyOf(data.records.values());
  }

  @Override
  public Optional<String> load(String sessionId) {
    check();
    return Optional.ofNullable(data.records.get(sessionId));
  }

  @Override
  public void save(String sessionId, Scope scope, String record) {
    check();
    data.records.put(sessionId, record);
    data.scopes.put(sessionId, scope);
  }

  @Override
  public void appendObservations(String sessionId, List<MemoryId> ids) {
    check();
    synchronized (data) {
      List<MemoryId> listed = new ArrayList<>(data.ids.getOrDefault(sessionId, List.of()));
      ids.stream().filter(id -> !listed.contains(id)).forEach(listed::add);
      data.ids.put(sessionId, listed);
    }
  }

  @Override
  public List<MemoryId> observations(String sessionId) {
    check();
    return data.ids(sessionId);
  }

  @Override
  public void close() {
    closed = true;
  }

  private void check() {
    if (closed) {
      throw new IllegalStateException("the session store is closed");
    }
    if (data.failing) {
      data.failed.incrementAndGet();
      throw new MemoryStoreException("the session database is unreachable; retry");
    }
  }
}
