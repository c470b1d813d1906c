package dev.memhook.lucene;

import dev.memhook.api.spi.StoreCapability;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Everything a {@link LuceneMemoryStore.Builder} resolved, as one immutable value: each setting
 * validated (alone in its setter, against the others in the builder's {@code build()}), each
 * default filled in, each mode a flag or an {@link Optional}, never a null; and what the store
 * derives from the settings (what error messages call the index, the capabilities it declares, the
 * field weights in the units the index records). {@link StoreParts#open} and {@link OpenIndex#open}
 * open a store from it. The builder is its one maker, and holds the defaults and the validation;
 * this record keeps only the nullness of its components and the completeness of the weights, which
 * every part relies on.
 *
 * <p>Immutable and thread-safe. Null components are rejected with {@link NullPointerException}.
 *
 * @param directory where the index lives on disk; empty: in memory
 * @param readOnly whether the index is opened with a reader only (then {@code directory} is
 *     present)
 * @param groupCommit the group-commit interval; empty: commit every write
 * @param cacheSize the most records kept in the read cache; 0: no cache
 * @param hnswMaxConn HNSW max connections per node
 * @param hnswBeamWidth HNSW beam width at build time
 * @param efSearch candidates gathered per vector search
 * @param scalarQuantization whether new segments store vectors quantized to 7 bits
 * @param maxSegmentMB the largest segment natural merges build, in MB
 * @param workers the threads that build one merged vector graph, the merge thread included
 * @param idleMerge how long the store must see no write before it merges; zero: never
 * @param purgeDelay how long after a forget the segments that held it are rewritten at the latest;
 *     zero: before the forget returns
 * @param mirror whether the index mirrors memories kept elsewhere (deletes only mark documents
 *     deleted, and no forget records are kept)
 * @param exactWeight the weight of exact-token matches; 0: off
 * @param phraseWeight the weight of whole-query phrase matches; 0: off
 * @param shaBoost the boost of commit-SHA matches; 0: off
 * @param weightUnits each field's weight in {@link IndexSchema#WEIGHT_UNITS}, every field present,
 *     in the fields' order (the order the index records them in); 0 leaves a field out of text
 *     search
 */
record LuceneStoreConfig(
    Optional<Path> directory,
    boolean readOnly,
    Optional<Duration> groupCommit,
    long cacheSize,
    int hnswMaxConn,
    int hnswBeamWidth,
    int efSearch,
    boolean scalarQuantization,
    double maxSegmentMB,
    int workers,
    Duration idleMerge,
    Duration purgeDelay,
    boolean mirror,
    float exactWeight,
    float phraseWeight,
    float shaBoost,
    Map<SearchField, Integer> weightUnits) {

  /**
   * Copies {@code weightUnits} into the fields' order.
   *
   * @throws IllegalArgumentException if {@code weightUnits} lacks a field
   */
  LuceneStoreConfig {
    Objects.requireNonNull(directory, "directory");
    Objects.requireNonNull(groupCommit, "groupCommit");
    Objects.requireNonNull(idleMerge, "idleMerge");
    Objects.requireNonNull(purgeDelay, "purgeDelay");
    Objects.requireNonNull(weightUnits, "weightUnits");
    Map<SearchField, Integer> units = new EnumMap<>(SearchField.class);
    units.putAll(weightUnits);
    if (!units.keySet().equals(EnumSet.allOf(SearchField.class))) {
      throw new IllegalArgumentException("a weight for every field is needed, got " + weightUnits);
    }
    weightUnits = Collections.unmodifiableMap(units);
  }

  /** What error messages call the index: its absolute path, or that it is in memory. */
  String location() {
    return directory.map(p -> "index at " + p.toAbsolutePath()).orElse("in-memory index");
  }

  /** What the store declares: {@link StoreCapability#DURABLE} only for an index on disk. */
  Set<StoreCapability> capabilities() {
    return directory.isPresent()
        ? Set.of(
            StoreCapability.DURABLE, StoreCapability.ATOMIC_BATCH, StoreCapability.PASSAGE_VECTORS)
        : Set.of(StoreCapability.ATOMIC_BATCH, StoreCapability.PASSAGE_VECTORS);
  }
}
