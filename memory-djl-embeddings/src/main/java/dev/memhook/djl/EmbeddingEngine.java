package dev.memhook.djl;

import ai.djl.inference.Predictor;
import dev.memhook.api.spi.Embedding;
import java.util.List;

/**
 * What one {@link DjlEmbedder} holds once loaded: the model files, the model and tokenizer, a pool
 * of predictors on them and the batching of texts, which together embed lists of texts as stored
 * documents or as search queries (each side with its own prefix, see {@link TextPrefixes}).
 *
 * <p>Thread-safe: up to the pool size of calls run at once, each with its own predictor, and
 * further callers wait. {@link #close()} waits for calls in flight, then releases the predictors,
 * the model, the tokenizer and the files; later calls throw {@link IllegalStateException}.
 */
final class EmbeddingEngine {
  private final ModelFiles files;
  private final LoadedModel model;
  private final PredictorPool<Predictor<TokenBatch, float[][]>> predictors;
  private final BatchEmbedding documents;
  private final BatchEmbedding queries;
  private final int dimension;

  private EmbeddingEngine(
      ModelFiles files,
      LoadedModel model,
      PredictorPool<Predictor<TokenBatch, float[][]>> predictors,
      EmbedderSettings settings) {
    this.files = files;
    this.model = model;
    this.predictors = predictors;
    TextPrefixes prefixes = settings.prefixes();
    this.documents =
        new BatchEmbedding(
            text -> model.windows(prefixes.document(), text, settings.maxTokens()),
            settings.batchSize(),
            settings.normalize());
    this.queries =
        new BatchEmbedding(
            text -> model.windows(prefixes.query(), text, settings.maxTokens()),
            settings.batchSize(),
            settings.normalize());
    // Probe once: the dimension is whatever the model produces, and a model that cannot run
    // fails here rather than on the first real text.
    this.dimension = embedDocuments(List.of("")).get(0).dimension();
  }

  /**
   * Finds or extracts the model files, loads the model, fills the predictor pool and embeds a probe
   * text to learn the dimension. On failure it releases whatever it had loaded and deletes
   * extracted files.
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
    try {
      model = LoadedModel.load(files, modelId, settings.pooling(), settings.intraOpThreads());
      predictors =
          PredictorPool.fill(
              settings.predictorPoolSize(), model::newPredictor, Predictor::close, owner);
      return new EmbeddingEngine(files, model, predictors, settings);
    } catch (RuntimeException e) {
      try {
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
    return predictors.withPredictor(
        predictor -> batches.embedAll(texts, batch -> model.predict(predictor, batch)));
  }

  /**
   * Waits for calls in flight, then releases everything and deletes extracted model files.
   * Idempotent; an interrupted caller finishes closing and keeps its interrupt flag.
   *
   * @return true if this call closed the engine, false if it was already closed
   */
  boolean close() {
    if (!predictors.close()) {
      return false;
    }
    try {
      model.close();
    } finally {
      files.close();
    }
    return true;
  }
}
