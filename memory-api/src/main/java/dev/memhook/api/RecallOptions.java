package dev.memhook.api;

import static dev.memhook.api.internal.BuilderSettings.inRange;

import dev.memhook.api.internal.BuilderSettings;
import java.util.Objects;
import java.util.Optional;

/**
 * How recall ranks and filters: per-signal candidate depth, the fusion method and its weights,
 * graph expansion, the per-session cap, the relevance gate's floors and the optional reranker.
 *
 * <p>Fused score: by default the weighted sum of each signal's standardised score over the signals
 * (text, vector, graph) that returned the candidate ({@link FusionMethod#STANDARDISED_SCORES});
 * optionally weighted reciprocal-rank fusion, {@code Σ weight_s / (rrfK + rank_s)}. The text and
 * vector weights are a prior that each query shares out again by how confident each signal's own
 * list is, and a query shaped like an exact reference (identifier, path, SHA, error code) weighs
 * vectors at a fifth of its share (see {@link FusionMethod}). The relevance gate has two levels: a
 * recall returns anything only if at least one candidate reaches an <em>evidence floor</em> (cosine
 * {@code >= base + evidenceCosine × (1 − base)}, or text score divided by the query's {@linkplain
 * dev.memhook.api.spi.TextHits#ceiling() ceiling} {@code >= evidenceTextScore}); and then each
 * candidate returned must clear a <em>candidate floor</em> on at least one signal: cosine {@code >=
 * base + minCosine × (1 − base)}, normalised text {@code >= minTextScore}, or {@code >=
 * minSharedEntities} concepts and files shared with a top hit; a memory told next to a top hit in
 * its session by the same speaker ({@link Signal#NEIGHBOUR}) passes as that hit did. The cosine
 * floors count from a base ({@link CosineBase}): by default the cosine the query already reaches
 * with text unrelated to it, so they say how far above "unrelated" a memory must be, in the room
 * the model leaves there, which holds across embedding models and questions; the text floors are
 * shares of the query's own ceiling, so neither level rests on an absolute score. With the default
 * base, a cosine over its evidence floor must also be a little ahead of the scope's own nearest
 * memories, in the model's spread of unrelated cosines ({@link
 * dev.memhook.api.spi.SimilarityCalibration}), unless the cosine evidence floor is -1; and a text
 * score over its evidence floor must be a tenth of the ceiling ahead of the scope's tenth text hit,
 * unless the text evidence floor is 0. So {@link Builder#noRelevanceGate()} asks neither. Also with
 * the default base, a scope that holds fewer memories than a recall takes from each signal ({@link
 * #candidatesPerSignal()}, or the query's limit if larger), so that the vector search returned
 * every one of them, takes cosine evidence halfway between the candidate floor and the evidence
 * floor: what a question the scope cannot answer finds best is then drawn from few memories, and
 * the full floor held back the answers a project's next sessions ask for in other words. Such
 * evidence vouches only for itself: when no candidate reaches the evidence floor, a recall returns
 * the candidates over that lower floor, and none on a candidate floor alone. An evidence floor
 * above 1 keeps the cosine route closed. A question about trouble (one that names an error, a
 * failure, a crash, something broken, lost or that cannot work) that reaches no evidence floor
 * returns the {@link MemoryType#BUG} memories over a candidate floor and ahead of the scope's
 * crowd, and nothing else: its symptom and the recorded fix seldom share words.
 *
 * <p>Immutable and thread-safe; build with {@link #builder()}. Every setter validates at once.
 */
public final class RecallOptions {

  /** Default candidates taken from each signal ({@value}): deep enough for fusion to reorder. */
  public static final int DEFAULT_CANDIDATES_PER_SIGNAL = 50;

  /** Default fusion method: {@link FusionMethod#STANDARDISED_SCORES}. */
  public static final FusionMethod DEFAULT_FUSION = FusionMethod.STANDARDISED_SCORES;

  /**
   * Default RRF {@code k} ({@value}), used by {@link FusionMethod#RECIPROCAL_RANKS} only: below the
   * customary 60, which lets a weak signal's first hits overtake a strong signal's head (the sweep
   * is in benchmarks/RESULTS.md, section 5).
   */
  public static final int DEFAULT_RRF_K = 20;

  /** Default text weight ({@value}): the reference the other weights are set against. */
  public static final double DEFAULT_TEXT_WEIGHT = 1.0;

  /**
   * Default vector weight ({@value}), below the text weight: the local MiniLM model's whole-memory
   * vectors alone rank below text, yet lift what text misses. A vector list the store ranked by its
   * memories' sentence vectors weighs 5/3 of it (1.25 by default, above text), because it finds the
   * one sentence of a long turn that answers (benchmarks/RESULTS.md, section 29). It is the prior
   * that each query's own evidence moves: the signal whose list has the more pronounced best hit
   * gets the larger share of the text and vector weights together, and a query shaped like an exact
   * reference uses a fifth of the vector share ({@link FusionMethod}; benchmarks/RESULTS.md,
   * section 20).
   */
  public static final double DEFAULT_VECTOR_WEIGHT = 0.75;

  /**
   * Default graph weight ({@value}), below the text weight: sharing a concept is weaker evidence
   * than matching the query. Whatever the weight, a memory the graph reached never ranks above the
   * direct hits whose concepts and files led to it.
   */
  public static final double DEFAULT_GRAPH_WEIGHT = 0.5;

  /**
   * Default number of top fused hits the graph expands from ({@value}): their concepts and files,
   * and their speakers' own turns just before and after them in their sessions ({@link
   * Signal#NEIGHBOUR}).
   */
  public static final int DEFAULT_GRAPH_SEEDS = 5;

  /**
   * Default cap of results per source session: off ({@link Integer#MAX_VALUE}); evidence often
   * clusters in one session. Turn it on with {@link Builder#maxPerSession(int)}.
   */
  public static final int DEFAULT_MAX_PER_SESSION = Integer.MAX_VALUE;

  /**
   * Default evidence floor on cosine ({@value}), as a share of the way from the {@linkplain
   * CosineBase base} to a perfect match: with the default base, a memory gives a recall its
   * evidence when its cosine is {@code base + 0.35 × (1 − base)}, where the base is the cosine the
   * closest unrelated text reaches. With {@link CosineBase#ABSOLUTE} (base 0) a floor is the cosine
   * itself. A recall returns anything only if at least one candidate reaches an evidence floor
   * (this cosine, or {@link #DEFAULT_EVIDENCE_TEXT_SCORE}). Chosen on the LoCoMo and coding dev
   * sets, replayed side by side with the absolute floors it replaces (benchmarks/RESULTS.md,
   * section 15.2).
   */
  public static final double DEFAULT_EVIDENCE_COSINE = 0.35;

  /**
   * Default evidence floor on the normalised text score ({@value}), a share of the query's
   * {@linkplain dev.memhook.api.spi.TextHits#ceiling() text-score ceiling}; see {@link
   * #DEFAULT_EVIDENCE_COSINE}. (The ceiling is where BM25 tends as a term's frequency grows, so
   * even a memory holding every query term once scores well below it.)
   */
  public static final double DEFAULT_EVIDENCE_TEXT_SCORE = 0.25;

  /**
   * Default candidate floor on cosine ({@value}), a share of the way from the base to 1 like {@link
   * #DEFAULT_EVIDENCE_COSINE}. Once a recall has evidence, each candidate it returns must still
   * clear a candidate floor (this cosine, or {@link #DEFAULT_MIN_TEXT_SCORE}), set below the
   * evidence floors so a recall with evidence still brings what goes with it.
   */
  public static final double DEFAULT_MIN_COSINE = 0.17;

  /**
   * Default candidate floor on the normalised text score ({@value}); see {@link
   * #DEFAULT_MIN_COSINE}.
   */
  public static final double DEFAULT_MIN_TEXT_SCORE = 0.10;

  /**
   * Default number of shared concepts and files for a graph-only candidate to pass the gate
   * ({@value}): more than one, so a single common concept does not let a memory through.
   */
  public static final int DEFAULT_MIN_SHARED_ENTITIES = 2;

  /** Default number of top candidates a reranker sees ({@value}). */
  public static final int DEFAULT_RERANK_TOP = 20;

  /**
   * What the cosine floors count from.
   *
   * <ul>
   *   <li>{@link #BACKGROUND} (the default): from the cosine the query already reaches with text
   *       unrelated to it, measured per query against a fixed sample of ordinary sentences embedded
   *       with the service's own model (once, at the first recall). A floor {@code f} is then the
   *       cosine {@code base + f × (1 − base)}: a share of the room the model leaves above
   *       "unrelated", which holds for a model whose cosines run high or low, for vague and
   *       specific questions, and for a scope of any size.
   *   <li>{@link #ABSOLUTE}: from 0, the floors being cosines themselves; set floors calibrated for
   *       the model in use.
   * </ul>
   */
  public enum CosineBase {
    BACKGROUND,
    ABSOLUTE
  }

  /** Default {@link CosineBase}: {@link CosineBase#BACKGROUND}. */
  public static final CosineBase DEFAULT_COSINE_BASE = CosineBase.BACKGROUND;

  /** Default size of the query-embedding cache, in entries ({@value}). */
  public static final int DEFAULT_QUERY_CACHE_SIZE = 10_000;

  private final int candidatesPerSignal;
  private final FusionMethod fusion;
  private final int rrfK;
  private final double textWeight;
  private final double vectorWeight;
  private final double graphWeight;
  private final int graphSeeds;
  private final int maxPerSession;
  private final double minCosine;
  private final double evidenceCosine;
  private final double evidenceTextScore;
  private final double minTextScore;
  private final int minSharedEntities;
  private final Reranker reranker;
  private final int rerankTop;
  private final int queryCacheSize;
  private final CosineBase cosineBase;

  private RecallOptions(Builder b) {
    this.candidatesPerSignal = b.candidatesPerSignal;
    this.fusion = b.fusion;
    this.rrfK = b.rrfK;
    this.textWeight = b.textWeight;
    this.vectorWeight = b.vectorWeight;
    this.graphWeight = b.graphWeight;
    this.graphSeeds = b.graphSeeds;
    this.maxPerSession = b.maxPerSession;
    this.minCosine = b.minCosine;
    this.evidenceCosine = b.evidenceCosine;
    this.evidenceTextScore = b.evidenceTextScore;
    this.minTextScore = b.minTextScore;
    this.minSharedEntities = b.minSharedEntities;
    this.reranker = b.reranker;
    this.rerankTop = b.rerankTop;
    this.queryCacheSize = b.queryCacheSize;
    this.cosineBase = b.cosineBase;
  }

  /** The defaults stated on each constant (per-session cap off, gate on). */
  public static RecallOptions defaults() {
    return builder().build();
  }

  /** A builder starting from the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding these options; each setting may still be set once. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.candidatesPerSignal = candidatesPerSignal;
    b.fusion = fusion;
    b.rrfK = rrfK;
    b.textWeight = textWeight;
    b.vectorWeight = vectorWeight;
    b.graphWeight = graphWeight;
    b.graphSeeds = graphSeeds;
    b.maxPerSession = maxPerSession;
    b.minCosine = minCosine;
    b.evidenceCosine = evidenceCosine;
    b.evidenceTextScore = evidenceTextScore;
    b.minTextScore = minTextScore;
    b.minSharedEntities = minSharedEntities;
    b.reranker = reranker;
    b.rerankTop = rerankTop;
    b.queryCacheSize = queryCacheSize;
    b.cosineBase = cosineBase;
    return b;
  }

  public int candidatesPerSignal() {
    return candidatesPerSignal;
  }

  /** How the signals' lists are combined. */
  public FusionMethod fusion() {
    return fusion;
  }

  /** The RRF constant, used by {@link FusionMethod#RECIPROCAL_RANKS} only. */
  public int rrfK() {
    return rrfK;
  }

  public double textWeight() {
    return textWeight;
  }

  public double vectorWeight() {
    return vectorWeight;
  }

  public double graphWeight() {
    return graphWeight;
  }

  public int graphSeeds() {
    return graphSeeds;
  }

  /** The per-session cap; {@link Integer#MAX_VALUE} when off. */
  public int maxPerSession() {
    return maxPerSession;
  }

  public double minCosine() {
    return minCosine;
  }

  public double minTextScore() {
    return minTextScore;
  }

  /** The cosine at least one candidate must reach for a recall to return anything. */
  public double evidenceCosine() {
    return evidenceCosine;
  }

  /**
   * The normalised text score at least one candidate must reach for a recall to return anything.
   */
  public double evidenceTextScore() {
    return evidenceTextScore;
  }

  public int minSharedEntities() {
    return minSharedEntities;
  }

  /** The reranker, if one was set. */
  public Optional<Reranker> reranker() {
    return Optional.ofNullable(reranker);
  }

  public int rerankTop() {
    return rerankTop;
  }

  public int queryCacheSize() {
    return queryCacheSize;
  }

  /** What the cosine floors count from; see {@link CosineBase}. */
  public CosineBase cosineBase() {
    return cosineBase;
  }

  @Override
  public String toString() {
    return "RecallOptions[candidates="
        + candidatesPerSignal
        + ", fusion="
        + (fusion == FusionMethod.RECIPROCAL_RANKS ? "ranks(k=" + rrfK + ")" : "scores")
        + ", weights(text="
        + textWeight
        + ", vector="
        + vectorWeight
        + ", graph="
        + graphWeight
        + "), graphSeeds="
        + graphSeeds
        + ", maxPerSession="
        + (maxPerSession == Integer.MAX_VALUE ? "off" : maxPerSession)
        + ", cosineBase="
        + cosineBase
        + ", evidence(cosine="
        + evidenceCosine
        + ", text="
        + evidenceTextScore
        + ")"
        + ", minCosine="
        + minCosine
        + ", minTextScore="
        + minTextScore
        + ", minShared="
        + minSharedEntities
        + ", reranker="
        + (reranker == null ? "none" : reranker)
        + "]";
  }

  /** Builds {@link RecallOptions}. Not thread-safe. */
  public static final class Builder {
    private int candidatesPerSignal = DEFAULT_CANDIDATES_PER_SIGNAL;
    private FusionMethod fusion = DEFAULT_FUSION;
    private int rrfK = DEFAULT_RRF_K;
    private double textWeight = DEFAULT_TEXT_WEIGHT;
    private double vectorWeight = DEFAULT_VECTOR_WEIGHT;
    private double graphWeight = DEFAULT_GRAPH_WEIGHT;
    private int graphSeeds = DEFAULT_GRAPH_SEEDS;
    private int maxPerSession = DEFAULT_MAX_PER_SESSION;
    private double minCosine = DEFAULT_MIN_COSINE;
    private double evidenceCosine = DEFAULT_EVIDENCE_COSINE;
    private double evidenceTextScore = DEFAULT_EVIDENCE_TEXT_SCORE;
    private double minTextScore = DEFAULT_MIN_TEXT_SCORE;
    private int minSharedEntities = DEFAULT_MIN_SHARED_ENTITIES;
    private Reranker reranker;
    private int rerankTop = DEFAULT_RERANK_TOP;
    private int queryCacheSize = DEFAULT_QUERY_CACHE_SIZE;
    private CosineBase cosineBase = DEFAULT_COSINE_BASE;

    private final BuilderSettings settings = new BuilderSettings();

    private Builder() {}

    /** Candidates taken from each signal, 1 to 1000. */
    public Builder candidatesPerSignal(int value) {
      settings.checkUnset("candidatesPerSignal");
      this.candidatesPerSignal = inRange("candidatesPerSignal", value, 1, 1000);
      return settings.recorded(this, "candidatesPerSignal");
    }

    /**
     * How the signals' lists are combined; see {@link FusionMethod}.
     *
     * @throws NullPointerException if {@code method} is null
     */
    public Builder fusion(FusionMethod method) {
      settings.checkUnset("fusion");
      this.fusion = java.util.Objects.requireNonNull(method, "method");
      return settings.recorded(this, "fusion");
    }

    /** The RRF constant {@code k}, 1 to 1000, for {@link FusionMethod#RECIPROCAL_RANKS}. */
    public Builder rrfK(int value) {
      settings.checkUnset("rrfK");
      this.rrfK = inRange("rrfK", value, 1, 1000);
      return settings.recorded(this, "rrfK");
    }

    /**
     * The fusion weights, each in [0, 10]; at least one of text and vector must be positive. A
     * graph weight of 0 turns expansion from the top hits off: concepts and files, and neighbouring
     * turns.
     */
    public Builder weights(double text, double vector, double graph) {
      settings.checkUnset("weights");
      inRange("text weight", text, 0, 10);
      inRange("vector weight", vector, 0, 10);
      inRange("graph weight", graph, 0, 10);
      if (text == 0 && vector == 0) {
        throw new IllegalArgumentException(
            "at least one of the text and vector weights must be positive");
      }
      this.textWeight = text;
      this.vectorWeight = vector;
      this.graphWeight = graph;
      return settings.recorded(this, "weights");
    }

    /**
     * How many top fused hits the graph expands from (concepts and files, and neighbouring turns),
     * 0 (both off) to 100.
     */
    public Builder graphSeeds(int value) {
      settings.checkUnset("graphSeeds");
      this.graphSeeds = inRange("graphSeeds", value, 0, 100);
      return settings.recorded(this, "graphSeeds");
    }

    /** At most this many results per source session, 1 to 1000. */
    public Builder maxPerSession(int value) {
      settings.checkUnset("maxPerSession");
      this.maxPerSession = inRange("maxPerSession", value, 1, 1000);
      return settings.recorded(this, "maxPerSession");
    }

    /** Turns the per-session cap off. */
    public Builder noSessionCap() {
      settings.checkUnset("maxPerSession");
      this.maxPerSession = Integer.MAX_VALUE;
      return settings.recorded(this, "maxPerSession");
    }

    /**
     * The candidate floor on cosine, as a share of the way from the {@linkplain #cosineBase base}
     * to 1 (the floor is {@code base + value × (1 − base)}; with {@link CosineBase#ABSOLUTE} it is
     * the cosine itself), in [-1, 1]; above 1 disables the vector route through the gate.
     */
    public Builder minCosine(double value) {
      settings.checkUnset("minCosine");
      this.minCosine = inRange("minCosine", value, -1, 1.01);
      return settings.recorded(this, "minCosine");
    }

    /** The normalised text floor, in [0, 1]; above 1 disables the text route through the gate. */
    public Builder minTextScore(double value) {
      settings.checkUnset("minTextScore");
      this.minTextScore = inRange("minTextScore", value, 0, 1.01);
      return settings.recorded(this, "minTextScore");
    }

    /**
     * The evidence floors: a recall returns anything only if at least one candidate reaches {@code
     * cosine} or {@code textScore} (normalised); each in the same range as the candidate floors,
     * and {@link #build()} checks they are not below them.
     */
    public Builder evidenceFloors(double cosine, double textScore) {
      settings.checkUnset("evidenceFloors");
      double checkedCosine = inRange("evidence cosine floor", cosine, -1, 1.01);
      this.evidenceTextScore = inRange("evidence text floor", textScore, 0, 1.01);
      this.evidenceCosine = checkedCosine;
      return settings.recorded(this, "evidenceFloors");
    }

    /** Turns the relevance gate off: every fused candidate passes. */
    public Builder noRelevanceGate() {
      settings.checkUnset("minCosine", "minTextScore", "evidenceFloors", "minSharedEntities");
      this.minCosine = -1;
      this.minTextScore = 0;
      this.evidenceCosine = -1;
      this.evidenceTextScore = 0;
      this.minSharedEntities = 0;
      return settings.recorded(
          this, "minCosine", "minTextScore", "evidenceFloors", "minSharedEntities");
    }

    /** Shared concepts and files a graph-only candidate needs, 0 to 100. */
    public Builder minSharedEntities(int value) {
      settings.checkUnset("minSharedEntities");
      this.minSharedEntities = inRange("minSharedEntities", value, 0, 100);
      return settings.recorded(this, "minSharedEntities");
    }

    /** A reranker over the top {@code top} candidates (1 to 1000). */
    public Builder reranker(Reranker value, int top) {
      settings.checkUnset("reranker");
      this.reranker = Objects.requireNonNull(value, "reranker");
      this.rerankTop = inRange("rerankTop", top, 1, 1000);
      return settings.recorded(this, "reranker");
    }

    /** Entries in the query-embedding cache, 0 (off) to 10,000,000. */
    public Builder queryCacheSize(int value) {
      settings.checkUnset("queryCacheSize");
      this.queryCacheSize = inRange("queryCacheSize", value, 0, 10_000_000);
      return settings.recorded(this, "queryCacheSize");
    }

    /** What the cosine floors count from; not null. */
    public Builder cosineBase(CosineBase value) {
      settings.checkUnset("cosineBase");
      this.cosineBase = Objects.requireNonNull(value, "cosineBase");
      return settings.recorded(this, "cosineBase");
    }

    /**
     * Builds the options.
     *
     * @throws IllegalStateException if an evidence floor is below its candidate floor
     */
    public RecallOptions build() {
      if (evidenceCosine < minCosine || evidenceTextScore < minTextScore) {
        throw new IllegalStateException(
            String.format(
                java.util.Locale.ROOT,
                "evidence floors (cosine %s, text %s) must not be below the candidate floors"
                    + " (cosine %s, text %s)",
                evidenceCosine,
                evidenceTextScore,
                minCosine,
                minTextScore));
      }
      return new RecallOptions(this);
    }
  }
}
