package dev.memhook.benchmarks;

import dev.memhook.api.HookOptions;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.core.Memhook;
import dev.memhook.testkit.FakeChatService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
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
 * The whole {@code beforeSendLoop} of a hook on a {@link FakeChatService}: scan the new user
 * message, embed it, recall (default {@code RecallOptions}), drop ids already injected and inject
 * one batched {@code get_memory} call. One invocation = one fired callback, joined.
 *
 * <p>Each invocation gets a fresh chat service and a fresh hook (made in an invocation-level setup,
 * not measured) holding one NEW user message with new text (a generated question plus a turn
 * number), so the hook always has something to scan, the injected-id set never grows across
 * invocations, and the service's query-embedding cache never hits: the model cost is in every
 * sample. The recall timeout is 10 s so a timeout cannot hide latency.
 *
 * <p>Embedders: {@code hashing} ({@link dev.memhook.core.HashingEmbedder}) and {@code djl-int8}
 * (the bundled int8 MiniLM, ONNX Runtime's default threads); {@code djl-int8-1t} is the same model
 * with one ONNX Runtime thread per call, which is what {@code Memhook.builder()} uses by default
 * (it shares {@code djl-int8}'s cached index: same model id). Either way the corpus vectors are
 * that embedder's own embeddings of the memories (what the service would have stored), computed in
 * batches when the index is first built and cached with it, and the query is embedded by the same
 * embedder on every invocation: stored vectors from another source than the query's would make
 * every question unlike every memory, which is not what a host's HNSW search sees.
 *
 * <p>Checks itself: the trial teardown prints the share of invocations that injected and fails if
 * none did.
 *
 * <p>Run:
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar HookOverheadBenchmark -f 1 -wi 2 -w 2s -i 3 -r 3s
 * </pre>
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(org.openjdk.jmh.annotations.Scope.Benchmark)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx6g", "-Dai.djl.offline=true"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class HookOverheadBenchmark {

  /**
   * The scope; its name also names the cached index ("embedded": vectors from the embedder itself).
   */
  static final Scope SCOPE = Scope.of("bench", "hook-embedded");

  @Param({"10000", "100000"})
  public int size;

  @Param({"hashing", "djl-int8-1t", "djl-int8"})
  public String embedder;

  /** {@code lucene} (the default store); {@code memory} with {@code -p store=memory}. */
  @Param({"lucene"})
  public String store;

  /**
   * Where the hook's recall runs: {@code pool} (the service's default executor, a pool thread) or
   * {@code caller} (a direct executor: the thread that fires the callback). Either way the recall
   * embeds the question, then searches.
   */
  @Param({"pool"})
  public String executor;

  /**
   * Lucene segments: {@code asbuilt}, {@code settled} or {@code merged} (see {@link
   * RecallLatencyBenchmark#segments}).
   */
  @Param({"asbuilt"})
  public String segments;

  private MemoryService service;
  private SyntheticCorpus corpus;
  private HookOptions hookOptions;
  private final Random random = new Random(99);
  private long turn;
  private FakeChatService chat;
  private MemoryHook hook;
  private long invocations;
  private long injected;

  @Setup(Level.Trial)
  public void setUp() {
    Embedder model = BenchEmbedders.create(embedder);
    try {
      corpus = SyntheticCorpus.generate(RecallLatencyBenchmark.SEED, size, model.dimension());
      IntFunction<Embedding> vectors = new BatchedEmbeddings(model, corpus);
      MemoryStore memoryStore =
          BenchStores.open(
              BenchStores.Kind.of(store),
              corpus,
              SCOPE,
              model.space(),
              vectors,
              BenchStores.Settings.DEFAULTS.withLayout(BenchStores.Layout.of(segments)));
      // what recall and injection cost on a fixed corpus: capture would add each invocation's
      // user message to the cached index
      Memhook.Builder builder = Memhook.builder().store(memoryStore).embedder(model).noCapture();
      switch (executor) {
        case "pool" -> {}
        case "caller" -> builder.executor(Runnable::run);
        default ->
            throw new IllegalArgumentException(
                "unknown executor '" + executor + "'; known: pool, caller");
      }
      service = builder.build();
    } catch (RuntimeException e) {
      model.close();
      throw e;
    }
    hookOptions = HookOptions.builder().scope(SCOPE).recallTimeout(Duration.ofSeconds(10)).build();
  }

  /**
   * The embedder's vector of corpus item {@code i}, for the sequential fill of an index: computed
   * {@value #BATCH} at a time with {@link Embedder#embedAll}. The text is the one the service
   * embeds for a memory: "speaker: content" (the title is a prefix of the content).
   */
  static final class BatchedEmbeddings implements IntFunction<Embedding> {
    static final int BATCH = 256;
    private final Embedder model;
    private final SyntheticCorpus corpus;
    private List<Embedding> batch = List.of();
    private int start = -1;

    BatchedEmbeddings(Embedder model, SyntheticCorpus corpus) {
      this.model = model;
      this.corpus = corpus;
    }

    @Override
    public Embedding apply(int i) {
      if (start < 0 || i < start || i >= start + batch.size()) {
        start = i - i % BATCH;
        List<String> texts = new ArrayList<>(BATCH);
        for (int j = start; j < Math.min(corpus.size(), start + BATCH); j++) {
          SyntheticCorpus.Item item = corpus.items().get(j);
          texts.add(item.speaker() + ": " + item.text());
        }
        batch = model.embedDocuments(texts);
      }
      return batch.get(i - start);
    }
  }

  /** A fresh chat service and hook, holding one new user message. */
  @Setup(Level.Invocation)
  public void newTurn() {
    chat = FakeChatService.create();
    hook = service.hookInto(chat, hookOptions);
    chat.append(ChatMessage.user(corpus.query(random).text() + " (turn " + (++turn) + ")"));
  }

  @Benchmark
  public FakeChatService beforeSendLoop() {
    chat.fireBeforeSendLoop().toCompletableFuture().join();
    return chat;
  }

  @TearDown(Level.Invocation)
  public void endTurn() {
    invocations++;
    if (!chat.queued().isEmpty()) {
      injected++;
    }
    hook.close();
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    System.out.printf(
        Locale.ROOT,
        "%n[hook] embedder=%s size=%d store=%s: %d of %d turns injected (%.1f%%)%n",
        embedder,
        size,
        store,
        injected,
        invocations,
        invocations == 0 ? 0.0 : 100.0 * injected / invocations);
    if (service != null) {
      service.close();
    }
    if (invocations > 0 && injected == 0) {
      throw new IllegalStateException("no turn injected anything: the hook is not recalling");
    }
  }
}
