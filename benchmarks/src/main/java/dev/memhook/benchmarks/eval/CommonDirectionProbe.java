package dev.memhook.benchmarks.eval;

import dev.memhook.api.Origin;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import dev.memhook.benchmarks.BenchEmbedders;
import dev.memhook.benchmarks.CommandLine;
import dev.memhook.benchmarks.eval.EvalData.EvalMemory;
import dev.memhook.benchmarks.eval.EvalData.EvalQuery;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Measures, offline, what taking a scope's common direction out of the vector signal would give: a
 * sentence model's vectors of one scope's memories share a direction (their mean is far from zero),
 * so a memory that says little in particular sits close to every question, and the direction a
 * question shares with the whole scope counts as much as what it shares with its answer. Each
 * conversation's memories are embedded (each after its speaker's name, as the memory's embedded
 * text has it), their mean {@code mu} is taken, and every question is scored against every memory
 * of its conversation, by brute force, in the ways {@link Variant} lists. No store, fusion,
 * sentence vectors or gate: the vector signal alone, so that the variants are compared on one
 * footing.
 *
 * <p>Prints, per variant, turn recall in the first {@code --at} memories by category (the share of
 * a question's evidence found, questions with evidence only), and how well the best score tells a
 * question's own conversation from another: each question is also scored against the next
 * conversation's memories (an off-topic recall, as the gate sees one), and the printed AUC is the
 * chance that an on-topic best score beats an off-topic one.
 *
 * <pre>
 * java -Dai.djl.offline=true -cp benchmarks/target/benchmarks.jar \
 *   dev.memhook.benchmarks.eval.CommonDirectionProbe --data locomo-dev.jsonl [--at 10] \
 *   [--embedder djl-int8] [--distractors N [--distractor-seed S]]
 * </pre>
 *
 * <p>Memory grows with the largest conversation's memories squared for the neighbourhood variant (a
 * few thousand memories a conversation: tens of megabytes). Not thread-safe; a command.
 */
public final class CommonDirectionProbe {

  /** How far the neighbourhood variant looks: the usual {@code k} of the method. */
  static final int NEIGHBOURS = 10;

  /** How a memory is scored for a question: {@code q} the question's vector, {@code d} its own. */
  enum Variant {
    /** The cosine, as the store ranks today. */
    AS_STORED("cosine q.d"),
    /** The cosine less a quarter of the memory's projection on the scope's mean. */
    LESS_QUARTER("q.d - 0.25 mu.d"),
    /** The cosine less half the projection. */
    LESS_HALF("q.d - 0.5 mu.d"),
    /** The cosine less the whole projection: the same order as {@code (q - mu).d}. */
    LESS_WHOLE("q.d - mu.d"),
    /** Both sides centred on the mean and normalised again. */
    CENTRED("cos(q - mu, d - mu)"),
    /**
     * Cross-domain similarity local scaling: twice the cosine less the memory's mean cosine to its
     * {@value #NEIGHBOURS} nearest memories, so a memory in a dense crowd of its like counts less.
     */
    NEIGHBOURHOOD("2 q.d - mean of d's 10 nearest");

    final String label;

    Variant(String label) {
      this.label = label;
    }
  }

  private CommonDirectionProbe() {}

  /**
   * The probe's arguments.
   *
   * @param data the data set
   * @param at the recall cut
   * @param embedder the embedder's name, as {@code RetrievalEval} takes it
   * @param distractors generated memories per conversation ({@link CodingDistractors}), 0 for none
   * @param distractorSeed their seed
   */
  record Options(Path data, int at, String embedder, int distractors, long distractorSeed) {

    /**
     * Reads {@code --option value} pairs.
     *
     * @throws IllegalArgumentException naming what is missing, unknown or unreadable
     */
    static Options parse(String... args) {
      Map<String, String> opts = CommandLine.options(args, KNOWN);
      String data = opts.get("--data");
      if (data == null) {
        throw new IllegalArgumentException("missing --data; " + USAGE);
      }
      if (!Files.isReadable(Path.of(data))) {
        throw new IllegalArgumentException("--data " + data + " is not a readable file");
      }
      int at = CommandLine.count("--at", opts.getOrDefault("--at", "10"));
      if (at == 0) {
        throw new IllegalArgumentException("--at must be at least 1");
      }
      return new Options(
          Path.of(data),
          at,
          opts.getOrDefault("--embedder", "djl-int8"),
          CommandLine.count("--distractors", opts.getOrDefault("--distractors", "0")),
          CommandLine.whole("--distractor-seed", opts.getOrDefault("--distractor-seed", "42")));
    }
  }

  private static final List<String> KNOWN =
      List.of("--data", "--at", "--embedder", "--distractors", "--distractor-seed");

  private static final String USAGE =
      "usage: --data FILE [--at N] [--embedder NAME] [--distractors N [--distractor-seed S]]";

  /**
   * What the probe found.
   *
   * @param recall per category ("all" first), per variant, the mean share of evidence found
   * @param questions per category, the questions counted
   * @param separation per variant, the chance that an on-topic best score beats an off-topic one
   * @param meanLength per conversation, the length of its memories' mean vector
   */
  record Result(
      Map<String, Map<Variant, Double>> recall,
      Map<String, Integer> questions,
      Map<Variant, Double> separation,
      Map<String, Double> meanLength) {}

  /** Runs the probe; see the class description for the arguments. */
  public static void main(String[] args) throws IOException {
    Options options = CommandLine.parseOrExit(Options::parse, args);
    EvalData data =
        CodingDistractors.load(options.data(), options.distractors(), options.distractorSeed());
    try (Embedder embedder = BenchEmbedders.create(options.embedder())) {
      print(measure(data, embedder, options.at()), options.at(), System.out);
    }
  }

  /** One conversation's memories, vectors and statistics. */
  private record Conversation(
      List<EvalMemory> memories,
      float[][] vectors,
      float[] mean,
      double[] onMean,
      float[][] centred,
      double[] crowd) {}

  /** Measures {@code data}'s questions with {@code embedder}, recall in the first {@code at}. */
  static Result measure(EvalData data, Embedder embedder, int at) {
    Map<String, List<EvalMemory>> memories = new LinkedHashMap<>();
    for (EvalMemory m : data.memories()) {
      if (!EvalIngest.content(m).isBlank()) {
        memories.computeIfAbsent(m.conv(), c -> new ArrayList<>()).add(m);
      }
    }
    Map<String, List<EvalQuery>> queries = new LinkedHashMap<>();
    for (EvalQuery q : data.queries()) {
      if (!q.relevant().isEmpty() && memories.containsKey(q.conv())) {
        queries.computeIfAbsent(q.conv(), c -> new ArrayList<>()).add(q);
      }
    }
    Map<String, Conversation> conversations = new LinkedHashMap<>();
    Map<String, Double> meanLength = new LinkedHashMap<>();
    for (String conv : queries.keySet()) {
      Conversation c = conversation(memories.get(conv), embedder);
      conversations.put(conv, c);
      meanLength.put(conv, Math.sqrt(dot(c.mean(), c.mean())));
    }
    Map<String, Map<Variant, double[]>> sums = new TreeMap<>();
    Map<Variant, List<double[]>> onOff = new LinkedHashMap<>();
    List<String> convs = new ArrayList<>(conversations.keySet());
    for (int i = 0; i < convs.size(); i++) {
      Conversation own = conversations.get(convs.get(i));
      Conversation other = conversations.get(convs.get((i + 1) % convs.size()));
      for (EvalQuery q : queries.get(convs.get(i))) {
        float[] query = embedder.embedQuery(q.text()).normalized().toArray();
        Set<String> relevant = new HashSet<>(q.relevant());
        long present = own.memories().stream().filter(m -> relevant.contains(m.id())).count();
        for (Variant v : Variant.values()) {
          double[] scores = scores(v, query, own);
          if (present > 0) {
            double found = found(scores, own.memories(), relevant, at) / (double) present;
            for (String category : List.of("all", q.categoryName())) {
              double[] s =
                  sums.computeIfAbsent(category, k -> new LinkedHashMap<>())
                      .computeIfAbsent(v, k -> new double[2]);
              s[0] += found;
              s[1]++;
            }
          }
          if (other != own) {
            onOff
                .computeIfAbsent(v, k -> new ArrayList<>())
                .add(
                    new double[] {
                      Arrays.stream(scores).max().orElseThrow(),
                      Arrays.stream(scores(v, query, other)).max().orElseThrow()
                    });
          }
        }
      }
    }
    Map<String, Map<Variant, Double>> recall = new LinkedHashMap<>();
    Map<String, Integer> counted = new LinkedHashMap<>();
    List<String> categories = new ArrayList<>(sums.keySet());
    categories.remove("all");
    categories.add(0, "all");
    for (String category : categories) {
      Map<Variant, Double> row = new LinkedHashMap<>();
      sums.get(category).forEach((v, s) -> row.put(v, s[0] / s[1]));
      recall.put(category, row);
      counted.put(category, (int) sums.get(category).get(Variant.AS_STORED)[1]);
    }
    Map<Variant, Double> separation = new LinkedHashMap<>();
    onOff.forEach((v, pairs) -> separation.put(v, auc(pairs)));
    return new Result(recall, counted, separation, meanLength);
  }

  private static Conversation conversation(List<EvalMemory> memories, Embedder embedder) {
    List<String> texts = new ArrayList<>(memories.size());
    for (EvalMemory m : memories) {
      // each memory names its speaker, as the memory's embedded text does
      Origin origin = EvalIngest.originOf(m, true);
      texts.add((origin.name() == null ? "" : origin.name() + ": ") + EvalIngest.content(m));
    }
    List<Embedding> embedded = embedder.embedDocuments(texts);
    int n = memories.size();
    float[][] vectors = new float[n][];
    for (int j = 0; j < n; j++) {
      vectors[j] = embedded.get(j).normalized().toArray();
    }
    int dim = vectors[0].length;
    float[] mean = new float[dim];
    for (float[] v : vectors) {
      for (int i = 0; i < dim; i++) {
        mean[i] += v[i] / n;
      }
    }
    double[] onMean = new double[n];
    float[][] centred = new float[n][];
    for (int j = 0; j < n; j++) {
      onMean[j] = dot(mean, vectors[j]);
      centred[j] = centredOn(vectors[j], mean);
    }
    double[] crowd = new double[n];
    double[] cosines = new double[n];
    for (int j = 0; j < n; j++) {
      for (int k = 0; k < n; k++) {
        cosines[k] = k == j ? Double.NEGATIVE_INFINITY : dot(vectors[j], vectors[k]);
      }
      double[] sorted = cosines.clone();
      Arrays.sort(sorted);
      int take = Math.min(NEIGHBOURS, n - 1);
      double sum = 0;
      for (int k = 0; k < take; k++) {
        sum += sorted[n - 1 - k];
      }
      crowd[j] = take == 0 ? 0 : sum / take;
    }
    return new Conversation(memories, vectors, mean, onMean, centred, crowd);
  }

  /** Each memory's score for {@code query} (a unit vector) under {@code v}. */
  private static double[] scores(Variant v, float[] query, Conversation c) {
    int n = c.vectors().length;
    double[] out = new double[n];
    float[] centredQuery = v == Variant.CENTRED ? centredOn(query, c.mean()) : null;
    for (int j = 0; j < n; j++) {
      double cosine = dot(query, c.vectors()[j]);
      out[j] =
          switch (v) {
            case AS_STORED -> cosine;
            case LESS_QUARTER -> cosine - 0.25 * c.onMean()[j];
            case LESS_HALF -> cosine - 0.5 * c.onMean()[j];
            case LESS_WHOLE -> cosine - c.onMean()[j];
            case CENTRED -> dot(centredQuery, c.centred()[j]);
            case NEIGHBOURHOOD -> 2 * cosine - c.crowd()[j];
          };
    }
    return out;
  }

  /**
   * How many of {@code relevant} are among the {@code at} best {@code scores}, ties broken by the
   * memories' order in the data.
   */
  static int found(double[] scores, List<EvalMemory> memories, Set<String> relevant, int at) {
    Integer[] order = new Integer[scores.length];
    for (int j = 0; j < order.length; j++) {
      order[j] = j;
    }
    Arrays.sort(order, (a, b) -> Double.compare(scores[b], scores[a]));
    int found = 0;
    for (int k = 0; k < Math.min(at, order.length); k++) {
      if (relevant.contains(memories.get(order[k]).id())) {
        found++;
      }
    }
    return found;
  }

  /**
   * The chance that the on-topic score of one pair beats the off-topic score of another, over all
   * pairs of pairs (a tie counts half): the area under the curve a threshold on the best score
   * traces.
   */
  static double auc(List<double[]> pairs) {
    double wins = 0;
    for (double[] on : pairs) {
      for (double[] off : pairs) {
        wins += on[0] > off[1] ? 1 : on[0] == off[1] ? 0.5 : 0;
      }
    }
    return wins / ((double) pairs.size() * pairs.size());
  }

  private static float[] centredOn(float[] v, float[] mean) {
    float[] out = new float[v.length];
    double norm = 0;
    for (int i = 0; i < v.length; i++) {
      out[i] = v[i] - mean[i];
      norm += out[i] * out[i];
    }
    norm = Math.sqrt(norm);
    if (norm > 0) {
      for (int i = 0; i < v.length; i++) {
        out[i] /= (float) norm;
      }
    }
    return out;
  }

  private static double dot(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * b[i];
    }
    return s;
  }

  private static void print(Result r, int at, PrintStream out) {
    out.print("length of each conversation's mean vector:");
    r.meanLength().forEach((conv, length) -> out.printf(Locale.ROOT, " %s %.3f", conv, length));
    out.println();
    out.printf(Locale.ROOT, "turn recall@%d by category (questions with evidence):%n", at);
    r.recall()
        .forEach(
            (category, row) -> {
              out.printf(Locale.ROOT, "  %s (%d)%n", category, r.questions().get(category));
              row.forEach(
                  (v, value) -> out.printf(Locale.ROOT, "    %-34s %.3f%n", v.label, value));
            });
    out.println("on-topic best score against the next conversation's (AUC):");
    r.separation().forEach((v, value) -> out.printf(Locale.ROOT, "  %-34s %.3f%n", v.label, value));
  }
}
