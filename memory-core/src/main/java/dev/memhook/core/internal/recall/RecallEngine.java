package dev.memhook.core.internal.recall;

import dev.memhook.api.DroppedCandidate;
import dev.memhook.api.MemoryId;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecallResult;
import dev.memhook.api.RecalledMemory;
import dev.memhook.api.Scope;
import dev.memhook.api.Signal;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.StoreHit;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.function.UnaryOperator;

/**
 * Recall above the store, the same for every store, as stages run in order:
 *
 * <ol>
 *   <li>{@link SignalSearch}: per-signal top-k, BM25 text and k-nearest vectors from the store;
 *   <li>{@link Fusion}: those lists fused (standardised scores by default), with the text and
 *       vector weights {@link AdaptiveWeights} chose for this query from how peaked each list is
 *       and from the query's shape;
 *   <li>{@link ExclusionScreen}: an {@link Exclusion}'s memories taken out of the candidates that
 *       would give the query its evidence or seed the graph;
 *   <li>{@link GraphExpansion}: the seeds' concepts and files find memories that share them, and
 *       fusion runs again with that third list;
 *   <li>{@link CueBoost}: memories of the time the question names, for a question asking for advice
 *       or a standing choice memories that state one, for a question about its asker what a person
 *       told, and for a question about what the assistant said what an agent said, move up (a
 *       bounded boost, never a filter);
 *   <li>{@link SessionNeighbours}: the seeds' speakers' own turns just before and after them in
 *       their sessions move up or join, lifted by a share of their seed's score and always below
 *       it; not for a question that counts or adds up across occasions ({@link CountingCue});
 *   <li>{@link SessionSpread}: for such a counting question, each further candidate of a source
 *       session gives way a little, so the places spread over more conversations;
 *   <li>{@link RelevanceGate}: the query needs evidence, and each candidate a signal over its
 *       floor;
 *   <li>{@link ResultAssembly}: records read in ranking order, the rest of an exclusion's memories
 *       left out (they take no place), at most N per source session, cut to the places wanted;
 *   <li>{@link Reranking}: the optional reranker over the top M, then the cut to the limit.
 * </ol>
 *
 * The gate runs before the session cap so that candidates without evidence never use up a session's
 * places (docs/ARCHITECTURE.md, "Where the code departs from the original design").
 *
 * <p>Thread-safe: it holds only the store, immutable options and stateless stages; the query
 * embeddings are cached in a Caffeine cache, and what one recall reads stays in that recall.
 */
public final class RecallEngine {

  /** Queries longer than this are cut before embedding and text search. */
  static final int MAX_QUERY_CHARS = 4_000;

  /**
   * At most this many drops are listed for a rule that drops the whole rest of the ranking (a query
   * without evidence, the limit), so explanations stay bounded.
   */
  static final int MAX_LISTED_TAIL_DROPS = 20;

  private final MemoryStore store;
  private final RecallOptions options;
  private final QueryEmbeddings embeddings;
  private final SignalSearch signals;
  private final GraphExpansion graph;
  private final SessionNeighbours neighbours;
  private final RelevanceGate gate;
  private final ExclusionScreen screen;
  private final ResultAssembly assembly;
  private final Reranking reranking;
  private final Background background;
  private final Clock clock;

  /**
   * An engine whose queries without {@link RecallQuery#asOf()} are asked at the system clock, and
   * whose searches run one after the other on the calling thread.
   */
  public RecallEngine(MemoryStore store, Embedder embedder, RecallOptions options) {
    this(store, embedder, options, Clock.systemUTC(), Runnable::run);
  }

  /**
   * An engine over {@code store}.
   *
   * @param clock what a query without {@link RecallQuery#asOf()} is asked at: its time words count
   *     from the clock's now
   * @param executor where a recall's vector search (and the query's embedding) runs while the
   *     calling thread searches the text ({@link SignalSearch}); {@code Runnable::run} runs them
   *     one after the other. A task it refuses or does not start is run by the calling thread.
   */
  public RecallEngine(
      MemoryStore store, Embedder embedder, RecallOptions options, Clock clock, Executor executor) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.store = Objects.requireNonNull(store, "store");
    Objects.requireNonNull(embedder, "embedder");
    this.options = Objects.requireNonNull(options, "options");
    this.embeddings = new QueryEmbeddings(embedder, options.queryCacheSize());
    this.background = new Background(embedder);
    this.signals =
        new SignalSearch(
            store, options, embeddings, background, Objects.requireNonNull(executor, "executor"));
    this.gate = new RelevanceGate(options, MAX_LISTED_TAIL_DROPS);
    this.graph = new GraphExpansion(store, options, gate);
    this.neighbours = new SessionNeighbours(store);
    this.assembly = new ResultAssembly(options, MAX_LISTED_TAIL_DROPS);
    this.screen = new ExclusionScreen(gate, options.graphSeeds());
    this.reranking = new Reranking(options);
  }

  /** The options in force. */
  public RecallOptions options() {
    return options;
  }

  /** Embeds a query, once per distinct text while it stays in the cache. */
  public Embedding embedQuery(String text) {
    return embeddings.of(text);
  }

  /**
   * The sentences the gate embeds once as documents, the first time it recalls, to learn what
   * unrelated text reaches with the model in use ({@link Background}).
   */
  public static List<String> backgroundSample() {
    return Background.SENTENCES;
  }

  /** The question {@link #warmUp} asks first: ordinary words, so every stage runs. */
  public static final String WARM_UP_QUERY = "what did we decide about the release last week?";

  /** The longest part of a stored memory {@link #warmUp} asks with. */
  static final int WARM_UP_ECHO_CHARS = 200;

  /**
   * Embeds {@link #WARM_UP_QUERY} as a query and, with {@code searchStore}, recalls it in {@code
   * scope}, then recalls again with the first {@value #WARM_UP_ECHO_CHARS} characters of the
   * scope's memory nearest to it, discarding both results: so the first real recall does not pay
   * for class loading, compiling the hot paths, the model's first run on a real sentence, opening
   * the searchers and the first scoring, record reads and graph expansion in the scope. On a cold
   * JVM the first recall of a scope took several times the next (benchmarks/RESULTS.md). Reads
   * only; the embeddings stay in the query cache.
   *
   * @throws RuntimeException whatever the embedder or the store throws; the caller decides what a
   *     failed warm-up means
   */
  public void warmUp(boolean searchStore, Scope scope) {
    if (searchStore) {
      recall(new RecallQuery(scope, WARM_UP_QUERY, 1));
      // A question that matches nothing skips scoring, record reads and graph expansion; asking
      // with the words of a memory of the scope (its nearest neighbour) runs them too.
      List<StoreHit> nearest = store.searchVector(scope, embeddings.of(WARM_UP_QUERY), 1);
      if (!nearest.isEmpty()) {
        store
            .get(nearest.get(0).id())
            .map(m -> m.content())
            .filter(c -> !c.isBlank())
            .ifPresent(
                c ->
                    recall(
                        new RecallQuery(
                            scope,
                            c.substring(0, Math.min(c.length(), WARM_UP_ECHO_CHARS)),
                            RecallQuery.DEFAULT_LIMIT)));
      }
    } else {
      embeddings.of(WARM_UP_QUERY);
    }
  }

  /**
   * Runs the whole pipeline for {@code query}, leaving out the memories of its {@link
   * RecallQuery#excludedSession()} as {@link #recall(RecallQuery, Exclusion)} does.
   */
  public RecallResult recall(RecallQuery query) {
    String session = query.excludedSession();
    return recall(query, session == null ? Exclusion.none() : Exclusion.sourceSession(session))
        .result();
  }

  /**
   * Runs the whole pipeline for {@code query}, leaving out what {@code exclusion} names before it
   * can act (as the query's evidence, a graph seed or a place under the limit): the result holds up
   * to the limit of memories it let through, and what it left out comes back beside the result.
   * {@code exclusion} is the whole rule: the query's own {@link RecallQuery#excludedSession()} is
   * not read here (a hook builds its queries without one).
   */
  public Exclusion.Result recall(RecallQuery query, Exclusion exclusion) {
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(exclusion, "exclusion");
    String text =
        query.text().length() > MAX_QUERY_CHARS
            ? query.text().substring(0, MAX_QUERY_CHARS)
            : query.text();
    if (text.isBlank()) {
      return new Exclusion.Result(RecallResult.empty(), List.of());
    }
    int depth = Math.max(options.candidatesPerSignal(), query.limit());
    SignalSearch.DirectSignals direct =
        signals.search(
            query.scope(),
            text,
            depth,
            ResultAssembly.firstRead(reranking.placesWanted(query.limit())));
    double ceiling = direct.textCeiling();
    GateBasis basis = basis(text, direct, depth);
    AdaptiveWeights.Choice weights =
        AdaptiveWeights.choose(
            options, text, direct.text(), direct.vector(), direct.bySentences(), ceiling);
    Fusion.RankedList textList = direct.text().withWeight(weights.textWeight());
    Fusion.RankedList vector = direct.vector().withWeight(weights.vectorWeight());
    Map<MemoryId, Double> cosines = cosines(direct.nearest());
    List<Candidate> fused = fuse(List.of(textList, vector), cosines);

    RecordReader records = new RecordReader(store, direct.read());
    List<RecalledMemory> excluded = new ArrayList<>();
    fused = screen.screen(fused, basis, exclusion, records, excluded);
    // the crowd is the scope's other memories: an excluded one (the hook's own conversation,
    // which matches itself) is not a neighbour the answer has to beat
    basis = withCrowds(basis, direct, excluded);
    long graphStart = System.nanoTime();
    List<Candidate> seeds = graph.seeds(fused, basis);
    List<StoreHit> related = graph.expand(query.scope(), seeds, records, depth);
    Map<Signal, Duration> took = new EnumMap<>(Signal.class);
    took.put(Signal.TEXT, direct.textTook());
    took.put(Signal.VECTOR, direct.vectorTook());
    took.put(Signal.GRAPH, Duration.ofNanos(System.nanoTime() - graphStart));
    if (!related.isEmpty()) {
      Fusion.RankedList graphList =
          new Fusion.RankedList(Signal.GRAPH, options.graphWeight(), related);
      fused =
          ExclusionScreen.without(
              Fusion.belowSeeds(fuse(List.of(textList, vector, graphList), cosines), seeds),
              excluded);
    }

    Instant asOf = query.asOf() != null ? query.asOf() : clock.instant();
    Places places = places(query, exclusion, basis, seeds);
    CueBoost.Boosted boosted =
        CueBoost.apply(fused, CueBoost.Cues.of(text, asOf), records, depth, places);
    // the graph adds candidates but never outranks its seeds, boosted or not
    fused = related.isEmpty() ? boosted.ranked() : Fusion.belowSeeds(boosted.ranked(), seeds);
    // a counting question wants the other sessions' mentions, not more turns of the seeds' own
    // sessions: it skips the neighbouring turns, and its places spread over sessions
    boolean counting = CountingCue.asks(text);
    long neighboursStart = System.nanoTime();
    SessionNeighbours.Expanded told =
        counting
            ? new SessionNeighbours.Expanded(fused, "")
            : neighbours.apply(query.scope(), fused, seeds, records, boosted, places);
    fused = told.ranked();
    took.put(Signal.NEIGHBOUR, Duration.ofNanos(System.nanoTime() - neighboursStart));
    SessionSpread.Spread spread = SessionSpread.apply(fused, counting, records, depth, places);
    fused = spread.ranked();

    String lifted =
        direct.lifted() == 0 ? "" : "passages lifted " + direct.lifted() + " by their sentences";
    String fusion =
        join(
            join(
                join(join(weights.description(), lifted), boosted.description()),
                told.description()),
            spread.description());
    List<DroppedCandidate> dropped = new ArrayList<>();
    List<Candidate> gated = gate.apply(fused, basis, bugsAmong(text, records), dropped);
    if (gated.isEmpty()) {
      return new Exclusion.Result(new RecallResult(List.of(), dropped, took, fusion), excluded);
    }
    List<RecalledMemory> kept =
        assembly.assemble(
            query,
            gated,
            reranking.placesWanted(query.limit()),
            records,
            exclusion,
            excluded,
            dropped);
    DistilledInPlace.Placed placed = DistilledInPlace.apply(store, query, kept, records, exclusion);
    List<RecalledMemory> ranked = reranking.rerank(text, placed.memories());
    // RecallResult copies its lists, so the cut needs no copy of its own
    return new Exclusion.Result(
        new RecallResult(
            ranked.size() > query.limit() ? ranked.subList(0, query.limit()) : ranked,
            dropped,
            took,
            join(fusion, placed.description())),
        excluded);
  }

  /**
   * What the gate asks of a recall without evidence ({@link RelevanceGate#apply(List, GateBasis,
   * UnaryOperator, List)}): for a question about trouble ({@link TroubleCue}), which of the
   * candidates it offers record a bug, their records read in one call; for any other question,
   * none. The question is read, and records fetched, only when the gate asks.
   */
  private static UnaryOperator<List<Candidate>> bugsAmong(String text, RecordReader records) {
    return over -> {
      if (over.isEmpty() || !TroubleCue.asks(text)) {
        return List.of();
      }
      records.read(over);
      return over.stream().filter(c -> TroubleCue.answers(records.get(c.id))).toList();
    };
  }

  /**
   * The places the cue stage ({@link CueBoost}) and the neighbouring turns read for: the result's
   * (or the reranker's), and at least as many as the graph's seeds, so that every seed is looked
   * at. They are held by candidates no later stage moves down: a direct hit the gate lets through,
   * and not one the graph lifted (the graph's reordering, {@link Fusion#belowSeeds}, moves those
   * under its seeds).
   */
  private Places places(
      RecallQuery query, Exclusion exclusion, GateBasis basis, List<Candidate> seeds) {
    Set<MemoryId> seedIds = new HashSet<>();
    seeds.forEach(c -> seedIds.add(c.id));
    return new Places(
        Math.max(reranking.placesWanted(query.limit()), options.graphSeeds()),
        options.maxPerSession(),
        c ->
            gate.passesDirectFloor(c, basis)
                && (seedIds.contains(c.id) || !c.hits.containsKey(Signal.GRAPH)),
        m -> ResultAssembly.returnable(query, m, exclusion));
  }

  /**
   * The lists fused with the service's method, each candidate given its own vector's cosine from
   * {@code cosines} ({@link Candidate#cosine}), which the gate reads.
   */
  private List<Candidate> fuse(List<Fusion.RankedList> lists, Map<MemoryId, Double> cosines) {
    List<Candidate> fused = Fusion.fuse(lists, options.fusion(), options.rrfK());
    for (Candidate c : fused) {
      c.cosine = cosines.getOrDefault(c.id, Double.NaN);
    }
    return fused;
  }

  /** Each memory's cosine in the store's nearest-vector hits, the first if one repeats. */
  private static Map<MemoryId, Double> cosines(List<StoreHit> nearest) {
    Map<MemoryId, Double> out = new HashMap<>();
    nearest.forEach(h -> out.putIfAbsent(h.id(), h.score()));
    return out;
  }

  /** {@code a} and {@code b} joined by "; ", or the one that is not empty. */
  private static String join(String a, String b) {
    return a.isEmpty() ? b : b.isEmpty() ? a : a + "; " + b;
  }

  /**
   * What this query's gate decisions count from: the text ceiling, and, unless the options ask for
   * absolute cosine floors, the cosine the closest unrelated text reaches ({@link Background}). The
   * scope's crowd is added by {@link #withCrowds} once the exclusion's memories are known. The
   * scope was searched whole when the vector search, asked for {@code depth} nearest memories,
   * returned some but fewer ({@code vectorHits}): a store returns the nearest it holds, so it held
   * no more (the hook's own conversation counts, as the store holds it; a memory stored without a
   * vector, from a zero embedding, does not). Not with absolute floors, nor when the options ask no
   * cosine evidence. The closeness is the vector side's, or measured here if it has none (the
   * vector signal was not searched).
   */
  private GateBasis basis(String text, SignalSearch.DirectSignals direct, int depth) {
    double ceiling = direct.textCeiling();
    if (options.cosineBase() == RecallOptions.CosineBase.ABSOLUTE) {
      return GateBasis.absolute(ceiling);
    }
    Background.Closeness closeness =
        direct.closeness() != null ? direct.closeness() : background.closeness(embeddings.of(text));
    GateBasis basis = new GateBasis(ceiling, closeness.high());
    int vectorHits = direct.nearest().size();
    boolean whole = options.evidenceCosine() > -1 && vectorHits > 0 && vectorHits < depth;
    return whole ? basis.searchedWhole() : basis;
  }

  /**
   * {@code basis} with the scope's crowds, each counted over the hits not left out by the
   * exclusion. With at least {@link RelevanceGate#CROWD_RANK} vector hits, and unless the options
   * ask for absolute floors, the {@code CROWD_RANK}th one's cosine plus {@link
   * RelevanceGate#CLEAR_DEVIATIONS} of the model's spread of unrelated cosines; with at least
   * {@code CROWD_RANK} text hits and a text evidence floor above 0, the {@code CROWD_RANK}th one's
   * share of the ceiling plus {@link RelevanceGate#CLEAR_TEXT_SHARE}.
   */
  private GateBasis withCrowds(
      GateBasis basis, SignalSearch.DirectSignals direct, List<RecalledMemory> excluded) {
    Set<MemoryId> left = new HashSet<>();
    excluded.forEach(m -> left.add(m.id()));
    double crowdCosine = Double.NEGATIVE_INFINITY;
    double neighbour = crowdScore(direct.nearest(), left);
    // an evidence cosine of -1 (no relevance gate) asks no evidence of the cosine: nothing to clear
    if (options.cosineBase() != RecallOptions.CosineBase.ABSOLUTE
        && options.evidenceCosine() > -1
        && !Double.isNaN(neighbour)) {
      crowdCosine =
          neighbour
              + RelevanceGate.CLEAR_DEVIATIONS * background.calibration().unrelatedDeviation();
    }
    double crowdTextShare = Double.NEGATIVE_INFINITY;
    double textNeighbour = crowdScore(direct.text().hits(), left);
    // a text evidence floor of 0 (no relevance gate) asks no evidence of the text: nothing to clear
    if (options.evidenceTextScore() > 0 && basis.ceiling() > 0 && !Double.isNaN(textNeighbour)) {
      crowdTextShare = textNeighbour / basis.ceiling() + RelevanceGate.CLEAR_TEXT_SHARE;
    }
    return basis.withCrowds(crowdCosine, crowdTextShare);
  }

  /**
   * The {@link RelevanceGate#CROWD_RANK}th best score of {@code hits} not in {@code left}, or NaN
   * with fewer.
   */
  private static double crowdScore(List<StoreHit> hits, Set<MemoryId> left) {
    double[] scores =
        hits.stream().filter(h -> !left.contains(h.id())).mapToDouble(StoreHit::score).toArray();
    if (scores.length < RelevanceGate.CROWD_RANK) {
      return Double.NaN;
    }
    Arrays.sort(scores);
    return scores[scores.length - RelevanceGate.CROWD_RANK];
  }
}
