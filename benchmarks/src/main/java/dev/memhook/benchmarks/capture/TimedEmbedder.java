package dev.memhook.benchmarks.capture;

import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.SimilarityCalibration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * An {@link Embedder} that delegates every call and sums the time spent in {@code embed}, {@code
 * embedAll}, {@code embedQuery} and {@code embedDocuments}, with the number of calls and texts, so
 * a harness can say how much of the capture worker's time embedding takes. {@code embedAll} goes to
 * the delegate's own {@code embedAll}, so a batching model still batches.
 *
 * <p>Thread-safe if the delegate is; the counters are {@link LongAdder}s.
 */
final class TimedEmbedder implements Embedder {

  private final Embedder delegate;
  private final LongAdder nanos = new LongAdder();
  private final LongAdder calls = new LongAdder();
  private final LongAdder texts = new LongAdder();
  private final LongAdder chars = new LongAdder();

  TimedEmbedder(Embedder delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  @Override
  public Embedding embed(String text) {
    return timed(List.of(text), () -> delegate.embed(text));
  }

  @Override
  public List<Embedding> embedAll(List<String> batch) {
    return timed(batch, () -> delegate.embedAll(batch));
  }

  @Override
  public Embedding embedQuery(String text) {
    return timed(List.of(text), () -> delegate.embedQuery(text));
  }

  @Override
  public List<Embedding> embedDocuments(List<String> batch) {
    return timed(batch, () -> delegate.embedDocuments(batch));
  }

  /** Runs {@code call} and counts {@code batch} with its time, whether or not it throws. */
  private <T> T timed(List<String> batch, Supplier<T> call) {
    long t0 = System.nanoTime();
    try {
      return call.get();
    } finally {
      countBatch(t0, batch);
    }
  }

  private void countBatch(long t0, List<String> batch) {
    nanos.add(System.nanoTime() - t0);
    calls.increment();
    texts.add(batch.size());
    batch.forEach(t -> chars.add(t.length()));
  }

  @Override
  public int dimension() {
    return delegate.dimension();
  }

  @Override
  public String modelId() {
    return delegate.modelId();
  }

  @Override
  public Optional<SimilarityCalibration> similarityCalibration() {
    return delegate.similarityCalibration();
  }

  @Override
  public EmbeddingSpace space() {
    return delegate.space();
  }

  @Override
  public void close() {
    delegate.close();
  }

  /** Nanoseconds spent embedding so far. */
  long nanos() {
    return nanos.sum();
  }

  /** Embedding calls so far. */
  long calls() {
    return calls.sum();
  }

  /** Texts embedded so far. */
  long texts() {
    return texts.sum();
  }

  /** Characters of the texts embedded so far. */
  long chars() {
    return chars.sum();
  }

  /** Sets every counter to zero (not atomically with calls in flight). */
  void reset() {
    nanos.reset();
    calls.reset();
    texts.reset();
    chars.reset();
  }
}
