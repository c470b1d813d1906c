package dev.memhook.core.internal.recall;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.testkit.ForwardingMemoryStore;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A store whose vector search does not return until a record has been read: only a read made while
 * that search runs, on another thread, lets it go on (it fails the test after 30 s). Records the
 * thread of each read. Thread-safe.
 */
final class VectorsAwaitingARead extends ForwardingMemoryStore {
  private final CountDownLatch read = new CountDownLatch(1);

  /** The name of the thread of each {@code getAll}, in order. */
  final List<String> readers = Collections.synchronizedList(new ArrayList<>());

  VectorsAwaitingARead(MemoryStore delegate) {
    super(delegate);
  }

  @Override
  public List<StoreHit> searchVector(Scope scope, Embedding query, int k) {
    try {
      assertTrue(
          read.await(30, TimeUnit.SECONDS), "no record read while the vectors were searched");
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
    return super.searchVector(scope, query, k);
  }

  @Override
  public Map<MemoryId, Memory> getAll(Collection<MemoryId> ids) {
    readers.add(Thread.currentThread().getName());
    read.countDown();
    return super.getAll(ids);
  }
}
