package dev.memhook.core;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.hash.HashFunction;
import com.google.common.hash.Hashing;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import dev.memhook.lucene.internal.analysis.SimpleTokens;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

/**
 * A deterministic, dependency-free embedder by feature hashing: each word (and each part of a
 * camelCase or snake_case identifier), each pair of neighbouring words and each character trigram
 * of a word is hashed to a signed position of the vector; the sum is L2-normalised. Texts that
 * share words and word pieces get similar vectors; it knows nothing of synonyms, so it is the
 * fallback when no model is available, and what the tests use.
 *
 * <p>Its cosine scale differs from a sentence model's: the default relevance-gate floors of {@link
 * RecallOptions} are calibrated for the local MiniLM model and are too strict for this embedder:
 * they reject the evidence of many on-topic questions (see benchmarks/RESULTS.md, section 5). Lower
 * {@link RecallOptions.Builder#evidenceFloors} and {@link RecallOptions.Builder#minCosine} when
 * running on it, or add {@code memory-djl-embeddings}.
 *
 * <p>Text with no word (empty, whitespace, punctuation only) gets one fixed unit vector, the same
 * for all such texts, so it is never a zero vector (cosine is undefined for zero vectors).
 *
 * <p>Immutable and thread-safe. Its {@link #modelId()} includes the dimension and the feature
 * version, so a store built with one configuration refuses another.
 */
public final class HashingEmbedder implements Embedder {

  /** The default dimension ({@value}): enough to keep collisions rare for sentence-sized text. */
  public static final int DEFAULT_DIMENSION = 256;

  private static final HashFunction HASH = Hashing.murmur3_32_fixed(0x6d656d68);
  private static final float WORD_WEIGHT = 1.0f;
  private static final float PAIR_WEIGHT = 0.5f;
  private static final float TRIGRAM_WEIGHT = 0.25f;

  private final int dimension;

  private HashingEmbedder(int dimension) {
    this.dimension = dimension;
  }

  /** An embedder with {@value #DEFAULT_DIMENSION} dimensions. */
  public static HashingEmbedder create() {
    return new HashingEmbedder(DEFAULT_DIMENSION);
  }

  /**
   * An embedder with {@code dimension} dimensions.
   *
   * @throws IllegalArgumentException if {@code dimension} is not in [16, 4096]
   */
  public static HashingEmbedder withDimension(int dimension) {
    checkArgument(
        dimension >= 16 && dimension <= 4096, "dimension must be in [16, 4096], got %s", dimension);
    return new HashingEmbedder(dimension);
  }

  @Override
  public Embedding embed(String text) {
    Objects.requireNonNull(text, "text");
    float[] v = new float[dimension];
    List<String> tokens = SimpleTokens.tokenize(text);
    if (tokens.isEmpty()) {
      add(v, "\u0000empty", 1f);
    }
    String previous = null;
    for (String token : tokens) {
      add(v, "w:" + token, WORD_WEIGHT);
      if (previous != null) {
        add(v, "p:" + previous + ' ' + token, PAIR_WEIGHT);
      }
      if (token.length() > 3) {
        String padded = '^' + token + '$';
        for (int i = 0; i + 3 <= padded.length(); i++) {
          add(v, "c:" + padded.substring(i, i + 3), TRIGRAM_WEIGHT);
        }
      }
      previous = token;
    }
    double norm = 0;
    for (float x : v) {
      norm += x * x;
    }
    if (norm == 0) {
      // every feature cancelled out: fall back to the fixed vector so cosine stays defined
      add(v, "\u0000empty", 1f);
      norm = 1;
    }
    float scale = (float) (1 / Math.sqrt(norm));
    for (int i = 0; i < v.length; i++) {
      v[i] *= scale;
    }
    return Embedding.of(v);
  }

  private void add(float[] v, String feature, float weight) {
    int h = HASH.hashString(feature, StandardCharsets.UTF_8).asInt();
    int index = Math.floorMod(h, dimension);
    v[index] += (h & 0x8000_0000) == 0 ? weight : -weight;
  }

  @Override
  public int dimension() {
    return dimension;
  }

  @Override
  public String modelId() {
    return "memhook-hashing-v1-d" + dimension;
  }

  @Override
  public String toString() {
    return "HashingEmbedder[" + modelId() + "]";
  }
}
