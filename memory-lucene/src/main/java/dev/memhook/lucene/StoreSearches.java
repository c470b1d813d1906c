package dev.memhook.lucene;

import dev.memhook.api.ExportResult;
import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.SessionWindow;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.api.spi.TextHits;
import dev.memhook.api.spi.TypeListing;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.apache.lucene.search.Query;

/**
 * The store's reads that run on a searcher: each builds its query, runs it through {@link
 * ScopedSearch} on one fresh searcher and turns the result into the SPI's values with {@link
 * HitReader}. Arguments arrive checked by {@link LuceneMemoryStore}, which keeps the contract
 * (nulls, {@code k}, open state); this class keeps the how.
 *
 * <p>Thread-safe: it holds only thread-safe parts, and each call acquires its own searcher. {@link
 * #close} stops the threads that help vector searches walk their segments; searches still work
 * after it, on their own threads.
 */
final class StoreSearches implements AutoCloseable {

  private final FreshSearchers searchers;
  private final TextQueryBuilder textQueries;
  private final HitReader reader;
  private final IndexMetadata metadata;
  private final int efSearch;
  private final UnreadableRecords unreadable;
  private final SegmentWalkers walkers; // null: every segment walked on the searching thread

  /**
   * @param walkers the threads a vector search over several segments lends its walks to, or null to
   *     walk them all on the searching thread
   */
  StoreSearches(
      FreshSearchers searchers,
      TextQueryBuilder textQueries,
      HitReader reader,
      IndexMetadata metadata,
      int efSearch,
      UnreadableRecords unreadable,
      SegmentWalkers walkers) {
    this.searchers = searchers;
    this.textQueries = textQueries;
    this.reader = reader;
    this.metadata = metadata;
    this.efSearch = efSearch;
    this.unreadable = unreadable;
    this.walkers = walkers;
  }

  /**
   * The text hits and, from the same searcher, the query's ceiling: the sum of boost times idf over
   * the query's terms that the scope holds, which no BM25 score reaches (see {@link TextCeiling}).
   */
  TextHits text(Scope scope, String query, int k) {
    Query text = textQueries.build(query);
    if (text == null) {
      return TextHits.none();
    }
    return searchers.withSearcher(
        s -> {
          Query bound = TextCeiling.bind(s, text); // each term looked up once: see TextCeiling
          List<StoreHit> hits = HitReader.hits(s, ScopedSearch.top(s, bound, scope, k), k);
          return new TextHits(hits, hits.isEmpty() ? 0 : TextCeiling.of(s, bound, scope));
        });
  }

  /** Nearest neighbours by cosine; none before a space is known or for a zero vector. */
  List<StoreHit> vector(Scope scope, Embedding query, int k) {
    EmbeddingSpace space = metadata.space();
    if (space == null) {
      return List.of();
    }
    IndexMetadata.checkDimension(query, space);
    if (query.norm() == 0) {
      return List.of();
    }
    float[] target = IndexSchema.unit(query);
    return searchers.withSearcher(
        s ->
            HitReader.cosineHits(
                s, ScopedSearch.nearest(s, target, scope, k, efSearch, walkers), k));
  }

  /** Latest memories scored by the concepts and files they share with the given sets. */
  List<StoreHit> related(Scope scope, Set<String> concepts, Set<String> files, int k) {
    Query shared = IndexSchema.sharedKeys(concepts, files);
    if (shared == null) {
      return List.of();
    }
    return searchers.withSearcher(s -> HitReader.hits(s, ScopedSearch.top(s, shared, scope, k), k));
  }

  /** The memories around {@code ids} in their sessions; see {@link SessionWindows}. */
  Map<MemoryId, SessionWindow> sessionWindows(Scope scope, Collection<MemoryId> ids, int span) {
    return searchers.withSearcher(s -> SessionWindows.find(s, scope, ids, span));
  }

  /**
   * The best passage cosine of each of {@code ids} that is a latest memory of {@code scope} stored
   * with passages; none before a space is known. See {@link PassageVectors}.
   *
   * @throws IllegalArgumentException if {@code query}'s dimension is not the attached space's
   */
  Map<MemoryId, Double> passageCosines(Scope scope, Collection<MemoryId> ids, Embedding query) {
    EmbeddingSpace space = metadata.space();
    if (space == null) {
      return Map.of();
    }
    IndexMetadata.checkDimension(query, space);
    if (ids.isEmpty()) {
      return Map.of();
    }
    float[] target = IndexSchema.unit(query); // a zero query stays zero: every cosine is 0
    return searchers.withSearcher(s -> PassageVectors.best(s, scope, ids, target, unreadable));
  }

  /** The latest memories of {@code scope} by type; see {@link ListByType}. */
  TypeListing byType(Scope scope, List<MemoryType> types, int limit) {
    return searchers.withSearcher(s -> ListByType.list(s, reader, scope, types, limit));
  }

  long count(Scope scope) {
    return searchers.withSearcher(s -> s.count(ScopedSearch.inScope(scope)));
  }

  List<ForgetRecord> forgotten(Scope scope) {
    return searchers.withSearcher(s -> reader.forgotten(s, scope));
  }

  /** Every readable audit record to {@code sink}; see {@link HitReader#exportForgotten}. */
  long exportForgotten(Consumer<? super ForgetRecord> sink) {
    return searchers.withSearcher(s -> reader.exportForgotten(s, sink));
  }

  /** Every readable memory to {@code sink}; see {@link Export}. */
  ExportResult export(Consumer<? super Memory> sink) {
    ExportResult found = searchers.withSearcher(s -> Export.run(s, reader, sink));
    return new ExportResult(found.exported(), found.unreadable() + unreadable.skippedDocuments());
  }

  /** Every readable memory with its vector to {@code sink}; see {@link Export}. */
  ExportResult exportWithVectors(
      int dimension, BiConsumer<? super Memory, ? super Optional<Embedding>> sink) {
    ExportResult found = searchers.withSearcher(s -> Export.run(s, reader, dimension, sink));
    return new ExportResult(found.exported(), found.unreadable() + unreadable.skippedDocuments());
  }

  int segmentCount() {
    return searchers.withSearcher(s -> s.getIndexReader().leaves().size());
  }

  /** Stops the segment walkers' threads; idempotent. */
  @Override
  public void close() {
    if (walkers != null) {
      walkers.close();
    }
  }
}
