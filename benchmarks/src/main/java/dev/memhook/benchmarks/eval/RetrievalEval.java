package dev.memhook.benchmarks.eval;

import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.benchmarks.BenchEmbedders;
import dev.memhook.benchmarks.CommandLine;
import dev.memhook.benchmarks.Unowned;
import dev.memhook.core.Memhook;
import dev.memhook.lucene.LuceneMemoryStore;
import dev.memhook.postgres.TextSearch;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

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
 *   <li>Every query runs as {@code RecallQuery(scope, question, 10, asOf)} against its conversation
 *       with three configurations, all with the relevance gate off ({@code noRelevanceGate()}: the
 *       gate is measured separately) and the session cap as configured: BM25 only ({@code
 *       weights(1,0,0)}), vector only ({@code weights(0,1,0)}) and fused (default weights). It
 *       prints recall@5, recall@10, any@5 and MRR, overall and per category, and beside them
 *       session recall@5/@10 and session any@5/@10, read from the same recall taken {@link
 *       #SESSION_DEPTH} deep (see {@link Metrics} and {@link EvalSessions}). {@code asOf}, what the
 *       question's time words count from, is the query's {@code time} when it has one, else the
 *       latest memory time of its conversation (EvalRecalls.AskedAt).
 *   <li>The gate: with the gate on (defaults unless {@code --min-cosine}/{@code --min-text} say
 *       otherwise), conversation i's questions run against conversation i+1's scope (the last
 *       against the first), and each question no memory answers (empty {@code relevant}) against
 *       its own: <b>gate precision</b> = the share of these off-topic recalls that return nothing.
 *       On their own conversation: <b>gate cost</b> = among the queries whose ungated fused top 10
 *       holds at least one relevant memory, the share whose gated top 10 holds none.
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
 *     --data /path/to/locomo-dev.jsonl --embedder djl-int8 --store lucene
 * </pre>
 *
 * Options: {@code --embedder hashing|djl-int8|djl-fp32|djl-bge|djl-e5} (default hashing), {@code
 * --store lucene|lucene-per-scope|postgres|postgres-text-in-db} ({@code lucene}, the default: one
 * {@code LuceneMemoryStore.inMemory()}, the Lucene index in a RAM directory, retrieval the same as
 * on disk; {@code lucene-per-scope}: one such index per conversation ({@link ScopeRoutedStore}), so
 * term statistics are not shared across unrelated conversations; {@code postgres}: a {@code
 * PostgresMemoryStore} in a fresh schema of the database in {@code MEMHOOK_EVAL_POSTGRES_URL}, see
 * {@link PostgresEvalStore}, searching in its local replicas; {@code postgres-text-in-db}: the same
 * with text and related searches in PostgreSQL), {@code --no-session-cap}, {@code --max-per-session
 * N}, {@code --min-cosine X}, {@code --min-text X} (candidate floors), {@code --evidence-cosine X
 * --evidence-text X} (evidence floors), {@code --no-context}, {@code --ingest remember|capture}
 * (default remember; capture observes each memory as a prompt, see {@link EvalCapture}), {@code
 * --unnamed-speakers} (store every memory as {@code Origin.user()} with a {@code "user: "} context:
 * remember as a host that does not know names would; capture without the event's {@code speaker}),
 * to separate what the speaker name is worth from what the capture path changes; {@code
 * --distractors N} adds N generated memories to each conversation before the queries run ({@link
 * CodingDistractors}, seed {@code --distractor-seed S}, default 42).
 *
 * <p>A query whose {@code relevant} list is empty is a question no memory answers: it is left out
 * of the quality tables and counted by the gate, where anything it returns is a false injection.
 *
 * <p>This class wires the run; {@link OptionsParser} reads the command line, {@link EvalIngest}
 * stores the data, {@link EvalRecalls} measures and {@link EvalReportPrinter} prints.
 */
public final class RetrievalEval {

  /** Results per query. */
  static final int LIMIT = 10;

  /**
   * How deep the ranking the session metrics read goes: deep enough to hold ten distinct sessions
   * in nearly every query, and no deeper than the candidates fusion reads per signal by default, so
   * that the ranking is the {@link #LIMIT} recall's, continued.
   */
  static final int SESSION_DEPTH = RecallOptions.DEFAULT_CANDIDATES_PER_SIGNAL;

  /** Hits per signal in a {@code --dump}: the fusion's default candidate depth. */
  static final int DUMP_DEPTH = 50;

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
   * @param ingest how the memories are stored
   * @param namedSpeakers store each memory's speaker as its origin's name (remember only)
   * @param distractors generated memories added to each conversation ({@link CodingDistractors})
   * @param distractorSeed the generator's seed
   * @param dump where to write each query's raw signal lists ({@link EvalDump}), or null
   * @param trace where to write what each measured recall returned and why ({@link EvalTrace}), or
   *     null
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
      boolean context,
      Ingest ingest,
      boolean namedSpeakers,
      int distractors,
      long distractorSeed,
      Path dump,
      Path trace) {

    /** Requires the ingest mode. */
    public Options {
      Objects.requireNonNull(ingest, "ingest");
    }

    /**
     * Parses {@code args}.
     *
     * @throws IllegalArgumentException if an option is unknown, lacks its value or is malformed
     */
    public static Options parse(String... args) {
      return OptionsParser.parse(args);
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

  /** How the harness stores the memories. */
  public enum Ingest {
    /** One {@link MemoryService#remember} per memory, every field set by the harness. */
    REMEMBER,
    /**
     * One {@code PROMPT_SUBMIT} event per memory through {@link
     * dev.memhook.api.capture.MemoryCapture#observe}.
     */
    CAPTURE
  }

  /**
   * What a run measured.
   *
   * @param overall per configuration (text, vector, fused), the metrics over all queries
   * @param perCategory per configuration, the metrics per category name
   * @param gatePrecision the share of off-topic recalls (another conversation, or a question no
   *     memory answers) that returned nothing, or NaN
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
    Options options = CommandLine.parseOrExit(Options::parse, args);
    run(options, System.out);
  }

  /** Runs the evaluation and prints its tables to {@code out}. */
  public static Report run(Options options, PrintStream out) throws IOException {
    EvalData data =
        CodingDistractors.load(options.data(), options.distractors(), options.distractorSeed());
    Map<String, Scope> scopes = EvalIngest.scopes(data.conversations());
    try (EvalTrace trace =
        options.trace() == null ? EvalTrace.none() : EvalTrace.to(options.trace())) {
      return run(options, data, scopes, trace, out);
    }
  }

  private static Report run(
      Options options, EvalData data, Map<String, Scope> scopes, EvalTrace trace, PrintStream out)
      throws IOException {
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
          "RetrievalEval data=%s embedder=%s store=%s ingest=%s%s%n",
          options.data(),
          embedder.modelId(),
          options.store(),
          options.ingest().name().toLowerCase(Locale.ROOT),
          options.namedSpeakers() ? "" : " unnamed-speakers");
      if (options.distractors() > 0) {
        out.printf(
            Locale.ROOT,
            "distractors: %d per conversation (CodingDistractors, seed %d)%n",
            options.distractors(),
            options.distractorSeed());
      }
      long started = System.nanoTime();
      Map<MemoryId, String> evalIds =
          switch (options.ingest()) {
            case REMEMBER ->
                EvalIngest.storeAll(
                    data,
                    scopes,
                    services.get("fused"),
                    options.context(),
                    options.namedSpeakers(),
                    out);
            case CAPTURE ->
                EvalCapture.captureAll(data, scopes, store, embedder, options.namedSpeakers(), out);
          };
      out.printf(
          Locale.ROOT,
          "stored %d memories of %d conversations in %.1f s; %d queries (%d off-topic: no"
              + " relevant memory)%n",
          evalIds.size(),
          scopes.size(),
          (System.nanoTime() - started) / 1e9,
          data.queries().size(),
          data.queries().size() - EvalRecalls.onTopic(data).size());
      configs.forEach((name, o) -> out.println("config " + name + ": " + o));
      if (options.dump() != null) {
        EvalDump.write(options.dump(), data, scopes, store, embedder, evalIds, DUMP_DEPTH);
        out.println("dumped the raw signal lists to " + options.dump());
      }
      EvalRecalls.Quality quality = EvalRecalls.quality(data, scopes, services, evalIds, trace);
      EvalReportPrinter.quality(quality, out);
      EvalRecalls.Gate gate =
          EvalRecalls.gate(data, scopes, services.get("gated"), quality.fusedTop(), evalIds, trace);
      EvalReportPrinter.gate(gate, configs.get("gated"), out);
      EvalReportPrinter.latency(quality.latencyMillis(), out);
      if (options.trace() != null) {
        out.println("traced each measured recall to " + options.trace());
      }
      return new Report(
          quality.overall(),
          quality.perCategory(),
          gate.precision(),
          gate.cost(),
          quality.latencyMillis());
    } finally {
      services.values().forEach(MemoryService::close);
      store.close();
      embedder.close();
    }
  }

  static MemoryStore openStore(String name) {
    return switch (name) {
      case "lucene" -> LuceneMemoryStore.inMemory();
      case "lucene-per-scope" -> new ScopeRoutedStore(LuceneMemoryStore::inMemory);
      case "postgres" -> PostgresEvalStore.open(TextSearch.REPLICA);
      case "postgres-text-in-db" -> PostgresEvalStore.open(TextSearch.DATABASE);
      default ->
          throw new IllegalArgumentException(
              "unknown store '"
                  + name
                  + "'; known: lucene, lucene-per-scope, postgres, postgres-text-in-db");
    };
  }
}
