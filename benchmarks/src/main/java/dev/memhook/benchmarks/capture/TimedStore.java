package dev.memhook.benchmarks.capture;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.testkit.ForwardingMemoryStore;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;

/**
 * A store that forwards to a delegate and sums the time spent writing ({@code put}, {@code putAll},
 * {@code putNewVersion}) and reading by id ({@code get}, {@code getAll}), so a harness can say how
 * much of the capture worker's time the store takes. Searches are forwarded untimed.
 *
 * <p>Thread-safe if the delegate is; the counters are {@link LongAdder}s.
 */
final class TimedStore extends ForwardingMemoryStore {

  private final LongAdder writeNanos = new LongAdder();
  private final LongAdder writeCalls = new LongAdder();
  private final LongAdder readNanos = new LongAdder();
  private final LongAdder readCalls = new LongAdder();

  TimedStore(MemoryStore delegate) {
    super(delegate);
  }

  @Override
  public void put(Memory memory, Embedding embedding, List<Embedding> passages) {
    long t0 = System.nanoTime();
    try {
      super.put(memory, embedding, passages);
    } finally {
      wrote(t0);
    }
  }

  @Override
  public void putAll(Map<Memory, Embedding> batch, Map<MemoryId, List<Embedding>> passages) {
    long t0 = System.nanoTime();
    try {
      super.putAll(batch, passages);
    } finally {
      wrote(t0);
    }
  }

  @Override
  public void putNewVersion(Memory next, Embedding embedding, List<Embedding> passages) {
    long t0 = System.nanoTime();
    try {
      super.putNewVersion(next, embedding, passages);
    } finally {
      wrote(t0);
    }
  }

  @Override
  public Optional<Memory> get(MemoryId id) {
    long t0 = System.nanoTime();
    try {
      return super.get(id);
    } finally {
      read(t0);
    }
  }

  @Override
  public Map<MemoryId, Memory> getAll(Collection<MemoryId> ids) {
    long t0 = System.nanoTime();
    try {
      return super.getAll(ids);
    } finally {
      read(t0);
    }
  }

  private void wrote(long t0) {
    writeNanos.add(System.nanoTime() - t0);
    writeCalls.increment();
  }

  private void read(long t0) {
    readNanos.add(System.nanoTime() - t0);
    readCalls.increment();
  }

  /** Nanoseconds spent writing so far. */
  long writeNanos() {
    return writeNanos.sum();
  }

  /** Write calls so far. */
  long writeCalls() {
    return writeCalls.sum();
  }

  /** Nanoseconds spent reading by id so far. */
  long readNanos() {
    return readNanos.sum();
  }

  /** Reads by id so far. */
  long readCalls() {
    return readCalls.sum();
  }
}
