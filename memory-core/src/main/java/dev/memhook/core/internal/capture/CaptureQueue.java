package dev.memhook.core.internal.capture;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bounded queue between {@code observe} and the capture worker. It is bounded twice: by the
 * number of waiting events ({@code CaptureOptions.queueCapacity}) and by their encoded size ({@link
 * #MAX_QUEUED_BYTES}), so a burst of huge tool outputs cannot fill the heap while the count is low.
 * One event larger than the byte bound still fits an empty queue.
 *
 * <p>Thread-safe. A place is reserved before the event is written to the journal, so a full queue
 * is known before anything durable happens.
 */
final class CaptureQueue {

  /** The most encoded bytes that may wait: 64 MiB. */
  static final long MAX_QUEUED_BYTES = 64L << 20;

  /** An accepted event waiting for the worker, with its journal sequence number. */
  record Queued(long seq, AcceptedEvent event, int bytes) {}

  private final LinkedBlockingQueue<Queued> queue = new LinkedBlockingQueue<>();
  private final Semaphore places;
  private final AtomicLong bytes = new AtomicLong();

  CaptureQueue(int capacity) {
    this.places = new Semaphore(capacity);
  }

  /** Reserves a place for an event of {@code size} bytes, or returns false if the queue is full. */
  boolean tryReserve(int size) {
    if (!places.tryAcquire()) {
      return false;
    }
    long after = bytes.addAndGet(size);
    if (after > MAX_QUEUED_BYTES && after != size) {
      bytes.addAndGet(-size);
      places.release();
      return false;
    }
    return true;
  }

  /** Gives back a place reserved for an event that will not be queued. */
  void cancel(int size) {
    bytes.addAndGet(-size);
    places.release();
  }

  /** Queues an event whose place is reserved. */
  void put(Queued q) {
    queue.add(q);
  }

  /** Takes the oldest waiting event, freeing its place, or null if none waits. */
  Queued pollOldest() {
    Queued q = queue.poll();
    if (q != null) {
      cancel(q.bytes());
    }
    return q;
  }

  /**
   * Takes up to {@code max} waiting events, waiting at most {@code waitMillis} for the first; frees
   * their places.
   */
  List<Queued> take(int max, long waitMillis) throws InterruptedException {
    List<Queued> batch = new ArrayList<>();
    Queued first = queue.poll(waitMillis, TimeUnit.MILLISECONDS);
    if (first == null) {
      return batch;
    }
    batch.add(first);
    queue.drainTo(batch, max - 1);
    for (Queued q : batch) {
      cancel(q.bytes());
    }
    return batch;
  }

  /** Takes up to {@code max} waiting events without waiting; frees their places. */
  List<Queued> drain(int max) {
    List<Queued> batch = new ArrayList<>();
    queue.drainTo(batch, max);
    for (Queued q : batch) {
      cancel(q.bytes());
    }
    return batch;
  }

  boolean isEmpty() {
    return queue.isEmpty();
  }
}
