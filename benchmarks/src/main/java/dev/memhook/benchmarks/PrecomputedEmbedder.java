package dev.memhook.benchmarks;

import dev.memhook.api.EmbeddingException;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * An {@link Embedder} that returns vectors computed in advance for known texts, so a benchmark
 * measures recall and not a model. It implements the public SPI only.
 *
 * <p>Unknown text is an error ({@link EmbeddingException}), not a made-up vector: a benchmark that
 * asks for a text it did not register is wrong. One exception is asked for by name ({@link
 * Builder#unrelatedForUnknown()}): the service embeds text of its own (the relevance gate's sample
 * of unrelated sentences, once), which a synthetic corpus cannot know; such text gets a fixed
 * pseudo-random unit vector per text, unrelated to every registered one, as unrelated text is.
 * Immutable after {@link Builder#build()}; thread-safe.
 */
public final class PrecomputedEmbedder implements Embedder {

  private final Map<String, Embedding> vectors;
  private final String modelId;
  private final int dimension;
  private final boolean unrelatedForUnknown;

  private PrecomputedEmbedder(
      Map<String, Embedding> vectors, String modelId, int dimension, boolean unrelatedForUnknown) {
    this.vectors = vectors;
    this.modelId = modelId;
    this.dimension = dimension;
    this.unrelatedForUnknown = unrelatedForUnknown;
  }

  /** A builder for an embedder of {@code dimension} dimensions named {@code modelId}. */
  public static Builder builder(String modelId, int dimension) {
    return new Builder(modelId, dimension);
  }

  @Override
  public Embedding embed(String text) {
    Objects.requireNonNull(text, "text");
    Embedding e = vectors.get(text);
    if (e == null && unrelatedForUnknown) {
      java.util.Random random = new java.util.Random(text.hashCode());
      float[] v = new float[dimension];
      for (int i = 0; i < dimension; i++) {
        v[i] = (float) random.nextGaussian();
      }
      return Embedding.of(v).normalized();
    }
    if (e == null) {
      throw new EmbeddingException(
          "no precomputed vector for text '"
              + (text.length() > 60 ? text.substring(0, 60) + "…" : text)
              + "'; register it in the benchmark setup");
    }
    return e;
  }

  @Override
  public int dimension() {
    return dimension;
  }

  @Override
  public String modelId() {
    return modelId;
  }

  /** The number of known texts. */
  public int size() {
    return vectors.size();
  }

  @Override
  public String toString() {
    return "PrecomputedEmbedder[" + modelId + ", " + vectors.size() + " texts]";
  }

  /** Collects text → vector pairs. Not thread-safe. */
  public static final class Builder {
    private final Map<String, Embedding> vectors = new HashMap<>();
    private final String modelId;
    private final int dimension;
    private boolean unrelatedForUnknown;

    private Builder(String modelId, int dimension) {
      this.modelId = Objects.requireNonNull(modelId, "modelId");
      if (modelId.isBlank()) {
        throw new IllegalArgumentException("modelId must not be blank");
      }
      if (dimension < 1) {
        throw new IllegalArgumentException("dimension must be positive, got " + dimension);
      }
      this.dimension = dimension;
    }

    /**
     * Registers the vector of {@code text}; the last registration of a text wins.
     *
     * @throws IllegalArgumentException if the vector's dimension is not the embedder's
     */
    public Builder put(String text, float[] vector) {
      Objects.requireNonNull(text, "text");
      Objects.requireNonNull(vector, "vector");
      if (vector.length != dimension) {
        throw new IllegalArgumentException(
            "vector has " + vector.length + " dimensions, expected " + dimension);
      }
      vectors.put(text, Embedding.of(vector));
      return this;
    }

    /**
     * Embeds text nobody registered as unrelated text (a fixed pseudo-random unit vector per text)
     * instead of failing: for the text the service embeds of its own, the relevance gate's sample.
     */
    public Builder unrelatedForUnknown() {
      this.unrelatedForUnknown = true;
      return this;
    }

    /** Builds the embedder. */
    public PrecomputedEmbedder build() {
      return new PrecomputedEmbedder(Map.copyOf(vectors), modelId, dimension, unrelatedForUnknown);
    }
  }
}
