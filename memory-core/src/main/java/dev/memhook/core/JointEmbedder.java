package dev.memhook.core;

import dev.memhook.api.EmbeddingException;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.SimilarityCalibration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

/**
 * Two embedders used as one: a text's vector is the first model's unit vector and the second's side
 * by side, scaled so that the cosine of two joint vectors is a weighted mean of the two models'
 * cosines. Two small models trained on different data miss different paraphrases, and together they
 * find some that neither finds alone; what it costs is both models' work for every text embedded
 * (the second part runs on a virtual thread of its own while the caller's thread runs the first, so
 * a query waits for the slower model, not for both) and vectors as long as both together. Whether a
 * pair is worth it is a measurement, not a rule: see {@code benchmarks/RESULTS.md}, which measures
 * the bundled MiniLM with the bundled E5.
 *
 * <h2>Weights</h2>
 *
 * Models score on different scales: E5 gives unrelated text high cosines in a narrow band, MiniLM
 * low ones in a band about twice as wide, so in a plain mean MiniLM's wider swings would decide.
 * When both parts declare a {@link Embedder#similarityCalibration()}, each part's weight is the
 * inverse of its unrelated spread, normalised to sum to one: the joint cosine then orders memories
 * as the mean of the two cosines measured in their own model's spreads would. When either part
 * declares none, the weights are one half each. The weights are fixed when the joint embedder is
 * made, and {@link #modelId()} records the first part's ({@code joint(first,second;0.282)}), so
 * vectors made with other weights are another space.
 *
 * <h2>Contract</h2>
 *
 * Each side keeps its own query and document conventions: a query goes through both parts' {@link
 * Embedder#embedQuery}, a stored text through both parts' {@link Embedder#embedDocuments}. The
 * model id names both parts in order, so a store built with one pair refuses another pair, the same
 * pair in the other order, or either model alone.
 *
 * <p>It declares no {@link #similarityCalibration()}: the weighted mean of two cosines has a known
 * mean under unrelated text but a spread that depends on how the two models' errors correlate, so
 * the service measures it over its own sample, as it does for any embedder that declares none.
 *
 * <p>Thread-safe if both parts are (the {@link Embedder} contract asks that of every embedder).
 * Null text or a null list is rejected with a {@link NullPointerException}; a part that answers a
 * vector of another length than its {@link Embedder#dimension()}, or a different number of vectors
 * than texts, is reported as an {@link EmbeddingException}. {@link #close()} closes both parts, the
 * second even when closing the first fails.
 */
public final class JointEmbedder implements Embedder {

  /** The name of the threads that run the second part. */
  static final String THREAD = "memhook-joint-embedder";

  private final Embedder first;
  private final Embedder second;
  private final double firstWeight;
  private final float firstScale;
  private final float secondScale;

  private JointEmbedder(Embedder first, Embedder second, double firstWeight) {
    this.first = first;
    this.second = second;
    this.firstWeight = firstWeight;
    this.firstScale = (float) Math.sqrt(firstWeight);
    this.secondScale = (float) Math.sqrt(1 - firstWeight);
  }

  /**
   * {@code first} and {@code second} as one embedder, weighted as the class description says, which
   * owns them from now on and closes them when it is closed.
   *
   * @throws NullPointerException if either is null
   * @throws IllegalArgumentException if both are the same instance (its vector twice would only
   *     double the space it takes)
   */
  public static JointEmbedder of(Embedder first, Embedder second) {
    Objects.requireNonNull(first, "first");
    Objects.requireNonNull(second, "second");
    if (first == second) {
      throw new IllegalArgumentException("a joint embedder needs two different embedders");
    }
    Optional<SimilarityCalibration> a = first.similarityCalibration();
    Optional<SimilarityCalibration> b = second.similarityCalibration();
    double weight = 0.5;
    if (a.isPresent() && b.isPresent()) {
      double x = 1 / a.get().unrelatedDeviation();
      double y = 1 / b.get().unrelatedDeviation();
      weight = x / (x + y);
    }
    return new JointEmbedder(first, second, weight);
  }

  /** The first part's weight in a joint cosine; the second's is one less this. */
  public double firstWeight() {
    return firstWeight;
  }

  @Override
  public Embedding embed(String text) {
    Objects.requireNonNull(text, "text");
    Both<Embedding> both = both(part -> part.embed(text));
    return join(both.first, both.second);
  }

  /** The same as {@link #embedDocuments}: both embed stored texts. */
  @Override
  public List<Embedding> embedAll(List<String> texts) {
    return embedDocuments(texts);
  }

  @Override
  public List<Embedding> embedDocuments(List<String> texts) {
    Objects.requireNonNull(texts, "texts");
    for (String text : texts) {
      Objects.requireNonNull(text, "texts holds a null");
    }
    Both<List<Embedding>> both = both(part -> part.embedDocuments(texts));
    List<Embedding> a = counted(first, both.first, texts.size());
    List<Embedding> b = counted(second, both.second, texts.size());
    List<Embedding> out = new ArrayList<>(texts.size());
    for (int i = 0; i < texts.size(); i++) {
      out.add(join(a.get(i), b.get(i)));
    }
    return out;
  }

  @Override
  public Embedding embedQuery(String text) {
    Objects.requireNonNull(text, "text");
    Both<Embedding> both = both(part -> part.embedQuery(text));
    return join(both.first, both.second);
  }

  /** The sum of the two parts' dimensions. */
  @Override
  public int dimension() {
    return first.dimension() + second.dimension();
  }

  /**
   * {@code joint(}first's id{@code ,}second's id{@code ;}the first's weight to three decimals{@code
   * )}.
   */
  @Override
  public String modelId() {
    return String.format(
        Locale.ROOT, "joint(%s,%s;%.3f)", first.modelId(), second.modelId(), firstWeight);
  }

  /** Empty: the service measures it (see the class description). */
  @Override
  public Optional<SimilarityCalibration> similarityCalibration() {
    return Optional.empty();
  }

  @Override
  public void close() {
    try {
      first.close();
    } catch (RuntimeException e) {
      try {
        second.close();
      } catch (RuntimeException f) {
        e.addSuppressed(f);
      }
      throw e;
    }
    second.close();
  }

  @Override
  public String toString() {
    return "JointEmbedder[" + modelId() + "]";
  }

  /** What the two parts answered to one call. */
  private record Both<T>(T first, T second) {}

  /**
   * {@code call} on both parts at once: the second on a new virtual thread (nothing to pool or shut
   * down), the first on the caller's. What either throws reaches the caller as it was thrown, the
   * first part's first.
   */
  private <T> Both<T> both(Function<Embedder, T> call) {
    CompletableFuture<T> b =
        CompletableFuture.supplyAsync(
            () -> call.apply(second), task -> Thread.ofVirtual().name(THREAD).start(task));
    T a = call.apply(first);
    try {
      return new Both<>(a, b.join());
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error r) {
        throw r;
      }
      throw e;
    }
  }

  private Embedding join(Embedding a, Embedding b) {
    float[] x = unit(first, a);
    float[] y = unit(second, b);
    float[] out = new float[x.length + y.length];
    for (int i = 0; i < x.length; i++) {
      out[i] = x[i] * firstScale;
    }
    for (int i = 0; i < y.length; i++) {
      out[x.length + i] = y[i] * secondScale;
    }
    return Embedding.of(out);
  }

  private static float[] unit(Embedder part, Embedding e) {
    if (e == null || e.dimension() != part.dimension()) {
      throw new EmbeddingException(
          part.modelId()
              + " answered "
              + (e == null ? "no vector" : "a vector of " + e.dimension() + " dimensions")
              + " where it declares "
              + part.dimension());
    }
    return e.normalized().toArray();
  }

  private static List<Embedding> counted(Embedder part, List<Embedding> vectors, int texts) {
    if (vectors == null || vectors.size() != texts) {
      throw new EmbeddingException(
          part.modelId()
              + " answered "
              + (vectors == null ? "no list" : vectors.size() + " vectors")
              + " for "
              + texts
              + " texts");
    }
    return vectors;
  }
}
