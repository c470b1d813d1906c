package dev.memhook.core.internal.capture;

import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.SessionStore;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The default {@link SessionStore} of a service without a journal directory: records and ids in
 * this JVM's heap, gone when the service closes. Not {@linkplain #shared() shared}; thread-safe;
 * holds any string.
 */
final class InMemorySessionStore implements SessionStore {

  private final Map<String, String> records = new ConcurrentHashMap<>();
  private final Map<String, Set<MemoryId>> observations = new ConcurrentHashMap<>();
  private volatile boolean closed;

  @Override
  public boolean shared() {
    return false;
  }

  @Override
  public List<String> loadAll() {
    checkOpen();
    return List.copyOf(records.values());
  }

  @Override
  public Optional<String> load(String sessionId) {
    Objects.requireNonNull(sessionId, "sessionId");
    checkOpen();
    return Optional.ofNullable(records.get(sessionId));
  }

  @Override
  public void save(String sessionId, Scope scope, String record) {
    Objects.requireNonNull(sessionId, "sessionId");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(record, "record");
    checkOpen();
    records.put(sessionId, record);
  }

  @Override
  public void appendObservations(String sessionId, List<MemoryId> ids) {
    Objects.requireNonNull(sessionId, "sessionId");
    List<MemoryId> copy = List.copyOf(ids);
    checkOpen();
    Set<MemoryId> listed = observations.computeIfAbsent(sessionId, k -> new LinkedHashSet<>());
    synchronized (listed) {
      listed.addAll(copy);
    }
  }

  @Override
  public List<MemoryId> observations(String sessionId) {
    Objects.requireNonNull(sessionId, "sessionId");
    checkOpen();
    Set<MemoryId> listed = observations.get(sessionId);
    if (listed == null) {
      return List.of();
    }
    synchronized (listed) {
      return List.copyOf(new ArrayList<>(listed));
    }
  }

  @Override
  public void close() {
    closed = true;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("the session store is closed");
    }
  }
}
