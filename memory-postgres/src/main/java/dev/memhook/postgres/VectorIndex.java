package dev.memhook.postgres;

import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.StoreHit;
import java.util.List;

/**
 * Where a {@link PostgresMemoryStore} answers vector searches from. The vectors themselves live in
 * PostgreSQL; an index serves them from this JVM. {@link ScopeVectorCache} loads a scope's latest
 * vectors on demand and searches them exactly; a local approximate index that follows PostgreSQL's
 * change feed can replace it behind this interface without touching the store.
 *
 * <p>Implementations are thread-safe.
 */
interface VectorIndex {

  /**
   * The latest memories of {@code scope} nearest to {@code unitQuery} (unit length), best first,
   * scored by cosine, at most {@code k}; reflecting every write that committed before the call.
   */
  List<StoreHit> search(Scope scope, Embedding unitQuery, int k);

  /** Drops what is held in memory; later searches load again. */
  void clear();
}
