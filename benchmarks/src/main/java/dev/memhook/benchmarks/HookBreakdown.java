package dev.memhook.benchmarks;

import dev.memhook.api.HookOptions;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.Scope;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.core.Memhook;
import dev.memhook.testkit.FakeChatService;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Where the time of one hook callback goes with a real embedder: the parts of {@link
 * HookOverheadBenchmark}'s {@code beforeSendLoop}, each timed alone on the same cached index (the
 * embedder's own vectors of a {@link SyntheticCorpus}): the query embedding, the store calls of the
 * recall engine ({@code searchText} with its score ceiling at depth 50, {@code searchVector} at 50
 * with the model's query vector, {@code getAll} of 5 ids no other call of the part reads), then the
 * whole {@code recall} (limit 3, as the hook asks) and the whole callback on a {@link
 * FakeChatService}. Every call gets a question not asked before (a generated question and a
 * counter), so neither the query-embedding cache nor the record cache hits because of a repeat.
 *
 * <p>Run (the index is the benchmark's; the first run builds it):
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.memhook.benchmarks.HookBreakdown --size 100000 --embedder djl-int8-1t --force-merge
 * </pre>
 *
 * Figures are medians and p99 of {@code --queries} calls (default 300) per part, after a warm-up
 * pass of as many.
 */
public final class HookBreakdown {

  private HookBreakdown() {}

  public static void main(String[] args) {
    StepTimes.main(args, HookBreakdown::run);
  }

  /**
   * Runs with {@code args} as on the command line, printing the table to {@code out}.
   *
   * @throws IllegalArgumentException with the usage, for an unknown argument
   */
  static void run(String[] args, PrintStream out) {
    int size = 100_000;
    int queries = 300;
    String embedderName = "djl-int8-1t";
    BenchStores.Layout layout = BenchStores.Layout.AS_BUILT;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--size" -> size = CommandLine.count(args, ++i);
        case "--queries" -> queries = CommandLine.count(args, ++i);
        case "--embedder" -> embedderName = CommandLine.value(args, ++i);
        case "--force-merge" -> layout = BenchStores.Layout.MERGED;
        case "--settled" -> layout = BenchStores.Layout.SETTLED;
        default ->
            throw new IllegalArgumentException(
                "usage: HookBreakdown [--size N] [--queries N] [--embedder hashing|djl-int8|djl-int8-1t|djl-bge|djl-e5]"
                    + " [--force-merge|--settled]");
      }
    }
    Scope scope = HookOverheadBenchmark.SCOPE;
    Embedder model = BenchEmbedders.create(embedderName);
    SyntheticCorpus corpus =
        SyntheticCorpus.generate(RecallLatencyBenchmark.SEED, size, model.dimension());
    MemoryStore store =
        BenchStores.open(
            BenchStores.Kind.LUCENE,
            corpus,
            scope,
            model.space(),
            new HookOverheadBenchmark.BatchedEmbeddings(model, corpus),
            BenchStores.Settings.DEFAULTS.withLayout(layout));
    HookOptions hookOptions =
        HookOptions.builder().scope(scope).recallTimeout(Duration.ofSeconds(10)).build();
    int depth = RecallOptions.DEFAULT_CANDIDATES_PER_SIGNAL;
    Random random = new Random(99);
    int[] counter = {0};
    // A new question per call: the generated text plus a counter.
    Supplier<String> question =
        () -> corpus.query(random).text() + " (turn " + (++counter[0]) + ")";
    // injection on a fixed corpus, as HookOverheadBenchmark: capture off
    try (MemoryService service =
        Memhook.builder().store(store).embedder(model).noCapture().build()) {
      out.printf(
          Locale.ROOT,
          "%s, embedder %s%s, %d questions per part%n",
          corpus,
          embedderName,
          layout == BenchStores.Layout.AS_BUILT ? "" : ", segments " + layout,
          queries);
      StepTimes.header(out);
      StepTimes.time(out, "embed the question", 0, queries, i -> model.embedQuery(question.get()));
      StepTimes.time(
          out,
          "searchText(k=50, with ceiling)",
          0,
          queries,
          i -> store.searchText(scope, question.get(), depth));
      Embedding[] vectors = new Embedding[2 * queries];
      for (int i = 0; i < vectors.length; i++) {
        vectors[i] = model.embedQuery(question.get());
      }
      StepTimes.time(
          out, "searchVector(k=50)", 0, queries, i -> store.searchVector(scope, vectors[i], depth));
      // Five ids per call that no other call of this part reads.
      List<List<MemoryId>> unread = new ArrayList<>();
      Set<MemoryId> seen = new HashSet<>();
      for (int attempts = 0; unread.size() < 2 * queries; attempts++) {
        if (attempts == 100 * queries) {
          throw new IllegalStateException(
              "the corpus is too small to find "
                  + 2 * queries
                  + " sets of 5 memories not read before; use fewer --queries or a larger --size");
        }
        List<MemoryId> ids = new ArrayList<>(5);
        for (StoreHit hit : store.searchText(scope, question.get(), depth).hits()) {
          if (ids.size() < 5 && seen.add(hit.id())) {
            ids.add(hit.id());
          }
        }
        if (ids.size() == 5) {
          unread.add(ids);
        }
      }
      StepTimes.time(
          out, "getAll(5 ids, not cached)", 0, queries, i -> store.getAll(unread.get(i)));
      StepTimes.time(
          out,
          "recall (limit 3, whole)",
          0,
          queries,
          i -> service.recall(new RecallQuery(scope, question.get(), hookOptions.maxPerMessage())));
      StepTimes.timeNanos(
          out,
          "beforeSendLoop (whole callback)",
          0,
          queries,
          i -> {
            FakeChatService chat = FakeChatService.create();
            MemoryHook hook = service.hookInto(chat, hookOptions);
            try {
              chat.append(ChatMessage.user(question.get()));
              long t0 =
                  System.nanoTime(); // the chat service and hook are set up outside the timing
              chat.fireBeforeSendLoop().toCompletableFuture().join();
              return System.nanoTime() - t0;
            } finally {
              hook.close();
            }
          });
    }
  }
}
