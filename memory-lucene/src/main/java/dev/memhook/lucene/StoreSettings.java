package dev.memhook.lucene;

import dev.memhook.api.IncompatibleStoreException;
import dev.memhook.api.spi.StoreCapability;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What a {@link LuceneMemoryStore.Builder} collects: every setting with its default and its
 * validation, and what the store derives from them. Only the builder extends it, adding {@code
 * build()}; users see these constants and setters as the builder's own (as {@code StringBuilder}
 * shows {@code AbstractStringBuilder}'s), while the store's file keeps to the store.
 *
 * <p>Not thread-safe: a builder.
 */
abstract sealed class StoreSettings permits LuceneMemoryStore.Builder {
  /** Lucene's default HNSW max connections per node; a good trade of recall and memory. */
  public static final int DEFAULT_HNSW_MAX_CONN = 16;

  /** Lucene's default HNSW beam width at build time. */
  public static final int DEFAULT_HNSW_BEAM_WIDTH = 100;

  /**
   * Candidates gathered per vector search before the cut to {@code k}: with the defaults above,
   * enough for the graph search to find nearly all of an exact search's top {@code k} on corpora of
   * memory-store size (measured in benchmarks/RESULTS.md).
   */
  public static final int DEFAULT_EF_SEARCH = 100;

  /**
   * The largest segment natural merges build, in MB of index files. Forgetting rewrites the segment
   * that held the forgotten memory, its vector graph included (see {@code Expunge}), so what one
   * forget costs grows with its segment; a cap keeps it bounded however large the store grows, at
   * the price of more segments for each search to visit once a store is larger than the cap. The
   * figures behind the default are in benchmarks/RESULTS.md.
   */
  public static final double DEFAULT_MAX_SEGMENT_MB = 16;

  /**
   * How long a writable store must see no write before it merges its segments down to as few as
   * {@link #DEFAULT_MAX_SEGMENT_MB maxSegmentMB} allows (see {@code IdleMerges}).
   */
  public static final Duration DEFAULT_IDLE_MERGE = Duration.ofSeconds(30);

  /** Memory records kept decoded in the read cache. */
  public static final long DEFAULT_CACHE_SIZE = 10_000;

  /** Weight of exact-token matches on the unstemmed variants, relative to the field's boost. */
  public static final float DEFAULT_EXACT_WEIGHT = 0.5f;

  /**
   * Weight of whole-query phrase matches on the unstemmed variants, relative to the field's boost:
   * 0, off, because a phrase rarely changes which memories rank first while it adds a positional
   * match to every text search (see benchmarks/RESULTS.md); set a positive weight where queries are
   * often verbatim quotes of stored text.
   */
  public static final float DEFAULT_PHRASE_WEIGHT = 0.0f;

  /** The largest {@link #fieldBoost}. */
  public static final float MAX_FIELD_BOOST = 64f;

  /** Boost of commit-SHA (and 7+ character SHA prefix) matches: rare, deliberate tokens. */
  public static final float DEFAULT_SHA_BOOST = 3.0f;

  private Path path;
  private boolean inMemory;
  private boolean readOnly;
  private Duration groupCommit;
  private long cacheSize = DEFAULT_CACHE_SIZE;
  private int hnswMaxConn = DEFAULT_HNSW_MAX_CONN;
  private int hnswBeamWidth = DEFAULT_HNSW_BEAM_WIDTH;
  private int efSearch = DEFAULT_EF_SEARCH;
  private boolean scalarQuantization;
  private double maxSegmentMB = DEFAULT_MAX_SEGMENT_MB;
  private Duration idleMerge = DEFAULT_IDLE_MERGE;
  private boolean mirror;
  private float exactWeight = DEFAULT_EXACT_WEIGHT;
  private float phraseWeight = DEFAULT_PHRASE_WEIGHT;
  private float shaBoost = DEFAULT_SHA_BOOST;
  private final Map<SearchField, Float> boosts = new EnumMap<>(SearchField.class);

  /** The settings already set on this builder. */
  private final Set<String> set = new HashSet<>();

  StoreSettings() {
    for (SearchField f : SearchField.values()) {
      boosts.put(f, f.defaultBoost());
    }
  }

  /** Keeps the index on disk in {@code path} (created if absent). */
  public LuceneMemoryStore.Builder directory(Path path) {
    checkUnset("where the index lives");
    this.path = Objects.requireNonNull(path, "path");
    return recorded("where the index lives");
  }

  /** Keeps the index in memory: for tests; nothing survives {@link LuceneMemoryStore#close()}. */
  public LuceneMemoryStore.Builder inMemory() {
    checkUnset("where the index lives");
    this.inMemory = true;
    return recorded("where the index lives");
  }

  /**
   * Opens the index read-only: with a reader only, taking no write lock, so it works on a read-only
   * directory or file system and beside a process that has it open for writing (seeing its last
   * commit). Every write ({@code attach} recording a space included) throws {@link
   * IllegalStateException}; reads, searches and {@link LuceneMemoryStore#export} work. If segments
   * of the index are damaged, it opens the segments that are readable and reports the rest (see
   * {@link LuceneMemoryStore#export}): the way to rescue a damaged index. Needs {@link
   * #directory(Path)} holding an index. Default: off.
   */
  public LuceneMemoryStore.Builder readOnly() {
    checkUnset("readOnly");
    this.readOnly = true;
    return recorded("readOnly");
  }

  /**
   * Commits in the background at most {@code interval} after a write instead of before each write
   * returns. Writes stay immediately visible; a crash loses at most the interval's writes. Default:
   * off (commit per write).
   *
   * @throws IllegalArgumentException if {@code interval} is not between 1 ms and 1 minute
   */
  public LuceneMemoryStore.Builder groupCommit(Duration interval) {
    Objects.requireNonNull(interval, "interval");
    checkUnset("groupCommit");
    if (interval.compareTo(Duration.ofMillis(1)) < 0
        || interval.compareTo(Duration.ofMinutes(1)) > 0) {
      throw new IllegalArgumentException(
          "groupCommit interval must be between 1 ms and 1 minute, got " + interval);
    }
    this.groupCommit = interval;
    return recorded("groupCommit");
  }

  /**
   * The most records kept in the read cache; 0 disables it. Default {@value #DEFAULT_CACHE_SIZE}.
   */
  public LuceneMemoryStore.Builder cacheSize(long entries) {
    checkUnset("cacheSize");
    if (entries < 0) {
      throw new IllegalArgumentException("cacheSize must be >= 0, got " + entries);
    }
    this.cacheSize = entries;
    return recorded("cacheSize");
  }

  /** HNSW max connections per node, 2 to 512. Default {@value #DEFAULT_HNSW_MAX_CONN}. */
  public LuceneMemoryStore.Builder hnswMaxConn(int maxConn) {
    checkUnset("hnswMaxConn");
    this.hnswMaxConn = checkRange("hnswMaxConn", maxConn, 2, 512);
    return recorded("hnswMaxConn");
  }

  /** HNSW beam width at build time, 2 to 3200. Default {@value #DEFAULT_HNSW_BEAM_WIDTH}. */
  public LuceneMemoryStore.Builder hnswBeamWidth(int beamWidth) {
    checkUnset("hnswBeamWidth");
    this.hnswBeamWidth = checkRange("hnswBeamWidth", beamWidth, 2, 3200);
    return recorded("hnswBeamWidth");
  }

  /**
   * Candidates gathered per vector search, 1 to 10,000 (more: better recall, slower). Default
   * {@value #DEFAULT_EF_SEARCH}.
   */
  public LuceneMemoryStore.Builder efSearch(int candidates) {
    checkUnset("efSearch");
    this.efSearch = checkRange("efSearch", candidates, 1, 10_000);
    return recorded("efSearch");
  }

  /**
   * Stores vectors scalar-quantized to 7 bits (a byte per dimension instead of a float, slightly
   * lower precision), for large corpora. Affects segments written from now on. Default off.
   */
  public LuceneMemoryStore.Builder scalarQuantization(boolean enabled) {
    checkUnset("scalarQuantization");
    this.scalarQuantization = enabled;
    return recorded("scalarQuantization");
  }

  /**
   * Makes the index a mirror of memories kept elsewhere, such as a shared store's replica in
   * memory: a delete only removes the memories from searches and reads, at once, as Lucene marks
   * documents deleted. It neither rewrites their segments (their bytes stay until a merge rewrites
   * them; see {@link LuceneMemoryStore#delete} for what a store that is not a mirror does) nor
   * keeps forget records ({@link LuceneMemoryStore#forgotten} returns none): erasing and the audit
   * trail are the job of the store the mirror copies. Default: not a mirror.
   */
  public LuceneMemoryStore.Builder mirror() {
    checkUnset("mirror");
    this.mirror = true;
    return recorded("mirror");
  }

  /**
   * The largest segment natural merges build, in MB, from 1 to 5120 (Lucene's own default); see
   * {@link #DEFAULT_MAX_SEGMENT_MB}. An explicit {@code forceMerge} is not capped.
   */
  public LuceneMemoryStore.Builder maxSegmentMB(double mb) {
    checkUnset("maxSegmentMB");
    if (!(mb >= 1 && mb <= 5120)) {
      throw new IllegalArgumentException("maxSegmentMB must be in [1, 5120], got " + mb);
    }
    this.maxSegmentMB = mb;
    return recorded("maxSegmentMB");
  }

  /**
   * How long the store must see no write before it merges its segments into as few of at most
   * {@link #maxSegmentMB} as it can pack them (first-fit decreasing, by Lucene's size estimate):
   * about {@code size / maxSegmentMB} for a large store, one for a small one. Every search visits
   * every segment, so a store that has settled searches faster; the merges run in the background
   * (reads and writes go on), are committed when done, and are aborted by {@link
   * LuceneMemoryStore#close()} (the next quiet period redoes them). Default {@link
   * #DEFAULT_IDLE_MERGE}; {@link Duration#ZERO} turns it off. A read-only store never merges.
   *
   * @throws NullPointerException if {@code delay} is null
   * @throws IllegalArgumentException if {@code delay} is negative or longer than a day
   */
  public LuceneMemoryStore.Builder idleMerge(Duration delay) {
    Objects.requireNonNull(delay, "delay");
    checkUnset("idleMerge");
    if (delay.isNegative() || delay.compareTo(Duration.ofDays(1)) > 0) {
      throw new IllegalArgumentException(
          "idleMerge delay must be between 0 (off) and one day, got " + delay);
    }
    this.idleMerge = delay;
    return recorded("idleMerge");
  }

  /**
   * The weight of {@code field} in text search, in steps of 0.25 (rounded to the nearest); 0 leaves
   * it out. Defaults are on {@link SearchField}. Weights apply when memories are indexed: the index
   * records them, and opening it with other weights throws {@link IncompatibleStoreException}
   * (rebuild the index to change them).
   *
   * @throws IllegalArgumentException if {@code boost} is not 0 and not in [0.25, {@value
   *     #MAX_FIELD_BOOST}]
   */
  public LuceneMemoryStore.Builder fieldBoost(SearchField field, float boost) {
    Objects.requireNonNull(field, "field");
    checkUnset("fieldBoost(" + field + ")");
    if (!(boost == 0 || (boost >= 0.25f && boost <= MAX_FIELD_BOOST))) {
      throw new IllegalArgumentException(
          "fieldBoost("
              + field
              + ") must be 0 or in [0.25, "
              + MAX_FIELD_BOOST
              + "], got "
              + boost);
    }
    this.boosts.put(field, boost);
    return recorded("fieldBoost(" + field + ")");
  }

  /** Weight of exact-token matches (see {@link #DEFAULT_EXACT_WEIGHT}); 0 disables them. */
  public LuceneMemoryStore.Builder exactMatchWeight(float weight) {
    checkUnset("exactMatchWeight");
    this.exactWeight = checkWeight("exactMatchWeight", weight);
    return recorded("exactMatchWeight");
  }

  /** Weight of whole-query phrase matches (see {@link #DEFAULT_PHRASE_WEIGHT}); 0 disables them. */
  public LuceneMemoryStore.Builder phraseWeight(float weight) {
    checkUnset("phraseWeight");
    this.phraseWeight = checkWeight("phraseWeight", weight);
    return recorded("phraseWeight");
  }

  /** Boost of commit-SHA matches (see {@link #DEFAULT_SHA_BOOST}); 0 disables them. */
  public LuceneMemoryStore.Builder shaBoost(float boost) {
    checkUnset("shaBoost");
    this.shaBoost = checkWeight("shaBoost", boost);
    return recorded("shaBoost");
  }

  /**
   * The checks across settings, before the store opens.
   *
   * @throws IllegalStateException if neither a directory nor in-memory was chosen (choosing both
   *     fails at the second setter), or if no text field and no SHA match has weight
   */
  void check() {
    if (path == null && !inMemory) {
      throw new IllegalStateException("choose directory(Path) or inMemory()");
    }
    if (readOnly && path == null) {
      throw new IllegalStateException("readOnly() opens an index on disk: choose directory(Path)");
    }
    if (boosts.values().stream().allMatch(b -> b == 0) && shaBoost == 0) {
      throw new IllegalStateException("every field boost is 0: text search would find nothing");
    }
  }

  /** Whether the index is opened read-only. */
  boolean isReadOnly() {
    return readOnly;
  }

  /** The index directory, or null for an index in memory. */
  Path path() {
    return path;
  }

  /** What error messages call the index: its absolute path, or that it is in memory. */
  String location() {
    return path == null ? "in-memory index" : "index at " + path.toAbsolutePath();
  }

  Set<StoreCapability> capabilities() {
    return path == null
        ? Set.of(StoreCapability.ATOMIC_BATCH)
        : Set.of(StoreCapability.DURABLE, StoreCapability.ATOMIC_BATCH);
  }

  boolean isMirror() {
    return mirror;
  }

  /** The group-commit interval, or null to commit every write. */
  Duration groupCommit() {
    return groupCommit;
  }

  long cacheSize() {
    return cacheSize;
  }

  int hnswMaxConn() {
    return hnswMaxConn;
  }

  int hnswBeamWidth() {
    return hnswBeamWidth;
  }

  int efSearch() {
    return efSearch;
  }

  boolean scalarQuantization() {
    return scalarQuantization;
  }

  double maxSegmentMB() {
    return maxSegmentMB;
  }

  /** The idle time before merging; zero: never. */
  Duration idleMerge() {
    return idleMerge;
  }

  float exactWeight() {
    return exactWeight;
  }

  float phraseWeight() {
    return phraseWeight;
  }

  float shaBoost() {
    return shaBoost;
  }

  /**
   * Each field's weight in {@link IndexSchema#WEIGHT_UNITS}; 0 leaves the field out of text search.
   */
  Map<SearchField, Integer> weightUnits() {
    Map<SearchField, Integer> units = new EnumMap<>(SearchField.class);
    boosts.forEach((f, boost) -> units.put(f, Math.round(boost * IndexSchema.WEIGHT_UNITS)));
    return units;
  }

  /** Each setting may be set once, as in every Memhook builder; a rejected value sets nothing. */
  private void checkUnset(String setting) {
    if (set.contains(setting)) {
      throw new IllegalStateException(
          setting + " was already set on this builder; each setting may be set once");
    }
  }

  private LuceneMemoryStore.Builder recorded(String setting) {
    set.add(setting);
    return (LuceneMemoryStore.Builder) this; // the only subclass (sealed)
  }

  private static int checkRange(String name, int value, int min, int max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          name + " must be in [" + min + ", " + max + "], got " + value);
    }
    return value;
  }

  private static float checkWeight(String name, float value) {
    if (!Float.isFinite(value) || value < 0) {
      throw new IllegalArgumentException(name + " must be finite and >= 0, got " + value);
    }
    return value;
  }
}
