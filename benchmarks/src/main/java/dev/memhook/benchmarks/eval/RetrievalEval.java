package dev.memhook.benchmarks.eval;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Origin;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecallResult;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.benchmarks.BenchEmbedders;
import dev.memhook.benchmarks.Unowned;
import dev.memhook.benchmarks.eval.EvalData.EvalMemory;
import dev.memhook.benchmarks.eval.EvalData.EvalQuery;
import dev.memhook.core.Memhook;
import dev.memhook.core.lucene.LuceneMemoryStore;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Retrieval quality on a JSONL evaluation set (see {@link EvalData}): stores each conversation the
 * way a host would and measures how well recall finds each question's evidence.
 *
 * <h2>What it does</h2>
 *
 * <ol>
 *   <li>Each conversation becomes one {@link Scope} ({@code eval/<conv>}, the id sanitized into a
 *       valid segment). Each memory is stored with {@link MemoryService#remember}, so sanitizing,
 *       title and summary derivation and the embedding text rules apply: content = text, plus
 *       {@code " [shares a photo: <caption>]"} when an image caption is present; source session =
 *       its session; origin = {@code Origin.user(speaker)}; occurredAt = its time parsed by {@link
 *       ConversationTime} (unparseable times are counted and left to "now"); context = the previous
 *       turn of the same session ({@code "speaker: text"}; {@code --no-context} leaves it empty).
 *       The service assigns ids, so the eval id → memory id mapping is kept here.
 *   <li>Every query runs as {@code RecallQuery(scope, question, 10)} against its conversation with
 *       three configurations, all with the relevance gate off ({@code noRelevanceGate()}: the gate
 *       is measured separately) and the session cap as configured: BM25 only ({@code
 *       weights(1,0,0)}), vector only ({@code weights(0,1,0)}) and fused (default weights). It
 *       prints recall@5, recall@10, any@5 and MRR, overall and per category.
 *   <li>The gate: with the gate on (defaults unless {@code --min-cosine}/{@code --min-text} say
 *       otherwise), conversation i's questions run against conversation i+1's scope (the last
 *       against the first): <b>gate precision</b> = the share of these off-topic recalls that
 *       return nothing. On their own conversation: <b>gate cost</b> = among the queries whose
 *       ungated fused top 10 holds at least one relevant memory, the share whose gated top 10 holds
 *       none.
 *   <li>Latency of each fused (ungated) recall, query embedding included (each query text is new to
 *       that service, so its query cache does not hit): median, p99, mean.
 * </ol>
 *
 * Services share one store and one embedder ({@link Unowned}); the relevance options differ.
 *
 * <p>Run:
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.memhook.benchmarks.eval.RetrievalEval \
 *     --data ../shared/eval/locomo-dev.jsonl --embedder djl-int8 --store lucene
 * </pre>
 *
 * Options: {@code --embedder hashing|djl-int8|djl-fp32} (default hashing), {@code --store lucene}
 * (the default and only store: {@code LuceneMemoryStore.inMemory()}, the Lucene index in a RAM
 * directory; retrieval is the same as on disk), {@code --no-session-cap}, {@code --max-per-session
 * N}, {@code --min-cosine X}, {@code --min-text X} (candidate floors), {@code --evidence-cosine X
 * --evidence-text X} (evidence floors), {@code --no-context}.
 */
public final class RetrievalEval {

  /** Results per query. */
  static final int LIMIT = 10;

  /**
   * Command-line options.
   *
   * @param data the JSONL file
   * @param embedder the embedder name
   * @param store the store name
   * @param noSessionCap turn the per-session cap off
   * @param maxPerSession the per-session cap, or 0 for the default
   * @param minCosine the gate's cosine floor, or NaN for the default
   * @param minText the gate's normalised text floor, or NaN for the default
   * @param evidenceCosine the gate's evidence cosine floor, or NaN for the default
   * @param evidenceText the gate's evidence text floor, or NaN for the default
   * @param context store the previous turn of the same session as each memory's context
   */
  public record Options(
      Path data,
      String embedder,
      String store,
      boolean noSessionCap,
      int maxPerSession,
      double minCosine,
      double minText,
      double evidenceCosine,
      double evidenceText,
      boolean context) {

    /**
     * Parses {@code args}.
     *
     * @throws IllegalArgumentException if an option is unknown, lacks its value or is malformed
     */
    public static Options parse(String... args) {
      Path data = null;
      String embedder = "hashing";
      String store = "lucene";
      boolean noCap = false;
      int maxPerSession = 0;
      double minCosine = Double.NaN;
      double minText = Double.NaN;
      double evidenceCosine = Double.NaN;
      double evidenceText = Double.NaN;
      boolean context = true;
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        switch (a) {
          case "--data" -> data = Path.of(value(args, ++i, a));
          case "--embedder" -> embedder = value(args, ++i, a);
          case "--store" -> store = value(args, ++i, a);
          case "--no-session-cap" -> noCap = true;
          case "--max-per-session" -> maxPerSession = Integer.parseInt(value(args, ++i, a));
          case "--min-cosine" -> minCosine = Double.parseDouble(value(args, ++i, a));
          case "--min-text" -> minText = Double.parseDouble(value(args, ++i, a));
          case "--evidence-cosine" -> evidenceCosine = Double.parseDouble(value(args, ++i, a));
          case "--evidence-text" -> evidenceText = Double.parseDouble(value(args, ++i, a));
          case "--no-context" -> context = false;
          default -> throw new IllegalArgumentException("unknown option '" + a + "'\n" + USAGE);
        }
      }
      if (data == null) {
        throw new IllegalArgumentException("--data is required\n" + USAGE);
      }
      if (noCap && maxPerSession > 0) {
        throw new IllegalArgumentException(
            "--no-session-cap and --max-per-session exclude each other");
      }
      if (Double.isNaN(evidenceCosine) != Double.isNaN(evidenceText)) {
        throw new IllegalArgumentException("--evidence-cosine and --evidence-text go together");
      }
      return new Options(
          data,
          embedder,
          store,
          noCap,
          maxPerSession,
          minCosine,
          minText,
          evidenceCosine,
          evidenceText,
          context);
    }

    private static String value(String[] args, int i, String option) {
      if (i >= args.length) {
        throw new IllegalArgumentException(option + " needs a value\n" + USAGE);
      }
      return args[i];
    }

    /** The options every configuration shares: the session cap. */
    RecallOptions.Builder base() {
      RecallOptions.Builder b = RecallOptions.builder();
      if (noSessionCap) {
        b.noSessionCap();
      } else if (maxPerSession > 0) {
        b.maxPerSession(maxPerSession);
      }
      return b;
    }

    /** The gated configuration: defaults plus the floors given. */
    RecallOptions gated() {
      RecallOptions.Builder b = base();
      if (!Double.isNaN(minCosine)) {
        b.minCosine(minCosine);
      }
      if (!Double.isNaN(minText)) {
        b.minTextScore(minText);
      }
      if (!Double.isNaN(evidenceCosine)) {
        b.evidenceFloors(evidenceCosine, evidenceText);
      }
      return b.build();
    }
  }

  static final String USAGE =
      "usage: RetrievalEval --data FILE.jsonl [--embedder hashing|djl-int8|djl-fp32]"
          + " [--store lucene|memory] [--no-session-cap | --max-per-session N] [--min-cosine X] [--min-text X]"
          + " [--evidence-cosine X --evidence-text X] [--no-context]";

  /**
   * What a run measured.
   *
   * @param overall per configuration (text, vector, fused), the metrics over all queries
   * @param perCategory per configuration, the metrics per category name
   * @param gatePrecision the share of off-topic recalls that returned nothing, or NaN
   * @param gateCost the share of on-topic queries whose evidence the gate removed, or NaN
   * @param latencyMillis fused recall latencies, sorted
   */
  public record Report(
      Map<String, Metrics.Sums> overall,
      Map<String, Map<String, Metrics.Sums>> perCategory,
      double gatePrecision,
      double gateCost,
      double[] latencyMillis) {}

  private RetrievalEval() {}

  public static void main(String[] args) throws IOException {
    Options options;
    try {
      options = Options.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    run(options, System.out);
  }

  /** Runs the evaluation and prints its tables to {@code out}. */
  public static Report run(Options options, PrintStream out) throws IOException {
    EvalData data = EvalData.load(options.data());
    Map<String, Scope> scopes = scopes(data.conversations());
    Embedder embedder = BenchEmbedders.create(options.embedder());
    MemoryStore store = openStore(options.store());
    Map<String, RecallOptions> configs = new LinkedHashMap<>();
    configs.put("text", options.base().weights(1, 0, 0).noRelevanceGate().build());
    configs.put("vector", options.base().weights(0, 1, 0).noRelevanceGate().build());
    configs.put("fused", options.base().noRelevanceGate().build());
    configs.put("gated", options.gated());
    Map<String, MemoryService> services = new LinkedHashMap<>();
    try {
      configs.forEach(
          (name, o) ->
              services.put(
                  name,
                  Memhook.builder()
                      .store(Unowned.store(store))
                      .embedder(Unowned.embedder(embedder))
                      .recallOptions(o)
                      .build()));
      out.printf(
          Locale.ROOT,
          "RetrievalEval data=%s embedder=%s store=%s%n",
          options.data(),
          embedder.modelId(),
          options.store());
      long started = System.nanoTime();
      Map<MemoryId, String> evalIds =
          storeAll(data, scopes, services.get("fused"), options.context(), out);
      out.printf(
          Locale.ROOT,
          "stored %d memories of %d conversations in %.1f s; %d queries%n",
          evalIds.size(),
          scopes.size(),
          (System.nanoTime() - started) / 1e9,
          data.queries().size());
      configs.forEach((name, o) -> out.println("config " + name + ": " + o));
      return evaluate(data, scopes, services, configs.get("gated"), evalIds, out);
    } finally {
      services.values().forEach(MemoryService::close);
      store.close();
      embedder.close();
    }
  }

  static MemoryStore openStore(String name) {
    return switch (name) {
      case "lucene" -> LuceneMemoryStore.inMemory();
      default -> throw new IllegalArgumentException("unknown store '" + name + "'; known: lucene");
    };
  }

  /** One valid scope per conversation id, distinct even where sanitized ids collide. */
  static Map<String, Scope> scopes(List<String> conversations) {
    Map<String, Scope> out = new LinkedHashMap<>();
    Set<String> used = new HashSet<>();
    for (String conv : conversations) {
      String segment = sanitizeSegment(conv);
      String unique = segment;
      for (int n = 2; !used.add(unique); n++) {
        String suffix = "-" + n;
        unique = segment.substring(0, Math.min(segment.length(), 64 - suffix.length())) + suffix;
      }
      out.put(conv, Scope.of("eval", unique));
    }
    return out;
  }

  /**
   * {@code id} as a scope segment: characters outside {@code [A-Za-z0-9._@+-]} become '_', at most
   * 64.
   */
  static String sanitizeSegment(String id) {
    String s = id.replaceAll("[^A-Za-z0-9._@+-]", "_");
    if (s.isEmpty()) {
      s = "_";
    }
    return s.length() > 64 ? s.substring(0, 64) : s;
  }

  /** The content a host would store for {@code m}: its text and, if any, its image caption. */
  static String content(EvalMemory m) {
    String text = m.text().strip();
    if (m.imageCaption() == null || m.imageCaption().isBlank()) {
      return text;
    }
    String photo = "[shares a photo: " + m.imageCaption().strip() + "]";
    return text.isEmpty() ? photo : text + " " + photo;
  }

  /**
   * The context a host would store with {@code m}: the previous turn of the same conversation and
   * session ("speaker: text"), cut to {@link Memory#MAX_CONTEXT}; empty for a session's first turn.
   */
  static String context(EvalMemory previous, EvalMemory m) {
    if (previous == null
        || !previous.conv().equals(m.conv())
        || !java.util.Objects.equals(previous.session(), m.session())) {
      return "";
    }
    String text = (previous.speaker() == null ? "" : previous.speaker() + ": ") + content(previous);
    return text.length() > Memory.MAX_CONTEXT ? text.substring(0, Memory.MAX_CONTEXT) : text;
  }

  private static Map<MemoryId, String> storeAll(
      EvalData data,
      Map<String, Scope> scopes,
      MemoryService service,
      boolean withContext,
      PrintStream out) {
    Map<MemoryId, String> evalIds = new HashMap<>();
    int badTimes = 0;
    int skipped = 0;
    EvalMemory previous = null;
    for (EvalMemory m : data.memories()) {
      String content = content(m);
      if (content.isBlank()) {
        skipped++;
        continue;
      }
      String context = withContext ? context(previous, m) : "";
      previous = m;
      Instant at = null;
      if (m.time() != null) {
        Optional<Instant> parsed = ConversationTime.parse(m.time());
        if (parsed.isPresent()) {
          at = parsed.get();
        } else {
          badTimes++;
        }
      }
      MemoryDraft draft =
          MemoryDraft.builder(scopes.get(m.conv()), content)
              .sourceSession(m.session() == null || m.session().isBlank() ? null : m.session())
              .origin(
                  m.speaker() == null || m.speaker().isBlank()
                      ? Origin.user()
                      : Origin.user(m.speaker()))
              .occurredAt(at)
              .context(context)
              .build();
      Memory stored = service.remember(draft);
      evalIds.put(stored.id(), m.id());
    }
    if (badTimes > 0 || skipped > 0) {
      out.printf(
          Locale.ROOT,
          "note: %d memories had an unparseable time (stored as now); %d empty memories skipped%n",
          badTimes,
          skipped);
    }
    return evalIds;
  }

  private static Report evaluate(
      EvalData data,
      Map<String, Scope> scopes,
      Map<String, MemoryService> services,
      RecallOptions gatedOptions,
      Map<MemoryId, String> evalIds,
      PrintStream out) {
    Map<String, Metrics.Sums> overall = new LinkedHashMap<>();
    Map<String, Map<String, Metrics.Sums>> perCategory = new LinkedHashMap<>();
    Map<String, List<String>> fusedTop = new HashMap<>();
    Map<String, String> categoryNames = new TreeMap<>();
    double[] latencies = new double[data.queries().size()];
    for (String config : List.of("text", "vector", "fused")) {
      MemoryService service = services.get(config);
      Metrics.Sums all = new Metrics.Sums();
      Map<String, Metrics.Sums> byCategory = new TreeMap<>();
      int qi = 0;
      for (EvalQuery q : data.queries()) {
        long t0 = System.nanoTime();
        RecallResult r = service.recall(new RecallQuery(scopes.get(q.conv()), q.text(), LIMIT));
        long t1 = System.nanoTime();
        List<String> ranked = ranked(r, evalIds);
        all.add(ranked, q.relevant());
        String category = q.category() + " " + q.categoryName();
        categoryNames.put(category, category);
        byCategory.computeIfAbsent(category, c -> new Metrics.Sums()).add(ranked, q.relevant());
        if (config.equals("fused")) {
          latencies[qi] = (t1 - t0) / 1e6;
          fusedTop.put(q.id(), ranked);
        }
        qi++;
      }
      overall.put(config, all);
      perCategory.put(config, byCategory);
    }
    Arrays.sort(latencies);

    out.println();
    out.println("Retrieval quality (gate off), recall limit " + LIMIT + ":");
    out.println();
    out.println("| config | queries | recall@5 | recall@10 | any@5 | MRR |");
    out.println("|---|---|---|---|---|---|");
    overall.forEach((config, s) -> out.println(row(config + " / overall", s)));
    for (String category : categoryNames.keySet()) {
      for (String config : overall.keySet()) {
        out.println(row(config + " / " + category, perCategory.get(config).get(category)));
      }
    }

    // the gate: off-topic recalls should come back empty; on-topic evidence should survive
    MemoryService gated = services.get("gated");
    List<String> convs = new ArrayList<>(scopes.keySet());
    int offTopic = 0;
    int offTopicEmpty = 0;
    int withEvidence = 0;
    int evidenceLost = 0;
    int onTopicEmpty = 0;
    for (EvalQuery q : data.queries()) {
      if (convs.size() > 1) {
        String other = convs.get((convs.indexOf(q.conv()) + 1) % convs.size());
        offTopic++;
        if (gated
            .recall(new RecallQuery(scopes.get(other), q.text(), LIMIT))
            .memories()
            .isEmpty()) {
          offTopicEmpty++;
        }
      }
      List<String> gatedTop =
          ranked(gated.recall(new RecallQuery(scopes.get(q.conv()), q.text(), LIMIT)), evalIds);
      if (gatedTop.isEmpty()) {
        onTopicEmpty++;
      }
      if (Metrics.anyAt(LIMIT, fusedTop.get(q.id()), q.relevant()) > 0) {
        withEvidence++;
        if (Metrics.anyAt(LIMIT, gatedTop, q.relevant()) == 0) {
          evidenceLost++;
        }
      }
    }
    double precision = offTopic == 0 ? Double.NaN : (double) offTopicEmpty / offTopic;
    double cost = withEvidence == 0 ? Double.NaN : (double) evidenceLost / withEvidence;
    out.println();
    out.println("Relevance gate (" + gatedOptions + "):");
    out.println(
        "  gate precision = share of off-topic recalls (conversation i's questions against conversation"
            + " i+1's memories) that return nothing");
    out.println(
        "  gate cost = among on-topic queries whose ungated fused top "
            + LIMIT
            + " holds >= 1 relevant memory,"
            + " the share whose gated top "
            + LIMIT
            + " holds none");
    if (offTopic == 0) {
      out.println("  gate precision: n/a (one conversation)");
    } else {
      out.printf(
          Locale.ROOT,
          "  gate precision: %d of %d off-topic recalls empty = %.3f%n",
          offTopicEmpty,
          offTopic,
          precision);
    }
    out.printf(
        Locale.ROOT,
        "  gate cost: %d of %d on-topic queries lost all evidence = %.3f%n",
        evidenceLost,
        withEvidence,
        cost);
    out.printf(
        Locale.ROOT,
        "  on-topic recalls that returned nothing with the gate: %d of %d%n",
        onTopicEmpty,
        data.queries().size());
    out.println();
    out.printf(
        Locale.ROOT,
        "Fused recall latency per query (query embedding included), %d queries:"
            + " median %.2f ms, p99 %.2f ms, mean %.2f ms%n",
        latencies.length,
        percentile(latencies, 0.5),
        percentile(latencies, 0.99),
        Arrays.stream(latencies).average().orElse(0));
    return new Report(overall, perCategory, precision, cost, latencies);
  }

  private static List<String> ranked(RecallResult r, Map<MemoryId, String> evalIds) {
    List<String> out = new ArrayList<>(r.memories().size());
    r.ids().forEach(id -> out.add(evalIds.getOrDefault(id, id.value())));
    return out;
  }

  private static String row(String label, Metrics.Sums s) {
    return String.format(
        Locale.ROOT,
        "| %s | %d | %.3f | %.3f | %.3f | %.3f |",
        label,
        s.queries(),
        s.recall5(),
        s.recall10(),
        s.any5(),
        s.mrr());
  }

  /** The nearest-rank percentile of sorted {@code values}; 0 when empty. */
  static double percentile(double[] sorted, double p) {
    if (sorted.length == 0) {
      return 0;
    }
    int rank = (int) Math.ceil(p * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }
}
