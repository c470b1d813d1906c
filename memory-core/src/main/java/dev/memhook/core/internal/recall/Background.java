package dev.memhook.core.internal.recall;

import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.SimilarityCalibration;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * What "unrelated" looks like to the embedding model in use: a fixed sample of ordinary sentences
 * about many things (code, operations, work, everyday life), embedded once as documents with the
 * service's own embedder. A query's cosines to the sample are how close that model puts this query
 * to text that does not answer it; the gate asks a memory to be clearly closer than that, so the
 * same rule holds for a model whose cosines run high or low, for a short vague question (close to
 * everything) and a long specific one, and for a scope of three memories or three million.
 *
 * <p>The sample is not tuned to any data set: its sentences are deliberately spread over topics and
 * shapes (statements, requests, questions, chatter), so no one topic dominates it.
 *
 * <p>The sample also gives the model's {@linkplain SimilarityCalibration calibration} when the
 * embedder declares none: the cosines from each sentence's query side to every other sentence's
 * document side, their mean and standard deviation. That costs one query embedding per sentence,
 * once, so an embedder that declares its calibration (every bundled model) is not asked.
 *
 * <p>Thread-safe: the embeddings and the calibration are computed once, on first use, under the
 * instance's monitor, and read-only afterwards.
 */
final class Background {

  /** The sample; see the class comment. */
  static final List<String> SENTENCES =
      List.of(
          "The build takes about four minutes on a clean checkout.",
          "Can you rename this variable to something clearer?",
          "We had pasta for dinner and watched a film.",
          "The train was twenty minutes late this morning.",
          "Please add a unit test for the empty list case.",
          "The meeting moved to the small room on the third floor.",
          "I think the dog needs a longer walk today.",
          "The logs are rotated every night and kept for a week.",
          "How do I undo the last commit without losing my changes?",
          "The weather should clear up by the afternoon.",
          "She started learning the piano last year.",
          "The invoice was sent to the wrong address.",
          "Let me check the configuration file first.",
          "Our office is closed on public holidays.",
          "The cache is cleared whenever the service restarts.",
          "He prefers to cycle to work when it is dry.",
          "The report is due at the end of the quarter.",
          "The function returns null when the key is missing.",
          "We went hiking in the mountains over the weekend.",
          "The printer on the second floor is out of toner.",
          "What time does the shop open on Sundays?",
          "The database migration failed halfway through.",
          "My sister is moving to a new flat next month.",
          "The font on the landing page is too small.",
          "Tickets for the concert sold out in an hour.",
          "The server responds with a timeout after thirty seconds.",
          "I forgot my umbrella at the cafe.",
          "The new hire starts on Monday and needs a laptop.",
          "The recipe calls for two eggs and a cup of flour.",
          "We should update the dependencies before the release.",
          "The children are on school holidays next week.",
          "The API returns a list of orders sorted by date.",
          "Thanks, that looks good to me.",
          "The garden needs watering every other day.",
          "The password reset email never arrived.",
          "Our team has a retrospective every two weeks.",
          "The museum has a new exhibition about ancient maps.",
          "The script reads a CSV file and writes a summary.",
          "I am not sure which option is better here.",
          "The car needs a service before the long drive.",
          "The dashboard shows the number of active users.",
          "We celebrated her birthday with a small party.",
          "The tests pass locally but not on the build server.",
          "The bakery around the corner sells great bread.",
          "The contract renews automatically every year.",
          "Could you explain how this regular expression works?",
          "The flight to Madrid was delayed by two hours.",
          "The container image is built from a slim base.",
          "He is training for a half marathon in the spring.",
          "The documentation has a section on installation.",
          "The heating in the flat stopped working last night.",
          "Memory usage grows slowly until the process restarts.",
          "We adopted a cat from the shelter last summer.",
          "The product team wants the feature by Friday.",
          "The library was updated to fix a security issue.",
          "I usually drink tea rather than coffee.",
          "The spreadsheet has a tab for each month.",
          "The queue is processed by three worker threads.",
          "The park is busy on sunny afternoons.",
          "The form does not validate the phone number.",
          "They are planning a trip to the coast.",
          "The branch was merged after two approvals.",
          "The lecture covered the history of the printing press.",
          "The error message does not say which file is missing.");

  /** The least spread a measured calibration reports: a model without any would divide by 0. */
  static final double MIN_DEVIATION = 1e-3;

  private final Embedder embedder;
  private volatile float[][] vectors;
  private volatile SimilarityCalibration calibration;

  Background(Embedder embedder) {
    this.embedder = Objects.requireNonNull(embedder, "embedder");
  }

  /** How close the model puts {@code query} to unrelated text: its cosines to the sample. */
  Closeness closeness(Embedding query) {
    float[][] sample = sample();
    float[] q = query.normalized().toArray();
    double[] cosines = new double[sample.length];
    for (int i = 0; i < sample.length; i++) {
      cosines[i] = dot(q, sample[i]);
    }
    return Closeness.of(cosines);
  }

  /**
   * How the model scores unrelated text: the embedder's declaration, else measured over the sample
   * (see the class comment).
   */
  SimilarityCalibration calibration() {
    SimilarityCalibration c = calibration;
    if (c == null) {
      synchronized (this) {
        c = calibration;
        if (c == null) {
          c = embedder.similarityCalibration().orElseGet(this::measure);
          calibration = c;
        }
      }
    }
    return c;
  }

  private SimilarityCalibration measure() {
    float[][] documents = sample();
    double[] cosines = new double[documents.length * (documents.length - 1)];
    int n = 0;
    for (int i = 0; i < documents.length; i++) {
      float[] q = embedder.embedQuery(SENTENCES.get(i)).normalized().toArray();
      for (int j = 0; j < documents.length; j++) {
        if (j != i) {
          cosines[n++] = dot(q, documents[j]);
        }
      }
    }
    Closeness all = Closeness.of(cosines);
    // a model that maps every sentence to one vector has no spread; the floor keeps the record
    // valid
    return new SimilarityCalibration(
        Math.max(-1, Math.min(1, all.mean())), Math.max(MIN_DEVIATION, all.deviation()));
  }

  private static double dot(float[] a, float[] b) {
    double dot = 0;
    for (int d = 0; d < a.length && d < b.length; d++) {
      dot += a[d] * b[d];
    }
    return dot;
  }

  private float[][] sample() {
    float[][] s = vectors;
    if (s == null) {
      synchronized (this) {
        s = vectors;
        if (s == null) {
          List<Embedding> embedded = embedder.embedDocuments(SENTENCES);
          s = new float[embedded.size()][];
          for (int i = 0; i < s.length; i++) {
            s[i] = embedded.get(i).normalized().toArray();
          }
          vectors = s;
        }
      }
    }
    return s;
  }

  /**
   * A query's cosines to the background sample, summarised.
   *
   * @param mean their mean
   * @param deviation their standard deviation
   * @param high the {@value #HIGH_RANK}th highest: what the closest unrelated text reaches, without
   *     letting the one sentence nearest by chance decide
   */
  record Closeness(double mean, double deviation, double high) {

    /** Which highest cosine {@link #high} is: the third, of a sample of 64. */
    static final int HIGH_RANK = 3;

    static Closeness of(double[] cosines) {
      double[] sorted = cosines.clone();
      Arrays.sort(sorted);
      double mean = Arrays.stream(sorted).average().orElse(0);
      double var = 0;
      for (double c : sorted) {
        var += (c - mean) * (c - mean);
      }
      double sd = sorted.length > 1 ? Math.sqrt(var / (sorted.length - 1)) : 0;
      double high = sorted.length == 0 ? 0 : sorted[Math.max(0, sorted.length - HIGH_RANK)];
      return new Closeness(mean, sd, high);
    }
  }
}
