package dev.memhook.djl;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.memhook.api.EmbeddingException;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An {@link Embedder} that remembers the vectors of recently embedded texts, so the same text is
 * embedded once. Backed by a Caffeine cache bounded by entry count (least-recently/frequently used
 * entries are evicted first); keys are the exact texts.
 *
 * <p>{@link #embedAll} asks the delegate only for the texts not cached, in one {@code embedAll}
 * call, so misses stay batched. A text embedded alone and one embedded in a batch may differ by the
 * delegate's stated batch tolerance; whichever was computed first is what the cache returns.
 *
 * <p>Thread-safe: concurrent calls for the same missing text embed it once (the others wait).
 * Eviction runs on the calling thread; no background thread is started. Null texts are rejected
 * with {@link NullPointerException}; the delegate's exceptions pass through and nothing is cached
 * for the texts that failed. {@link #close()} clears the cache and closes the delegate, which this
 * embedder owns; it is idempotent, and {@code embed}/{@code embedAll}/{@code stats} throw {@link
 * IllegalStateException} afterwards.
 */
public final class CachingEmbedder implements Embedder {

  /** Default bound: 10,000 entries, about 16 MB for 384-dimensional vectors and short texts. */
  public static final long DEFAULT_MAXIMUM_SIZE = 10_000;

  private final Embedder delegate;
  private final Cache<String, Embedding> cache;
  private final AtomicBoolean closed = new AtomicBoolean();

  private CachingEmbedder(Embedder delegate, long maximumSize) {
    this.delegate = delegate;
    this.cache =
        Caffeine.newBuilder()
            .maximumSize(maximumSize)
            .executor(Runnable::run)
            .recordStats()
            .build();
  }

  /** A builder caching {@code delegate}'s vectors. Not thread-safe. */
  public static Builder builder(Embedder delegate) {
    return new Builder(Objects.requireNonNull(delegate, "delegate"));
  }

  @Override
  public Embedding embed(String text) {
    Objects.requireNonNull(text, "text");
    checkOpen();
    return cache.get(text, delegate::embed);
  }

  @Override
  public List<Embedding> embedAll(List<String> texts) {
    Objects.requireNonNull(texts, "texts");
    for (int i = 0; i < texts.size(); i++) {
      if (texts.get(i) == null) {
        throw new NullPointerException("texts[" + i + "]");
      }
    }
    checkOpen();
    Map<String, Embedding> found = cache.getAll(texts, this::embedMisses);
    List<Embedding> out = new ArrayList<>(texts.size());
    for (String text : texts) {
      out.add(found.get(text));
    }
    return List.copyOf(out);
  }

  private Map<String, Embedding> embedMisses(Set<? extends String> misses) {
    List<String> list = List.copyOf(misses);
    List<Embedding> vectors = delegate.embedAll(list);
    if (vectors.size() != list.size()) {
      throw new EmbeddingException(
          "embedder "
              + delegate.modelId()
              + " returned "
              + vectors.size()
              + " vectors for "
              + list.size()
              + " texts");
    }
    Map<String, Embedding> out = new HashMap<>();
    for (int i = 0; i < list.size(); i++) {
      out.put(list.get(i), vectors.get(i));
    }
    return out;
  }

  /** The delegate's dimension. */
  @Override
  public int dimension() {
    return delegate.dimension();
  }

  /** The delegate's model id: cached vectors are the delegate's, so they share its space. */
  @Override
  public String modelId() {
    return delegate.modelId();
  }

  /** Hit and miss counts since creation, and the current number of entries. */
  public Stats stats() {
    checkOpen();
    var s = cache.stats();
    return new Stats(s.hitCount(), s.missCount(), cache.estimatedSize());
  }

  /** Clears the cache and closes the delegate. Idempotent. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      cache.invalidateAll();
      delegate.close();
    }
  }

  private void checkOpen() {
    if (closed.get()) {
      throw new IllegalStateException("CachingEmbedder over " + delegate.modelId() + " is closed");
    }
  }

  @Override
  public String toString() {
    return "CachingEmbedder[" + delegate + "]";
  }

  /**
   * Cache counters.
   *
   * @param hits texts answered from the cache
   * @param misses texts the delegate had to embed
   * @param size entries held now (an estimate while evictions are pending)
   */
  public record Stats(long hits, long misses, long size) {
    /** Validates the counts. */
    public Stats {
      if (hits < 0 || misses < 0 || size < 0) {
        throw new IllegalArgumentException(
            "counts must not be negative: hits=" + hits + ", misses=" + misses + ", size=" + size);
      }
    }
  }

  /**
   * Builds a {@link CachingEmbedder}. Strict: each option may be set once; invalid values are
   * rejected at once. Not thread-safe.
   */
  public static final class Builder {
    private final Embedder delegate;
    private long maximumSize = -1;

    private Builder(Embedder delegate) {
      this.delegate = delegate;
    }

    /** The most entries kept; default {@value #DEFAULT_MAXIMUM_SIZE}. Must be positive. */
    public Builder maximumSize(long maximumSize) {
      if (maximumSize < 1) {
        throw new IllegalArgumentException("maximumSize must be positive, got " + maximumSize);
      }
      if (this.maximumSize != -1) {
        throw new IllegalStateException("maximumSize was already set to " + this.maximumSize);
      }
      this.maximumSize = maximumSize;
      return this;
    }

    /** A new caching embedder that owns the delegate. */
    public CachingEmbedder build() {
      return new CachingEmbedder(delegate, maximumSize == -1 ? DEFAULT_MAXIMUM_SIZE : maximumSize);
    }
  }
}
