package dev.memhook.djl;

import ai.djl.Model;
import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import ai.djl.inference.Predictor;
import ai.djl.ndarray.types.Shape;
import ai.djl.translate.TranslateException;
import ai.djl.util.PairList;
import dev.memhook.api.EmbeddingException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An ONNX sentence-embedding model and its Hugging Face tokenizer, loaded through DJL's ONNX
 * Runtime engine from {@link ModelFiles}: what turns a text into token windows and a batch of
 * windows into pooled vectors.
 *
 * <p>Loading fails fast with an {@link EmbeddingException} naming the file that is missing, not a
 * model or tokenizer, or a model without the {@code input_ids} and {@code attention_mask} inputs; a
 * failed load releases whatever it had loaded. The tokenizer adds the special tokens and neither
 * truncates nor pads: {@link TokenWindows} and {@link SentenceTranslator} do that instead of the
 * fixed-length settings a {@code tokenizer.json} may carry.
 *
 * <p>Thread-safe for {@link #windows} and {@link #newPredictor}; each predictor must be used by one
 * thread at a time. {@link #close()} releases the model and the tokenizer, not the files, and must
 * come after every predictor is closed.
 */
final class LoadedModel implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LoadedModel.class);
  private static final String ENGINE = "OnnxRuntime";
  private static final String ONNX_SUFFIX = ".onnx";

  private final String modelId;
  private final ModelFiles.Input modelFile;
  private final HuggingFaceTokenizer tokenizer;
  private final Model model;
  private final SentenceTranslator translator;

  private LoadedModel(
      String modelId,
      ModelFiles.Input modelFile,
      HuggingFaceTokenizer tokenizer,
      Model model,
      Pooling pooling) {
    this.modelId = modelId;
    this.modelFile = modelFile;
    this.tokenizer = tokenizer;
    this.model = model;
    this.translator =
        new SentenceTranslator(pooling, inputNames(model, modelFile), padId(tokenizer));
  }

  /**
   * Loads the tokenizer and the model, first turning DJL's offline switch on (see {@link
   * DjlRuntime}); the process's first load keeps DJL's GPU probes out of the log (see {@link
   * GpuProbeLogs}), and then deletes the copies of its libraries ONNX Runtime left in the temporary
   * directory (see {@link OrtLibraryCopies}); a model loaded from a stream leaves nothing there
   * either (see {@link #removeEmptyModelDirectory}).
   *
   * @param intraOpThreads ONNX Runtime's threads per model call, or empty for its default
   * @throws EmbeddingException if a file cannot be loaded or the model lacks the inputs above
   */
  static LoadedModel load(
      ModelFiles files, String modelId, Pooling pooling, OptionalInt intraOpThreads) {
    DjlRuntime.ensureOffline();
    return GpuProbeLogs.duringLoad(() -> loadBoth(files, modelId, pooling, intraOpThreads));
  }

  private static LoadedModel loadBoth(
      ModelFiles files, String modelId, Pooling pooling, OptionalInt intraOpThreads) {
    HuggingFaceTokenizer tokenizer = loadTokenizer(files.tokenizer);
    Model model = null;
    try {
      model = loadModel(files.model, modelId, intraOpThreads);
      LoadedModel loaded = new LoadedModel(modelId, files.model, tokenizer, model, pooling);
      OrtLibraryCopies.removeLoaded();
      return loaded;
    } catch (RuntimeException e) {
      if (model != null) {
        model.close();
      }
      tokenizer.close();
      throw e;
    }
  }

  /** A new predictor on this model; the caller closes it before closing this. */
  Predictor<TokenBatch, float[][]> newPredictor() {
    return model.newPredictor(translator);
  }

  /**
   * Characters tokenised per token a text may keep: a bound on how much text can matter, so a text
   * of millions of characters is not tokenised whole to keep its first windows. Generous: a
   * WordPiece or SentencePiece token averages four to five characters of English and fewer of code
   * or CJK; a run of longer tokens is embedded by a shorter prefix.
   */
  static final int CHARS_PER_TOKEN = 8;

  /**
   * The first {@code maxWindows} token windows of {@code prefix + text}, special tokens included,
   * with the prefix's tokens at the start of every window (see {@link TokenWindows}). Only the
   * first {@code maxChars} characters of {@code text} are tokenised (never splitting a surrogate
   * pair).
   *
   * @param prefix a query or document prefix, empty or ending in whitespace (see {@link
   *     TextPrefixes})
   * @throws EmbeddingException if the tokenizer fails, or {@code maxTokens} leaves no room for
   *     content
   */
  List<long[]> windows(String prefix, String text, int maxTokens, int maxWindows, int maxChars) {
    Encoding encoding = encode(prefix + cut(text, maxChars), true);
    // The prefix ends in whitespace, so it tokenises the same alone as before the text.
    int prefixTokens = prefix.isEmpty() ? 0 : encode(prefix, false).getIds().length;
    List<long[]> windows =
        TokenWindows.split(
            encoding.getIds(), encoding.getSpecialTokenMask(), maxTokens, prefixTokens);
    return windows.size() > maxWindows ? windows.subList(0, maxWindows) : windows;
  }

  /** The first {@code maxChars} characters of {@code text}, one fewer rather than half a pair. */
  static String cut(String text, int maxChars) {
    if (text.length() <= maxChars) {
      return text;
    }
    int end = Character.isHighSurrogate(text.charAt(maxChars - 1)) ? maxChars - 1 : maxChars;
    return text.substring(0, end);
  }

  private Encoding encode(String text, boolean addSpecialTokens) {
    try {
      return tokenizer.encode(text, addSpecialTokens, false);
    } catch (RuntimeException e) {
      throw new EmbeddingException(
          "tokenizer failed for model " + modelId + ": " + e.getMessage(), e);
    }
  }

  /**
   * One pooled, un-normalised vector per sequence of {@code batch}, in batch order.
   *
   * @throws EmbeddingException if the engine fails; the message names the batch and model file
   */
  float[][] predict(Predictor<TokenBatch, float[][]> predictor, TokenBatch batch) {
    try {
      return predictor.predict(batch);
    } catch (TranslateException | RuntimeException e) {
      throw new EmbeddingException(
          "model "
              + modelId
              + " failed on a batch of "
              + batch.size()
              + " sequences of up to "
              + batch.maxLength()
              + " tokens; check the model "
              + modelFile.describe()
              + ": "
              + e.getMessage(),
          e);
    }
  }

  /** Releases the model and the tokenizer. Call once, after closing every predictor. */
  @Override
  public void close() {
    try {
      model.close();
    } finally {
      tokenizer.close();
    }
  }

  private static HuggingFaceTokenizer loadTokenizer(ModelFiles.Input input) {
    // Our own windowing and padding replace the file's fixed-length settings.
    Map<String, String> options =
        Map.of("addSpecialTokens", "true", "truncation", "false", "padding", "false");
    try (InputStream in = input.open()) {
      return HuggingFaceTokenizer.newInstance(in, options);
    } catch (Exception e) {
      throw new EmbeddingException(
          "could not load tokenizer "
              + input.describe()
              + "; check that it is a Hugging Face"
              + " tokenizer.json: "
              + e.getMessage(),
          e);
    }
  }

  private static Model loadModel(
      ModelFiles.Input input, String modelId, OptionalInt intraOpThreads) {
    Model model;
    try {
      model = Model.newInstance(modelId, ENGINE);
    } catch (RuntimeException e) {
      throw new EmbeddingException(
          "could not start DJL's ONNX Runtime engine; check that ai.djl.onnxruntime:onnxruntime-engine"
              + " and com.microsoft.onnxruntime:onnxruntime are on the class path: "
              + e.getMessage(),
          e);
    }
    try {
      Map<String, String> options =
          intraOpThreads.isPresent()
              ? Map.of("intraOpNumThreads", Integer.toString(intraOpThreads.getAsInt()))
              : Map.of();
      if (input.file() != null) {
        model.load(input.file().toAbsolutePath().getParent(), input.baseName(ONNX_SUFFIX), options);
      } else {
        try (InputStream in = input.open()) { // read into memory: nothing is written to disk
          model.load(in, options);
        }
        removeEmptyModelDirectory(model);
      }
      return model;
    } catch (Exception e) {
      model.close();
      throw new EmbeddingException(
          "could not load ONNX model "
              + input.describe()
              + "; check that it is a valid ONNX model: "
              + e.getMessage(),
          e);
    }
  }

  /** How DJL's ONNX Runtime engine names the directory of a model loaded from a stream. */
  static final String STREAM_MODEL_DIRECTORY_PREFIX = "ort-model";

  /**
   * Deletes the empty directory DJL's engine made for a model loaded from a stream.
   *
   * <p>Design note: {@code OrtModel.load(InputStream, Map)} creates a new directory {@code
   * ort-model<random>} under {@code java.io.tmpdir} as the model's path, writes nothing to it (the
   * session is made from the bytes) and only marks it for deletion at exit. So every load left one
   * empty directory behind in a process that does not exit normally (a coding agent's hook killed
   * at its timeout), and one more entry on the JVM's list of files to delete at exit in a process
   * that loads models again and again. Nothing reads the directory after the load. Only an empty
   * directory named as the engine names it is deleted; anything else is left as it is.
   */
  private static void removeEmptyModelDirectory(Model model) {
    Path dir = model.getModelPath();
    Path name = dir == null ? null : dir.getFileName();
    if (name == null
        || !name.toString().startsWith(STREAM_MODEL_DIRECTORY_PREFIX)
        || !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try {
      Files.delete(dir); // fails, and changes nothing, if the directory is not empty
    } catch (IOException | RuntimeException e) {
      LOG.debug("left DJL's model directory {}; it is deleted at exit: {}", dir, e.toString());
    }
  }

  private static Set<String> inputNames(Model model, ModelFiles.Input file) {
    PairList<String, Shape> inputs = model.describeInput();
    Set<String> names = inputs == null ? Set.of() : new HashSet<>(inputs.keys());
    if (!names.contains(SentenceTranslator.INPUT_IDS)
        || !names.contains(SentenceTranslator.ATTENTION_MASK)) {
      throw new EmbeddingException(
          "ONNX model "
              + file.describe()
              + " has inputs "
              + names
              + "; expected "
              + SentenceTranslator.INPUT_IDS
              + " and "
              + SentenceTranslator.ATTENTION_MASK);
    }
    return names;
  }

  private static long padId(HuggingFaceTokenizer tokenizer) {
    // Padded positions are masked out, so any valid id works; the empty string's first id
    // ([CLS]) is always in the vocabulary.
    long[] ids = tokenizer.encode("", true, false).getIds();
    return ids.length == 0 ? 0 : ids[0];
  }
}
