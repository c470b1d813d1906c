package dev.memhook.djl;

import dev.memhook.api.EmbeddingException;
import dev.memhook.api.spi.SimilarityCalibration;
import java.nio.file.Path;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds a {@link DjlEmbedder}. Strict: each option may be set once, invalid values are rejected at
 * once with {@link IllegalArgumentException}, and {@link #build()} requires exactly one model
 * source and a model id. Not thread-safe.
 */
public final class DjlEmbedderBuilder {

  private static final Logger LOG = LoggerFactory.getLogger(DjlEmbedderBuilder.class);

  private ModelSource source;
  private String modelId;
  private Pooling pooling;
  private Boolean normalize;
  private Integer maxTokens;
  private Integer maxWindows;
  private Integer batchSize;
  private Integer predictorPoolSize;
  private Integer intraOpThreads;
  private TextPrefixes prefixes;
  private SimilarityCalibration calibration;

  DjlEmbedderBuilder() {}

  /**
   * Loads {@code model.onnx} (or the directory's only {@code *.onnx} file) and {@code
   * tokenizer.json} (or its only {@code *tokenizer.json} file) from {@code directory}.
   */
  public DjlEmbedderBuilder modelDirectory(Path directory) {
    Objects.requireNonNull(directory, "directory");
    return source(new ModelSource.Directory(directory));
  }

  /** Loads the given ONNX model file and Hugging Face tokenizer file. */
  public DjlEmbedderBuilder modelFiles(Path model, Path tokenizer) {
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(tokenizer, "tokenizer");
    return source(new ModelSource.Files(model, tokenizer));
  }

  /**
   * Loads the model and tokenizer from class-path resources of {@code loader} (names as for {@link
   * ClassLoader#getResource}, no leading slash), read into memory when the embedder is built:
   * nothing is written to disk, so no process leaves a copy behind however it ends.
   */
  public DjlEmbedderBuilder classpathModel(
      ClassLoader loader, String modelResource, String tokenizerResource) {
    Objects.requireNonNull(loader, "loader");
    Objects.requireNonNull(modelResource, "modelResource");
    Objects.requireNonNull(tokenizerResource, "tokenizerResource");
    return source(new ModelSource.Classpath(loader, modelResource, tokenizerResource));
  }

  private DjlEmbedderBuilder source(ModelSource s) {
    source = once("model source", source, s);
    return this;
  }

  /**
   * The stable model name, such as {@code all-minilm-l6-v2-q}. Required. Stores record it with the
   * prefixes' name appended (see {@link DjlEmbedder#modelId()}).
   */
  public DjlEmbedderBuilder modelId(String modelId) {
    Objects.requireNonNull(modelId, "modelId");
    if (modelId.isBlank()) {
      throw new IllegalArgumentException("modelId must not be blank");
    }
    this.modelId = once("modelId", this.modelId, modelId);
    return this;
  }

  /** How token vectors are pooled; default {@link Pooling#MEAN}. */
  public DjlEmbedderBuilder pooling(Pooling pooling) {
    this.pooling = once("pooling", this.pooling, Objects.requireNonNull(pooling, "pooling"));
    return this;
  }

  /**
   * What is put before search queries and before stored texts, as the model was trained; default
   * {@link TextPrefixes#NONE}. Part of the embedder's {@link DjlEmbedder#modelId()}.
   */
  public DjlEmbedderBuilder prefixes(TextPrefixes prefixes) {
    this.prefixes = once("prefixes", this.prefixes, Objects.requireNonNull(prefixes, "prefixes"));
    return this;
  }

  /**
   * The model's {@linkplain SimilarityCalibration similarity calibration}, which the embedder then
   * declares ({@link DjlEmbedder#similarityCalibration()}): measured for this model and its
   * prefixes, as {@link SimilarityCalibration} describes. Optional: without it the embedder
   * declares none and a service measures it. {@link DjlEmbedder#bundled} sets the bundled model's.
   */
  public DjlEmbedderBuilder similarityCalibration(SimilarityCalibration calibration) {
    this.calibration =
        once(
            "similarityCalibration",
            this.calibration,
            Objects.requireNonNull(calibration, "calibration"));
    return this;
  }

  /** Whether vectors are scaled to unit length; default {@code true}. */
  public DjlEmbedderBuilder normalize(boolean normalize) {
    this.normalize = once("normalize", this.normalize, normalize);
    return this;
  }

  /**
   * Tokens per model call and window, special tokens included; default {@value
   * DjlEmbedder#DEFAULT_MAX_TOKENS}. Must be between {@value DjlEmbedder#MIN_MAX_TOKENS} and
   * {@value DjlEmbedder#MAX_MAX_TOKENS} and within the model's position limit (512 for MiniLM), or
   * long texts fail to embed.
   */
  public DjlEmbedderBuilder maxTokens(int maxTokens) {
    int checked = EmbedderSettings.checkMaxTokens(maxTokens);
    this.maxTokens = once("maxTokens", this.maxTokens, checked);
    return this;
  }

  /**
   * The most windows of {@code maxTokens} tokens embedded per text; default {@value
   * DjlEmbedder#DEFAULT_MAX_WINDOWS}, at most {@value DjlEmbedder#MAX_MAX_WINDOWS}. A longer text
   * is embedded by its beginning and found by the rest through text search; embedding costs at most
   * this many windows per text, however long it is (see {@link DjlEmbedder}, "Long texts").
   */
  public DjlEmbedderBuilder maxWindows(int maxWindows) {
    int checked = EmbedderSettings.checkMaxWindows(maxWindows);
    this.maxWindows = once("maxWindows", this.maxWindows, checked);
    return this;
  }

  /**
   * Sequences per model call in {@link DjlEmbedder#embedAll}. If not set: {@value
   * DjlEmbedder#DEFAULT_BATCH_SIZE} for a model whose results do not depend on the batch, and one
   * for a model whose results do (the bundled int8 models), checked when the model loads (see
   * {@link DjlEmbedder}, "Determinism and batching"). A value set here is used as set.
   */
  public DjlEmbedderBuilder batchSize(int batchSize) {
    int checked = EmbedderSettings.checkPositive("batchSize", batchSize);
    this.batchSize = once("batchSize", this.batchSize, checked);
    return this;
  }

  /**
   * How many calls may run at once, each with its own DJL predictor; default the number of
   * available processors. Predictors share one model, so more costs little memory. With {@link
   * #intraOpThreads(int)} set, the batches of one {@code embedAll} also run on up to this many
   * threads at once (the caller and helper threads with predictors of their own, never more calls
   * than cores), so a long list of texts uses the cores a single call leaves idle.
   */
  public DjlEmbedderBuilder predictorPoolSize(int size) {
    int checked = EmbedderSettings.checkPositive("predictorPoolSize", size);
    this.predictorPoolSize = once("predictorPoolSize", this.predictorPoolSize, checked);
    return this;
  }

  /**
   * How many threads ONNX Runtime may use inside one model call (its intra-op threads, the calling
   * thread included); default ONNX Runtime's own, one per physical core. One thread leaves the
   * other cores to the caller and keeps the latency of a short text steady, while several threads
   * share the work of a large batch. Choose 1 for an embedder that embeds queries on a busy
   * machine, the default for bulk imports; measurements are in {@code benchmarks/RESULTS.md}.
   */
  public DjlEmbedderBuilder intraOpThreads(int threads) {
    int checked = EmbedderSettings.checkPositive("intraOpThreads", threads);
    this.intraOpThreads = once("intraOpThreads", this.intraOpThreads, checked);
    return this;
  }

  /** {@code value}, after checking that the option was not set before. */
  private static <T> T once(String option, T current, T value) {
    if (current != null) {
      throw new IllegalStateException(option + " was already set to " + current);
    }
    return value;
  }

  /**
   * Loads the model and tokenizer, checks the model's inputs and embeds a probe to learn the
   * dimension.
   *
   * @throws IllegalStateException if no model source or no model id was set
   * @throws EmbeddingException if a file is missing, unreadable or not a valid model or tokenizer;
   *     the message names the file
   */
  public DjlEmbedder build() {
    if (source == null) {
      throw new IllegalStateException(
          "no model source: call modelDirectory, modelFiles or classpathModel");
    }
    if (modelId == null) {
      throw new IllegalStateException(
          "modelId is required, so stores can refuse mixed vector spaces");
    }
    EmbedderSettings settings =
        EmbedderSettings.withDefaults(
            pooling,
            normalize,
            maxTokens,
            batchSize,
            predictorPoolSize,
            intraOpThreads,
            prefixes,
            maxWindows);
    long start = System.nanoTime();
    DjlEmbedder embedder = new DjlEmbedder(modelId, settings, source, calibration);
    LOG.info(
        "loaded embedding model {} ({} dimensions) from {} in {} ms",
        embedder.modelId(),
        embedder.dimension(),
        source,
        (System.nanoTime() - start) / 1_000_000);
    return embedder;
  }
}
