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
  private final int dimension;

  private EmbeddingEngine(
      ModelFiles files,
      LoadedModel model,
      PredictorPool<Predictor<TokenBatch, float[][]>> predictors,
      ParallelBatches<Predictor<TokenBatch, float[][]>> runner,
      EmbedderSettings settings) {
    this.files = files;
    this.model = model;
    this.predictors = predictors;
    this.runner = runner;
    TextPrefixes prefixes = settings.prefixes();
    this.documents =
        new BatchEmbedding(
            text ->
                model.windows(
                    prefixes.document(),
                    text,
                    settings.maxTokens(),
                    settings.maxWindows(),
                    settings.maxChars()),
            settings.batchSize(),
            settings.normalize());
    this.queries =
        new BatchEmbedding(
            text ->
                model.windows(
                    prefixes.query(),
                    text,
                    settings.maxTokens(),
                    settings.maxWindows(),
                    settings.maxChars()),
            settings.batchSize(),
            settings.normalize());
    // Probe once: the dimension is whatever the model produces, and a model that cannot run
    // fails here rather than on the first real text.
    this.dimension = embedDocuments(List.of("")).get(0).dimension();
  }

  /**
   * Finds the model's inputs, loads the model, fills the predictor pool and embeds a probe text to
   * learn the dimension. On failure it releases whatever it had loaded.
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
      return new EmbeddingEngine(files, model, predictors, runner, settings);
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
    // the lease spans tokenizing and every batch, helpers' included, so close() (which waits for
    // every leased predictor) never releases the tokenizer or the model under a call
    return predictors.withPredictor(
        predictor -> batches.embedAll(texts, list -> runner.run(predictor, list)));
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
