package dev.memhook.benchmarks;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.lucene.LuceneMemoryStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.IntFunction;
import java.util.stream.Stream;

/**
 * Opens the stores the benchmarks compare, filled with a {@link SyntheticCorpus}, fast: records go
 * in with {@link MemoryStore#putAll} in batches of {@value #BATCH} with precomputed embeddings, not
 * one {@code remember} at a time.
 *
 * <p>On-disk indexes are kept between JMH forks and runs under {@code java.io.tmpdir/memhook-bench}
 * (override with {@code -Dmemhook.bench.dir=...}), one directory per store, corpus, vector space
 * and option set, completed by a marker file; {@code -Dmemhook.bench.rebuild=true} forces a
 * rebuild. Building 100,000 memories into an HNSW index takes minutes on a small machine, and every
 * JMH parameter combination runs in its own fork.
 */
public final class BenchStores {

  /** Memories per {@code putAll}. */
  static final int BATCH = 1_000;

  private static final String MARKER = "memhook-bench-complete";

  /** The stores a benchmark can run on, by their {@code @Param} name. */
  public enum Kind {
    /** {@link LuceneMemoryStore} on disk: BM25 and HNSW, the embedded default. */
    LUCENE("lucene"),
    /** {@link LuceneMemoryStore} on a heap directory: the same index, nothing on disk. */
    MEMORY("memory");

    private final String param;

    Kind(String param) {
      this.param = param;
    }

    /** The {@code @Param} value naming this kind. */
    public String param() {
      return param;
    }

    /**
     * The kind named {@code param}.
     *
     * @throws IllegalArgumentException if no kind has that name
     */
    public static Kind of(String param) {
      for (Kind k : values()) {
        if (k.param.equals(param)) {
          return k;
        }
      }
      throw new IllegalArgumentException("unknown store '" + param + "'; known: lucene, memory");
    }
  }

  /** How the segments of a bulk-loaded Lucene index are left before measuring. */
  public enum Layout {
    /** What the store's merge policy left after the bulk load. */
    AS_BUILT("asbuilt"),
    /**
     * As built, then left alone until the store's idle merges ({@link
     * LuceneMemoryStore.Builder#idleMerge}) were done: what a store looks like after a bulk load
     * and a quiet minute.
     */
    SETTLED("settled"),
    /** {@link LuceneMemoryStore#forceMerge(int) Force-merged} into one segment. */
    MERGED("merged"),
    /**
     * Built the way a host builds a store, with the store's defaults (a commit per {@code putAll},
     * its merge policy and idle merges), and left open, without a write, until it has been quiet
     * for {@link IdleSettling#quietBeforeMeasuring()} (a minute) and its merges are done: the store
     * as it leaves itself. Never merged by hand.
     */
    IDLE("idle");

    private final String param;

    Layout(String param) {
      this.param = param;
    }

    /**
     * The layout a benchmark parameter names ({@code asbuilt}, {@code settled}, {@code merged}).
     */
    public static Layout of(String param) {
      for (Layout l : values()) {
        if (l.param.equals(param)) {
          return l;
        }
      }
      throw new IllegalArgumentException(
          "unknown segments '" + param + "'; known: asbuilt, settled, merged, idle");
    }
  }

  /**
   * Store settings that change the index. Stores opened for measuring never merge while idle, so
   * that the layout stays what was asked for during a run.
   *
   * @param quantized scalar-quantize vectors (Lucene only)
   * @param efSearch HNSW candidates per vector search (Lucene only); 0 for the store's default
   * @param layout the segments after the bulk load (Lucene only)
   */
  public record Settings(boolean quantized, int efSearch, Layout layout) {
    /** The store defaults, segments as built. */
    public static final Settings DEFAULTS = new Settings(false, 0, Layout.AS_BUILT);

    /** Settings with segments as built. */
    public Settings(boolean quantized, int efSearch) {
      this(quantized, efSearch, Layout.AS_BUILT);
    }

    /** These settings, force-merged into one segment or as built. */
    public Settings withMerged(boolean merged) {
      return withLayout(merged ? Layout.MERGED : Layout.AS_BUILT);
    }

    /** These settings with {@code layout}. */
    public Settings withLayout(Layout layout) {
      return new Settings(quantized, efSearch, layout);
    }
  }

  private BenchStores() {}

  /**
   * A store of {@code kind} holding every memory of {@code corpus} in {@code scope}, attached to
   * {@code space}, with the embedding of item {@code i} given by {@code embeddings}.
   */
  public static MemoryStore open(
      Kind kind,
      SyntheticCorpus corpus,
      Scope scope,
      EmbeddingSpace space,
      IntFunction<Embedding> embeddings,
      Settings settings) {
    switch (kind) {
      case MEMORY:
        {
          MemoryStore store = LuceneMemoryStore.inMemory();
          fill(store, corpus, scope, space, embeddings);
          return store;
        }
      case LUCENE:
        {
          Path dir = indexDirectory(kind, corpus, scope, space, settings);
          if (!isComplete(dir)) {
            deleteRecursively(dir);
            Path asBuilt =
                settings.layout() != Layout.AS_BUILT
                    ? indexDirectory(
                        kind, corpus, scope, space, settings.withLayout(Layout.AS_BUILT))
                    : null;
            if (settings.layout() == Layout.IDLE) {
              IdleSettling.buildAndLeaveIdle(
                  dir, settings.quantized(), b -> fill(b, corpus, scope, space, embeddings));
            } else if (asBuilt != null && isComplete(asBuilt)) {
              copyIndex(asBuilt, dir); // the same documents: merge a copy rather than index again
            } else {
              try (LuceneMemoryStore building = lucene(dir, settings, true)) {
                fill(building, corpus, scope, space, embeddings);
              }
            }
            if (settings.layout() == Layout.MERGED) {
              try (LuceneMemoryStore merging = lucene(dir, settings, false)) {
                merging.forceMerge(1);
              }
            } else if (settings.layout() == Layout.SETTLED) {
              IdleSettling.settle(dir, settings.quantized());
            }
            markComplete(dir);
          }
          LuceneMemoryStore store = lucene(dir, settings, false);
          store.attach(space);
          long count = store.count(scope);
          if (count != corpus.size()) {
            store.close();
            throw new IllegalStateException(
                "cached index "
                    + dir
                    + " holds "
                    + count
                    + " memories, expected "
                    + corpus.size()
                    + "; rerun with -Dmemhook.bench.rebuild=true");
          }
          return store;
        }
      default:
        throw new AssertionError(kind);
    }
  }

  /**
   * A Lucene store in {@code dir} with {@code settings}. With {@code groupCommit} (1 s), a batched
   * build does not wait on an fsync per batch; {@code close()} commits the rest.
   */
  public static LuceneMemoryStore lucene(Path dir, Settings settings, boolean groupCommit) {
    LuceneMemoryStore.Builder b =
        LuceneMemoryStore.builder()
            .directory(dir)
            .scalarQuantization(settings.quantized())
            .idleMerge(Duration.ZERO);
    if (groupCommit) {
      b.groupCommit(Duration.ofSeconds(1));
    }
    if (settings.efSearch() > 0) {
      b.efSearch(settings.efSearch());
    }
    return b.build();
  }

  /**
   * How many passage vectors each memory of a corpus is stored with ({@link
   * SyntheticCorpus#passages}): the system property {@code memhook.bench.passages}, 0 (none) by
   * default. A kept index with passages has its own directory.
   */
  static int passages() {
    int n = Integer.getInteger("memhook.bench.passages", 0);
    if (n < 0 || n > MemoryStore.MAX_PASSAGES) {
      throw new IllegalArgumentException(
          "memhook.bench.passages must be 0 to " + MemoryStore.MAX_PASSAGES + ", got " + n);
    }
    return n;
  }

  /** Attaches {@code space} and writes the corpus in batches, with {@link #passages()} each. */
  static void fill(
      MemoryStore store,
      SyntheticCorpus corpus,
      Scope scope,
      EmbeddingSpace space,
      IntFunction<Embedding> embeddings) {
    store.attach(space);
    int passages = passages();
    Map<Memory, Embedding> batch = new LinkedHashMap<>();
    Map<MemoryId, List<Embedding>> passagesOfBatch = new LinkedHashMap<>();
    for (int i = 0; i < corpus.size(); i++) {
      Memory m = corpus.memory(i, scope);
      batch.put(m, embeddings.apply(i));
      if (passages > 0) {
        passagesOfBatch.put(m.id(), corpus.passages(i, passages));
      }
      if (batch.size() == BATCH) {
        store.putAll(batch, passagesOfBatch);
        batch.clear();
        passagesOfBatch.clear();
      }
    }
    if (!batch.isEmpty()) {
      store.putAll(batch, passagesOfBatch);
    }
  }

  /** The directory an on-disk index of this configuration is kept in. */
  static Path indexDirectory(
      Kind kind, SyntheticCorpus corpus, Scope scope, EmbeddingSpace space, Settings settings) {
    Path base =
        Path.of(
            System.getProperty(
                "memhook.bench.dir",
                Path.of(System.getProperty("java.io.tmpdir"), "memhook-bench").toString()));
    String name =
        String.format(
                Locale.ROOT,
                "%s-%s-n%d-seed%d-%s-d%d-q%d-g%d-f%s",
                kind.param(),
                scope.value().replace('/', '_'),
                corpus.size(),
                corpus.seed(),
                space.modelId().replaceAll("[^A-Za-z0-9._-]", "_"),
                space.dimension(),
                settings.quantized() ? 1 : 0,
                SyntheticCorpus.GENERATOR_VERSION,
                LuceneMemoryStore.INDEX_FORMAT)
            + (settings.layout() == Layout.AS_BUILT ? "" : "-" + settings.layout().param)
            + (passages() == 0 ? "" : "-p" + passages());
    OptionalDouble limit = IdleSettling.maxSegmentMB();
    if (limit.isPresent()
        && (settings.layout() == Layout.IDLE || settings.layout() == Layout.SETTLED)) {
      // a layout the store's own merges chose depends on their segment limit
      name += String.format(Locale.ROOT, "-max%.0fmb", limit.getAsDouble());
    }
    return base.resolve(name);
  }

  /** Whether {@code dir} holds a completely built index (and no rebuild was asked for). */
  static boolean isComplete(Path dir) {
    return !Boolean.getBoolean("memhook.bench.rebuild") && Files.exists(dir.resolve(MARKER));
  }

  /** Marks {@code dir} as completely built. */
  static void markComplete(Path dir) {
    try {
      Files.writeString(dir.resolve(MARKER), "complete\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Deletes {@code dir} and everything in it, if it exists. */
  public static void deleteRecursively(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not delete " + dir, e);
    }
  }

  /**
   * Copies the index files under {@code from}, with their subdirectories (the record keys), into a
   * new {@code to}, leaving out the lock and this class's completeness marker.
   */
  static void copyIndex(Path from, Path to) {
    try {
      Files.createDirectories(to);
      try (Stream<Path> files = Files.walk(from)) {
        for (Path f : files.toList()) {
          Path target = to.resolve(from.relativize(f).toString());
          if (Files.isDirectory(f)) {
            Files.createDirectories(target);
          } else if (!f.getFileName().toString().equals(MARKER)
              && !f.getFileName().toString().equals("write.lock")) {
            Files.copy(f, target);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not copy the index " + from + " to " + to, e);
    }
  }

  /** The total size of the files under {@code dir}, in bytes. */
  public static long sizeOnDisk(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      return paths
          .filter(Files::isRegularFile)
          .mapToLong(
              p -> {
                try {
                  return Files.size(p);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              })
          .sum();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
