package dev.memhook.benchmarks.postgres;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Origin;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.benchmarks.SyntheticCorpus;
import dev.memhook.postgres.PostgresMemoryStore;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * Part (b) of {@link SharedPostgresBench}: how long after {@code put} returns on store instance A a
 * search finds the memory, on another instance B (two pools, as two JVMs) and, for reference, on A
 * itself. Each probe is a memory with a word no other memory holds and a random vector; after its
 * {@code put} returns, the searching instance runs {@code searchText} for the word (or {@code
 * searchVector} for the vector), top 1, in a tight loop until the probe's id comes back. The delay
 * is from {@code put} returning to that search returning, so it includes one search's own latency;
 * an instance that serves its own writes at once shows about that.
 *
 * <p>The probes go into a scope that already holds {@code background} memories of the synthetic
 * corpus, so a search has a realistic scope to rank and a replica has one to keep. Every probe must
 * be found within {@link #PROBE_DEADLINE}, or the run fails naming it.
 */
final class VisibilityDelay {
  /** How long one probe may stay invisible before the run fails. */
  static final Duration PROBE_DEADLINE = Duration.ofSeconds(30);

  /** Probes per row before measuring. */
  private static final int WARM_UP = 20;

  private static final int DIMENSION = 384;

  /** Consonants only: a word of them has no vowel for a stemmer to cut, so it is indexed whole. */
  private static final String LETTERS = "bcdfghjklmnpqrtvwxz";

  private static final Scope SCOPE = Scope.of("bench", "visibility");
  private static final Instant AT = Instant.parse("2025-01-06T09:00:00Z");

  /**
   * One measured row.
   *
   * @param writtenOn the instance that wrote
   * @param searchedOn the instance that searched
   * @param search {@code text} or {@code vector}
   * @param delay from {@code put} returning to the search that found the probe returning
   * @param maxSearches the most searches one probe needed
   */
  record Row(
      String writtenOn, String searchedOn, String search, Latencies delay, int maxSearches) {}

  private enum Search {
    TEXT,
    VECTOR
  }

  private VisibilityDelay() {}

  static List<Row> run(BenchDatabase db, int probes, int background, PrintStream progress) {
    String schema = db.newSchema("visibility");
    EmbeddingSpace space = new EmbeddingSpace("bench-visibility-d" + DIMENSION, DIMENSION);
    try (PostgresMemoryStore a = open(db, "visibility-a", schema, space);
        PostgresMemoryStore b = open(db, "visibility-b", schema, space)) {
      fill(a, background);
      Random random = new Random(42);
      Map<String, MemoryStore> searchers = new LinkedHashMap<>();
      searchers.put("B", b);
      searchers.put("A", a);
      List<Row> rows = new ArrayList<>();
      int serial = 0;
      for (Map.Entry<String, MemoryStore> on : searchers.entrySet()) {
        for (Search search : Search.values()) {
          progress.printf(
              "(b) A -> %s, %s ...%n", on.getKey(), search.name().toLowerCase(Locale.ROOT));
          for (int i = 0; i < WARM_UP; i++) {
            probe(a, on.getValue(), search, serial++, random);
          }
          long[] nanos = new long[probes];
          int maxSearches = 0;
          for (int i = 0; i < probes; i++) {
            long[] delayAndSearches = probe(a, on.getValue(), search, serial++, random);
            nanos[i] = delayAndSearches[0];
            maxSearches = (int) Math.max(maxSearches, delayAndSearches[1]);
          }
          rows.add(
              new Row(
                  "A",
                  on.getKey(),
                  search.name().toLowerCase(Locale.ROOT),
                  Latencies.ofNanos(nanos),
                  maxSearches));
        }
      }
      return rows;
    }
  }

  private static PostgresMemoryStore open(
      BenchDatabase db, String name, String schema, EmbeddingSpace space) {
    PostgresMemoryStore store =
        PostgresMemoryStore.builder().dataSource(db.pool(name, 2)).schema(schema).build();
    store.attach(space);
    return store;
  }

  private static void fill(MemoryStore store, int background) {
    if (background == 0) {
      return;
    }
    SyntheticCorpus corpus = SyntheticCorpus.generate(42, background, DIMENSION);
    Map<Memory, Embedding> batch = new LinkedHashMap<>();
    for (int i = 0; i < background; i++) {
      batch.put(corpus.memory(i, SCOPE), corpus.embedding(i));
      if (batch.size() == 1_000 || i == background - 1) {
        store.putAll(batch);
        batch.clear();
      }
    }
  }

  /** Writes probe {@code serial} on {@code writer}; its delay in nanoseconds and the searches. */
  private static long[] probe(
      MemoryStore writer, MemoryStore searcher, Search search, int serial, Random random) {
    String word = word(serial);
    MemoryId id = MemoryId.of("probe-" + serial);
    Embedding vector = randomUnit(random);
    writer.put(memory(id, "visibility probe " + word), vector);
    long written = System.nanoTime();
    long deadline = written + PROBE_DEADLINE.toNanos();
    for (long searches = 1; ; searches++) {
      List<StoreHit> hits =
          search == Search.TEXT
              ? searcher.searchText(SCOPE, word, 1).hits()
              : searcher.searchVector(SCOPE, vector, 1);
      long now = System.nanoTime();
      if (!hits.isEmpty() && hits.get(0).id().equals(id)) {
        return new long[] {now - written, searches};
      }
      if (now - deadline > 0) {
        throw new IllegalStateException(
            "probe "
                + id.value()
                + " written on A was not found by "
                + search.name().toLowerCase(Locale.ROOT)
                + " search after "
                + PROBE_DEADLINE
                + " ("
                + searches
                + " searches; last top hit "
                + hits
                + ")");
      }
    }
  }

  /** A word of {@link #LETTERS} unique to {@code serial}, the same length for every serial. */
  private static String word(int serial) {
    StringBuilder sb = new StringBuilder("qv");
    int rest = serial;
    for (int i = 0; i < 5; i++) {
      sb.append(LETTERS.charAt(rest % LETTERS.length()));
      rest /= LETTERS.length();
    }
    return sb.toString();
  }

  private static Embedding randomUnit(Random random) {
    float[] v = new float[DIMENSION];
    double sum = 0;
    for (int i = 0; i < DIMENSION; i++) {
      v[i] = (float) random.nextGaussian();
      sum += v[i] * v[i];
    }
    float norm = (float) Math.sqrt(sum);
    for (int i = 0; i < DIMENSION; i++) {
      v[i] /= norm;
    }
    return Embedding.of(v);
  }

  private static Memory memory(MemoryId id, String text) {
    return Memory.builder()
        .id(id)
        .type(MemoryType.OBSERVATION)
        .title(text)
        .summary(text)
        .content(text)
        .scope(SCOPE)
        .origin(Origin.user("bench"))
        .occurredAt(AT)
        .createdAt(AT)
        .build();
  }
}
