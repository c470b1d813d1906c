package dev.memhook.core.internal.recall;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import java.util.Objects;

/**
 * Query embeddings ({@link Embedder#embedQuery}, the query side of an asymmetric model), each
 * computed once per distinct text while the text stays in a bounded cache (0 entries turns the
 * cache off). Thread-safe if the embedder is, as the {@link Embedder} contract requires; the cache
 * is Caffeine's.
 */
final class QueryEmbeddings {

  private final Embedder embedder;
  private final Cache<String, Embedding> cache;

  QueryEmbeddings(Embedder embedder, int cacheSize) {
    this.embedder = Objects.requireNonNull(embedder, "embedder");
    this.cache = Caffeine.newBuilder().maximumSize(cacheSize).build();
  }

  /** The embedding of {@code text}, which must not be null. */
  Embedding of(String text) {
    return cache.get(text, embedder::embedQuery);
  }
}
