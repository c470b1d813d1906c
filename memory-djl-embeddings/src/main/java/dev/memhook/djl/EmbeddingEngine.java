package dev.memhook.djl;

import ai.djl.inference.Predictor;
import dev.memhook.api.spi.Embedding;
import java.util.List;

/**
 * What one {@link DjlEmbedder} holds once loaded: the model files, the model and tokenizer, a pool
 * of predictors on them and the batching of texts, which together embed lists of texts as stored
 * documents or as search queries (each side with its own prefix, see {@link TextPrefixes}).
 *
 * <p>Thread-safe: up to the pool size of model calls run at once, each with its own predictor, and
 * further callers wait; the batches of one call may run on several predictors at once (see {@link
 * ParallelBatches}). {@link #close()} waits for calls in flight, then releases the predictors, the
 * model, the tokenizer and the files; later calls throw {@link IllegalStateException}.
 */
final class EmbeddingEngine {
  private final ModelFiles files;
  private final LoadedModel model;
  private final PredictorPool<Predictor<TokenBatch, float[][]>> predictors;
  private final BatchEmbedding documents;
  private final BatchEmbedding queries;
  private final ParallelBatches<Predictor<TokenBatch, float[][]>> runner;
  private final int batchSize;
  private final int dimension;

  /**
   * Two texts embedded alone and together, to learn whether the model's results depend on the
   * batch: a short sentence and a longer one, so that batching pads the first and mixes their
   * activations.
   */
  static final List<String> BATCH_PROBE =
      List.of(
          "The build cache is cleared whenever the server restarts.",
          "We deploy on Fridays after the release branch is cut, and the migration runs first;"
              + " the team prefers pnpm, and the dashboard shows latency for every query.");

  /**
   * The cosine between a text's vector embedded alone and embedded in a batch above which the model
   * is taken not to depend on the batch: float rounding differs in the sixth digit, a per-batch
   * quantisation scale in the third.
   */
  static final double BATCH_INVARIANT_COSINE = 0.99999;

  private EmbeddingEngine(
      ModelFiles files,
      LoadedModel model,
      PredictorPool<Predictor<TokenBatch, float[][]>> predictors,
      ParallelBatches<Predictor<TokenBatch, float[][]>> runner,
      EmbedderSettings settings,
      int batchSize) {
    this.files = files;
    this.model = model;
    this.predictors = predictors;
    this.runner = runner;
    this.batchSize = batchSize;
    this.documents = documents(model, settings, batchSize);
    this.queries = batches(model, settings, settings.prefixes().query(), batchSize);
    // Probe once: the dimension is whatever the model produces, and a model that cannot run
    // fails here rather than on the first real text.
    this.dimension = embedDocuments(List.of("")).get(0).dimension();
  }

  private static BatchEmbedding documents(
      LoadedModel model, EmbedderSettings settings, int batchSize) {
    return batches(model, settings, settings.prefixes().document(), batchSize);
  }

  private static BatchEmbedding batches(
      LoadedModel model, EmbedderSettings settings, String prefix, int batchSize) {
    return new BatchEmbedding(
        text ->
            model.windows(
                prefix, text, settings.maxTokens(), settings.maxWindows(), settings.maxChars()),
        batchSize,
        settings.normalize());
  }

  /**
   * Finds the model's inputs, loads the model, fills the predictor pool and embeds a probe text to
   * learn the dimension. Unless the host chose a batch size, it then checks whether the model's
   * results depend on the batch ({@link #batchInvariant}) and, if they do, embeds one sequence per
   * call, so that a text gets the same vector whatever it is embedded with. On failure it releases
   * whatever it had loaded.
   *
   * @param owner names the embedder in the message of a closed engine's exception
   * @throws dev.memhook.api.EmbeddingException if a file is missing or the model cannot be loaded
   *     or run
   */
  static EmbeddingEngine open(
      ModelSource source, String modelId, EmbedderSettings settings, String owner) {
    ModelFiles files = source.resolve();
    LoadedModel model = null;
    PredictorPool<Predictor<TokenBatch, float[][]>> predictors = null;
    PredictorPool<Predictor<TokenBatch, float[][]>> helpers = null;
    try {
      model = LoadedModel.load(files, modelId, settings.pooling(), settings.intraOpThreads());
      predictors =
          PredictorPool.fill(
              settings.predictorPoolSize(), model::newPredictor, Predictor::close, owner);
      int helperCount = helpers(settings);
      LoadedModel loaded = model;
      helpers =
          helperCount == 0
              ? null
              : PredictorPool.fill(helperCount, loaded::newPredictor, Predictor::close, owner);
      ParallelBatches<Predictor<TokenBatch, float[][]>> runner =
          new ParallelBatches<>(loaded::predict, helperCount, helpers, owner);
      int batchSize =
          settings.batchSizeChosen()
                  || settings.batchSize() == 1
                  || batchInvariant(loaded, predictors, runner, settings)
              ? settings.batchSize()
              : 1;
      return new EmbeddingEngine(files, model, predictors, runner, settings, batchSize);
    } catch (RuntimeException e) {
      try {
        if (helpers != null) {
          helpers.close();
        }
        if (predictors != null) {
          predictors.close();
        }
        if (model != null) {
          model.close();
        }
      } finally {
        files.close();
      }
      throw e;
    }
  }

  /**
   * Whether {@code model}'s vector of a text is the same embedded alone as in a batch with another
   * ({@link #BATCH_PROBE}, {@link #BATCH_INVARIANT_COSINE}). An int8 model that quantises its
   * activations with one scale per tensor, computed over the whole batch, is not: a text's vector
   * then depends on the texts it was embedded with, so the same memory captured in another batch
   * would be found, or gated out, differently. {@link #open} embeds one sequence per call for such
   * a model unless the host chose a batch size.
   */
  static boolean batchInvariant(
      LoadedModel model,
      PredictorPool<Predictor<TokenBatch, float[][]>> predictors,
      ParallelBatches<Predictor<TokenBatch, float[][]>> runner,
      EmbedderSettings settings) {
    BatchEmbedding batches = documents(model, settings, settings.batchSize());
    Embedding alone = run(predictors, runner, batches, BATCH_PROBE.subList(0, 1)).get(0);
    Embedding together = run(predictors, runner, batches, BATCH_PROBE).get(0);
    return alone.cosine(together) >= BATCH_INVARIANT_COSINE;
  }

  /**
   * How many helper threads join a call of several batches: only when each model call was given a
   * set number of ONNX Runtime threads, as many more calls as leave no core idle, at most one fewer
   * than the predictor pool. Without a set number, ONNX Runtime already spreads one call over every
   * core, and more calls at once would only compete for them.
   */
  static int helpers(EmbedderSettings settings) {
    if (settings.intraOpThreads().isEmpty()) {
      return 0;
    }
    int cores = Runtime.getRuntime().availableProcessors();
    int concurrent = Math.max(1, cores / settings.intraOpThreads().getAsInt());
    return Math.min(settings.predictorPoolSize() - 1, concurrent - 1);
  }

  /** The number of dimensions of the model's vectors. */
  int dimension() {
    return dimension;
  }

  /**
   * One vector per stored text (each after the document prefix), in order; the caller has checked
   * for nulls.
   *
   * @throws IllegalStateException if the engine is closed
   * @throws dev.memhook.api.EmbeddingException if the tokenizer or the engine fails
   */
  List<Embedding> embedDocuments(List<String> texts) {
    return embed(documents, texts);
  }

  /** One vector per search query (each after the query prefix); as {@link #embedDocuments}. */
  List<Embedding> embedQueries(List<String> texts) {
    return embed(queries, texts);
  }

  private List<Embedding> embed(BatchEmbedding batches, List<String> texts) {
    return run(predictors, runner, batches, texts);
  }

  private static List<Embedding> run(
      PredictorPool<Predictor<TokenBatch, float[][]>> predictors,
      ParallelBatches<Predictor<TokenBatch, float[][]>> runner,
      BatchEmbedding batches,
      List<String> texts) {
    // the lease spans tokenizing and every batch, helpers' included, so close() (which waits for
    // every leased predictor) never releases the tokenizer or the model under a call
    return predictors.withPredictor(
        predictor -> batches.embedAll(texts, list -> runner.run(predictor, list)));
  }

  /** The sequences per model call: the host's choice, or as {@link #open} chose. */
  int batchSize() {
    return batchSize;
  }

  /**
   * Waits for calls in flight, then releases everything. Idempotent; an interrupted caller finishes
   * closing and keeps its interrupt flag.
   *
   * @return true if this call closed the engine, false if it was already closed
   */
  boolean close() {
    if (!predictors.close()) {
      return false;
    }
    runner.close();
    try {
      model.close();
    } finally {
      files.close();
    }
    return true;
  }
}
