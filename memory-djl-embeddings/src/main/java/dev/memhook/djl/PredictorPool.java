package dev.memhook.djl;

import dev.memhook.api.EmbeddingException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A fixed number of predictors (DJL predictors in production, which are not thread-safe), each
 * leased to one caller at a time, so that up to that many calls run at once and further callers
 * wait for a free one.
 *
 * <p>Thread-safe: do not synchronise on it. {@link #close()} stops new leases, waits until every
 * predictor is back, and closes each one; it is idempotent. A caller waiting for a predictor when
 * the pool closes gets an {@link IllegalStateException} within one poll interval rather than
 * blocking until the pool's owner is gone.
 *
 * @param <P> the pooled predictor type
 */
final class PredictorPool<P> {
  /** How long a waiting caller waits for a free predictor before checking the pool is open. */
  private static final long POLL_MILLIS = 100;

  private final int size;
  private final BlockingQueue<P> free;
  private final Consumer<? super P> closer;
  private final String owner;
  private final AtomicBoolean closed = new AtomicBoolean();

  private PredictorPool(int size, Consumer<? super P> closer, String owner) {
    this.size = size;
    this.free = new ArrayBlockingQueue<>(size);
    this.closer = closer;
    this.owner = owner;
  }

  /**
   * A pool of {@code size} predictors made by {@code factory}. If the factory fails, the predictors
   * already made are closed and its exception is thrown.
   *
   * @param closer releases one predictor; called once for each, by {@link #close()}
   * @param owner names what the pool serves in the message of a closed pool's exception, such as
   *     {@code "DjlEmbedder all-minilm-l6-v2-q"}
   * @throws IllegalArgumentException if {@code size} is not positive
   */
  static <P> PredictorPool<P> fill(
      int size, Supplier<? extends P> factory, Consumer<? super P> closer, String owner) {
    if (size < 1) {
      throw new IllegalArgumentException("predictor pool size must be positive, got " + size);
    }
    PredictorPool<P> pool = new PredictorPool<>(size, closer, owner);
    try {
      for (int i = 0; i < size; i++) {
        pool.free.add(factory.get());
      }
    } catch (RuntimeException e) {
      pool.free.forEach(closer);
      pool.free.clear();
      throw e;
    }
    return pool;
  }

  /**
   * Runs {@code work} with a leased predictor and returns its result; the predictor is back in the
   * pool when this returns or throws.
   *
   * @throws IllegalStateException if the pool is closed, or closes while this waits
   * @throws EmbeddingException if the thread is interrupted while waiting (its interrupt flag is
   *     kept)
   */
  <R> R withPredictor(Function<? super P, ? extends R> work) {
    P predictor = acquire();
    try {
      return work.apply(predictor);
    } finally {
      free.add(predictor);
    }
  }

  private P acquire() {
    checkOpen();
    while (true) {
      P p;
      try {
        // A timed poll, so a caller waiting for a predictor notices close() instead of blocking.
        p = free.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new EmbeddingException("interrupted while waiting for a free predictor; retry", e);
      }
      if (p != null) {
        if (closed.get()) {
          // close() is waiting for every predictor; hand this one back to it.
          free.add(p);
          checkOpen();
        }
        return p;
      }
      checkOpen();
    }
  }

  private void checkOpen() {
    if (closed.get()) {
      throw new IllegalStateException(owner + " is closed");
    }
  }

  /**
   * Stops new leases, waits for every leased predictor to come back and closes them all. If the
   * waiting thread is interrupted it keeps waiting, then returns with its interrupt flag set.
   *
   * @return true if this call closed the pool, false if it was already closed (then it returns at
   *     once, possibly before the first call has finished)
   */
  boolean close() {
    if (!closed.compareAndSet(false, true)) {
      return false;
    }
    boolean interrupted = false;
    int released = 0;
    while (released < size) {
      try {
        P p = free.take();
        closer.accept(p);
        released++;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return true;
  }
}
