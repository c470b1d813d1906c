package dev.memhook.djl;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.memhook.api.EmbeddingException;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.SimilarityCalibration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * An {@link Embedder} that remembers the vectors of recently embedded texts, so the same text is
 * embedded once. Backed by a Caffeine cache bounded by entry count (least-recently/frequently used
 * entries are evicted first); keys are the exact texts and the side they were embedded for (a query
 * or a stored document), since an asymmetric delegate embeds the two differently.
 *
 * <p>{@link #embedAll} asks the delegate only for the texts not cached, in one {@code embedAll}
 * call, so misses stay batched; {@link #embedDocuments} likewise with {@code embedDocuments}, and
 * {@link #embedQuery} with the delegate's {@code embedQuery}. A text embedded alone and one
 * embedded in a batch may differ by the delegate's stated batch tolerance; whichever was computed
 * first is what the cache returns.
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
  private final Cache<Key, Embedding> cache;
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
    return cache.get(new Key(Side.DOCUMENT, text), key -> delegate.embed(key.text()));
  }

  @Override
  public List<Embedding> embedAll(List<String> texts) {
    return embedMany(Side.DOCUMENT, texts, delegate::embedAll);
  }

  @Override
  public List<Embedding> embedDocuments(List<String> texts) {
    return embedMany(Side.DOCUMENT, texts, delegate::embedDocuments);
  }

  @Override
  public Embedding embedQuery(String text) {
    Objects.requireNonNull(text, "text");
    checkOpen();
    return cache.get(new Key(Side.QUERY, text), key -> delegate.embedQuery(key.text()));
  }

  private List<Embedding> embedMany(
      Side side, List<String> texts, Function<List<String>, List<Embedding>> embedder) {
    Objects.requireNonNull(texts, "texts");
    List<Key> keys = new ArrayList<>(texts.size());
    for (int i = 0; i < texts.size(); i++) {
      if (texts.get(i) == null) {
        throw new NullPointerException("texts[" + i + "]");
      }
      keys.add(new Key(side, texts.get(i)));
    }
    checkOpen();
    Map<Key, Embedding> found = cache.getAll(keys, misses -> embedMisses(misses, embedder));
    List<Embedding> out = new ArrayList<>(keys.size());
    for (Key key : keys) {
      out.add(found.get(key));
    }
    return List.copyOf(out);
  }

  private Map<Key, Embedding> embedMisses(
      Set<? extends Key> misses, Function<List<String>, List<Embedding>> embedder) {
    List<Key> keys = List.copyOf(misses);
    List<Embedding> vectors = embedder.apply(keys.stream().map(Key::text).toList());
    if (vectors.size() != keys.size()) {
      throw new EmbeddingException(
          "embedder "
              + delegate.modelId()
              + " returned "
              + vectors.size()
              + " vectors for "
              + keys.size()
              + " texts");
    }
    Map<Key, Embedding> out = new HashMap<>();
    for (int i = 0; i < keys.size(); i++) {
      out.put(keys.get(i), vectors.get(i));
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

  /** The delegate's calibration: caching changes no vector. */
  @Override
  public Optional<SimilarityCalibration> similarityCalibration() {
    return delegate.similarityCalibration();
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

  /** Which side of an asymmetric model a cached vector was embedded for. */
  private enum Side {
    QUERY,
    DOCUMENT
  }

  private record Key(Side side, String text) {}

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
