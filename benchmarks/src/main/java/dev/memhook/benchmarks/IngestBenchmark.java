package dev.memhook.benchmarks;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Origin;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.core.Memhook;
import dev.memhook.lucene.LuceneMemoryStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@link MemoryService#remember} throughput, in memories per second, one caller thread: sanitize,
 * derive title and summary, embed, write. Each call stores a new memory with new text (a generated
 * developer-chat line plus a counter), so nothing is cached; the store grows through the run.
 *
 * <p>Stores: {@code lucene} (on disk, commit per write), {@code lucene-group} (on disk, group
 * commit every second) and {@code memory} ({@link LuceneMemoryStore} on a heap directory).
 * Embedders: {@code hashing} and {@code djl-int8}.
 *
 * <p>Checks itself: the teardown reads back the last memory written and fails if it is missing.
 * Index size on disk and heap per 100,000 memories are measured by {@link FootprintReport}.
 *
 * <p>Run:
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar IngestBenchmark -f 1 -wi 2 -w 2s -i 3 -r 3s
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(org.openjdk.jmh.annotations.Scope.Benchmark)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx6g", "-Dai.djl.offline=true"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class IngestBenchmark {

  static final Scope SCOPE = Scope.of("bench", "ingest");
  static final int TEXTS = 4_096;

  @Param({"hashing", "djl-int8"})
  public String embedder;

  /**
   * {@code lucene}: on disk, commit (fsync) per write, the default durability; {@code
   * lucene-group}: on disk, group commit every second; {@code memory}: in memory.
   */
  @Param({"lucene", "lucene-group", "memory"})
  public String store;

  private MemoryService service;
  private Path directory;
  private List<SyntheticCorpus.Item> items;
  private long next;
  private Memory last;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    items = SyntheticCorpus.generate(5, TEXTS, 8).items();
    directory = Files.createTempDirectory("memhook-ingest-");
    Embedder model = BenchEmbedders.create(embedder);
    try {
      service = Memhook.builder().store(newStore(store, directory)).embedder(model).build();
    } catch (RuntimeException e) {
      model.close();
      throw e;
    }
  }

  /** An empty store of the named kind, on disk in {@code directory} where it has one. */
  static MemoryStore newStore(String name, Path directory) {
    return switch (name) {
      case "memory" -> LuceneMemoryStore.inMemory();
      case "lucene" -> LuceneMemoryStore.builder().directory(directory).build();
      case "lucene-group" ->
          LuceneMemoryStore.builder()
              .directory(directory)
              .groupCommit(Duration.ofSeconds(1))
              .build();
      default -> throw new IllegalArgumentException("unknown store '" + name + "'");
    };
  }

  @Benchmark
  public Memory remember() {
    long n = next++;
    SyntheticCorpus.Item item = items.get((int) (n % TEXTS));
    last =
        service.remember(
            MemoryDraft.builder(SCOPE, item.text() + " (note " + n + ")")
                .sourceSession(item.session())
                .origin(Origin.user(item.speaker()))
                .build());
    return last;
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    try {
      if (last != null && service.get(last.id()).isEmpty()) {
        throw new IllegalStateException(
            "the last remembered memory " + last.id() + " cannot be read back");
      }
      System.out.printf(
          Locale.ROOT,
          "%n[ingest] embedder=%s store=%s: %d memories written%n",
          embedder,
          store,
          next);
    } finally {
      if (service != null) {
        service.close();
      }
      if (directory != null) {
        BenchStores.deleteRecursively(directory);
      }
    }
  }
}
