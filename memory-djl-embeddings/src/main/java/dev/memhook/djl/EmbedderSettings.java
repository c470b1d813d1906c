package dev.memhook.djl;

import java.util.Objects;
import java.util.OptionalInt;

/**
 * The options of one {@link DjlEmbedder} with the defaults applied, and the checks that {@link
 * DjlEmbedderBuilder} applies to each option as it is set. Immutable.
 *
 * @param pooling how token vectors are pooled; not null
 * @param normalize whether vectors are scaled to unit length
 * @param maxTokens ids per window, special tokens included
 * @param batchSize sequences per model call
 * @param predictorPoolSize calls that may run at once
 * @param intraOpThreads ONNX Runtime's threads per model call, or empty for its default; not null
 * @param prefixes what is put before queries and documents; not null
 * @param maxWindows the most windows of one text that are embedded (the rest is not)
 * @param batchSizeChosen whether the host set {@code batchSize}; if not, the embedder may embed one
 *     sequence per call instead (see {@link EmbeddingEngine#open})
 * @throws IllegalArgumentException if a number is out of range (see the checks below)
 */
record EmbedderSettings(
    Pooling pooling,
    boolean normalize,
    int maxTokens,
    int batchSize,
    int predictorPoolSize,
    OptionalInt intraOpThreads,
    TextPrefixes prefixes,
    int maxWindows,
    boolean batchSizeChosen) {

  EmbedderSettings {
    Objects.requireNonNull(pooling, "pooling");
    Objects.requireNonNull(intraOpThreads, "intraOpThreads");
    Objects.requireNonNull(prefixes, "prefixes");
    checkMaxTokens(maxTokens);
    checkPositive("batchSize", batchSize);
    checkPositive("predictorPoolSize", predictorPoolSize);
    intraOpThreads.ifPresent(threads -> checkPositive("intraOpThreads", threads));
    checkMaxWindows(maxWindows);
  }

  /**
   * The settings for the builder's options, where {@code null} stands for an option not set and
   * gets the default documented on the builder.
   */
  static EmbedderSettings withDefaults(
      Pooling pooling,
      Boolean normalize,
      Integer maxTokens,
      Integer batchSize,
      Integer predictorPoolSize,
      Integer intraOpThreads,
      TextPrefixes prefixes,
      Integer maxWindows) {
    return new EmbedderSettings(
        pooling == null ? Pooling.MEAN : pooling,
        normalize == null || normalize,
        maxTokens == null ? DjlEmbedder.DEFAULT_MAX_TOKENS : maxTokens,
        batchSize == null ? DjlEmbedder.DEFAULT_BATCH_SIZE : batchSize,
        predictorPoolSize == null ? Runtime.getRuntime().availableProcessors() : predictorPoolSize,
        intraOpThreads == null ? OptionalInt.empty() : OptionalInt.of(intraOpThreads),
        prefixes == null ? TextPrefixes.NONE : prefixes,
        maxWindows == null ? DjlEmbedder.DEFAULT_MAX_WINDOWS : maxWindows,
        batchSize != null);
  }

  /**
   * {@code maxWindows} itself.
   *
   * @throws IllegalArgumentException if it is outside 1 to {@link DjlEmbedder#MAX_MAX_WINDOWS}; the
   *     message names the value
   */
  static int checkMaxWindows(int maxWindows) {
    if (maxWindows < 1 || maxWindows > DjlEmbedder.MAX_MAX_WINDOWS) {
      throw new IllegalArgumentException(
          "maxWindows must be between 1 and "
              + DjlEmbedder.MAX_MAX_WINDOWS
              + ", got "
              + maxWindows);
    }
    return maxWindows;
  }

  /**
   * The most characters of one text that are tokenised: {@link LoadedModel#CHARS_PER_TOKEN} per
   * token of the windows embedded, so tokenising costs no more than embedding.
   */
  int maxChars() {
    return (int)
        Math.min(Integer.MAX_VALUE, (long) maxWindows * maxTokens * LoadedModel.CHARS_PER_TOKEN);
  }

  /**
   * {@code maxTokens} itself.
   *
   * @throws IllegalArgumentException if it is outside {@link DjlEmbedder#MIN_MAX_TOKENS} to {@link
   *     DjlEmbedder#MAX_MAX_TOKENS}; the message names the value
   */
  static int checkMaxTokens(int maxTokens) {
    if (maxTokens < DjlEmbedder.MIN_MAX_TOKENS || maxTokens > DjlEmbedder.MAX_MAX_TOKENS) {
      throw new IllegalArgumentException(
          "maxTokens must be between "
              + DjlEmbedder.MIN_MAX_TOKENS
              + " and "
              + DjlEmbedder.MAX_MAX_TOKENS
              + ", got "
              + maxTokens);
    }
    return maxTokens;
  }

  /**
   * {@code value} itself.
   *
   * @throws IllegalArgumentException if it is not positive; the message names the option and value
   */
  static int checkPositive(String option, int value) {
    if (value < 1) {
      throw new IllegalArgumentException(option + " must be positive, got " + value);
    }
    return value;
  }
}
