package dev.memhook.benchmarks.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.memhook.api.Origin;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import dev.memhook.benchmarks.BenchEmbedders;
import dev.memhook.benchmarks.CommandLine;
import dev.memhook.benchmarks.eval.EvalData.EvalMemory;
import dev.memhook.benchmarks.eval.EvalData.EvalQuery;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.BreakIterator;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Measures, offline, what one vector per sentence would give the vector signal: each memory a
 * person said in two sentences or more is scored by the better of its stored vector's cosine and
 * its best sentence's, for the candidates the two signals found (or, "own hits", for the vector
 * signal's own), and the vector list is ranked again. A control isolates what is the sentences'
 * doing: the same memories scored by their whole text's vector instead ("text hits by their own
 * vector"), which brings the text signal's hits into the vector list as the sentences do, without
 * splitting. Reads a {@link RetrievalEval} {@code --dump} (the signals' raw lists, as deep as it
 * writes them) and its data set, and embeds the sentences of the memories it scores (of the content
 * {@link RetrievalEval} stores, each after its speaker's name when named, as the memory's embedded
 * text has it), nothing else; no store, fusion or gate. Prints turn recall in the first 5 and 10
 * per category for text, vector and vector by sentence, each alone and fused by reciprocal rank
 * with text ({@code k} {@value #RRF_K}, equal weights: a fixed fusion, so the two vector lists are
 * compared on one footing, not the service's adaptive one), and for the off-topic lines of the dump
 * how far the best cosine moves, which a relevance gate reading it would have to absorb.
 *
 * <pre>
 * java -Dai.djl.offline=true -cp benchmarks/target/benchmarks.jar \
 *   dev.memhook.benchmarks.eval.SentenceVectorProbe --data lme-s-dev48.jsonl --dump lme.dump \
 *   [--embedder djl-int8] [--speakers people|all] [--distractors N [--distractor-seed S]]
 * </pre>
 *
 * <p>{@code --distractors} and {@code --distractor-seed} must be those of the dump's run (the
 * coding set's generated memories, {@link CodingDistractors}).
 *
 * <p>{@code --speakers people} (the default) splits only what a person said (a memory whose origin
 * {@link EvalIngest#originOf} makes {@link Origin.Kind#USER}); {@code all} splits the assistant's
 * turns too.
 */
public final class SentenceVectorProbe {

  /**
   * Sentences shorter than this (stripped) are not embedded on their own: "Thanks!" says little.
   */
  static final int MIN_SENTENCE_CHARS = 15;

  /**
   * The reciprocal-rank constant of the fixed fusion: the usual one since the method was proposed.
   */
  static final int RRF_K = 60;

  private SentenceVectorProbe() {}

  /**
   * The probe's arguments.
   *
   * @param data the data set the dump was written from
   * @param dump the {@code RetrievalEval --dump} file
   * @param embedder the embedder's name, as {@code RetrievalEval} takes it
   * @param allSpeakers whether the assistant's turns are split too
   * @param distractors the generated memories per conversation the dump's run added, 0 for none
   * @param distractorSeed their seed
   */
  record Options(
      Path data,
      Path dump,
      String embedder,
      boolean allSpeakers,
      int distractors,
      long distractorSeed) {

    /**
     * Reads {@code --option value} pairs.
     *
     * @throws IllegalArgumentException naming what is missing, unknown or unreadable
     */
    static Options parse(String... args) {
      Map<String, String> opts = CommandLine.options(args, KNOWN);
      String speakers = opts.getOrDefault("--speakers", "people");
      if (!speakers.equals("people") && !speakers.equals("all")) {
        throw new IllegalArgumentException("--speakers is people or all, got " + speakers);
      }
      return new Options(
          file(opts, "--data"),
          file(opts, "--dump"),
          opts.getOrDefault("--embedder", "djl-int8"),
          speakers.equals("all"),
          CommandLine.count("--distractors", opts.getOrDefault("--distractors", "0")),
          CommandLine.whole("--distractor-seed", opts.getOrDefault("--distractor-seed", "42")));
    }

    private static Path file(Map<String, String> opts, String name) {
      String v = opts.get(name);
      if (v == null) {
        throw new IllegalArgumentException("missing " + name + "; " + USAGE);
      }
      Path path = Path.of(v);
      if (!Files.isReadable(path)) {
        throw new IllegalArgumentException(name + " " + v + " is not a readable file");
      }
      return path;
    }
  }

  private static final List<String> KNOWN =
      List.of("--data", "--dump", "--embedder", "--speakers", "--distractors", "--distractor-seed");

  private static final String USAGE =
      "usage: --data FILE --dump FILE [--embedder NAME] [--speakers people|all]"
          + " [--distractors N [--distractor-seed S]]";

  /** Runs the probe; see the class description for the arguments. */
  public static void main(String[] args) throws IOException {
    Options options = CommandLine.parseOrExit(Options::parse, args);
    // the same generated memories the dump's run added, so they are split and scored too
    EvalData data =
        CodingDistractors.load(options.data(), options.distractors(), options.distractorSeed());
    try (Embedder embedder = BenchEmbedders.create(options.embedder())) {
      print(measure(data, options.dump(), embedder, options.allSpeakers()), System.out);
    }
  }

  /**
   * The sentences of {@code text} of at least {@link #MIN_SENTENCE_CHARS} characters, stripped, as
   * {@link BreakIterator} finds them (line breaks end a sentence too); empty if fewer than two, for
   * then the memory's own vector says it all.
   */
  static List<String> sentences(String text) {
    List<String> out = new ArrayList<>();
    for (String line : text.split("\\R+")) {
      BreakIterator it = BreakIterator.getSentenceInstance(Locale.ROOT);
      it.setText(line);
      for (int start = it.first(), end = it.next();
          end != BreakIterator.DONE;
          start = end, end = it.next()) {
        String s = line.substring(start, end).strip();
        if (s.length() >= MIN_SENTENCE_CHARS) {
          out.add(s);
        }
      }
    }
    return out.size() < 2 ? List.of() : out;
  }

  /**
   * {@code vector} ranked again with each memory of {@code pool} scored by the better of its cosine
   * in {@code vector} and its best sentence's in {@code sentenceCosines}; a memory of the pool
   * outside {@code vector} has only the latter. Ties keep {@code vector}'s order, then the pool's.
   * As long as {@code vector}, so that a fusion reading it sees lists of the same depth as before.
   */
  static List<String> rescored(
      List<Map.Entry<String, Double>> vector,
      List<String> pool,
      Map<String, Double> sentenceCosines) {
    Map<String, Double> score = new LinkedHashMap<>();
    vector.forEach(e -> score.put(e.getKey(), e.getValue()));
    for (String id : pool) {
      Double s = sentenceCosines.get(id);
      if (s != null) {
        score.merge(id, s, Math::max);
      }
    }
    List<String> ids = new ArrayList<>(score.keySet());
    ids.sort((a, b) -> Double.compare(score.get(b), score.get(a)));
    return ids.subList(0, Math.min(ids.size(), vector.size()));
  }

  /**
   * {@code lists} fused by reciprocal rank, equal weights, best first; ties in first-seen order.
   */
  static List<String> reciprocalRank(List<List<String>> lists) {
    Map<String, Double> score = new LinkedHashMap<>();
    for (List<String> list : lists) {
      for (int i = 0; i < list.size(); i++) {
        score.merge(list.get(i), 1.0 / (RRF_K + i + 1), Double::sum);
      }
    }
    List<String> ids = new ArrayList<>(score.keySet());
    ids.sort((a, b) -> Double.compare(score.get(b), score.get(a)));
    return ids;
  }

  /**
   * What the probe measured.
   *
   * @param recall per category (and {@code all}), per list ("vector by sentence @10" and the like),
   *     the mean turn recall over the questions with evidence
   * @param sentences how many sentences were embedded
   * @param split how many memories were split into them
   * @param speakers which speakers' memories were split: "people only" or "every speaker"
   * @param millisPerText the embedding time per text, the split memories' whole texts counted
   * @param offTopic how many off-topic recalls the dump held
   * @param offTopicBest the median best cosine of the off-topic recalls
   * @param offTopicBestBySentence the same with the sentences' cosines
   */
  record Result(
      Map<String, Map<String, Double>> recall,
      int sentences,
      int split,
      String speakers,
      double millisPerText,
      int offTopic,
      double offTopicBest,
      double offTopicBestBySentence) {}

  /** Replays {@code dump} over {@code data}; see the class description. */
  static Result measure(EvalData data, Path dump, Embedder embedder, boolean allSpeakers)
      throws IOException {
    Map<String, EvalMemory> memories = new HashMap<>();
    data.memories().forEach(m -> memories.put(m.id(), m));
    Map<String, EvalQuery> queries = new HashMap<>();
    data.queries().forEach(q -> queries.put(q.id(), q));
    Map<String, float[][]> sentenceVectors = new HashMap<>();
    Map<String, float[]> wholeVectors = new HashMap<>();
    Map<String, Map<String, List<Double>>> byCategory = new TreeMap<>();
    List<Double> offTopicBest = new ArrayList<>();
    List<Double> offTopicBestBySentence = new ArrayList<>();
    long embedNanos = 0;
    int embedded = 0;
    int texts = 0;
    int split = 0;
    ObjectMapper json = new ObjectMapper();
    try (BufferedReader in = Files.newBufferedReader(dump, StandardCharsets.UTF_8)) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        JsonNode d = json.readTree(line);
        EvalQuery q = queries.get(d.get("id").asText());
        List<Map.Entry<String, Double>> vector = hits(d.get("vector"));
        List<String> text = new ArrayList<>();
        hits(d.get("text")).forEach(e -> text.add(e.getKey()));
        List<String> pool = new ArrayList<>(text);
        vector.forEach(e -> pool.add(e.getKey()));
        // embed the sentences of the pool's memories not seen yet, in one batch
        List<String> todo = new ArrayList<>();
        List<String> batch = new ArrayList<>();
        List<Integer> counts = new ArrayList<>();
        // in the pool's order: a quantised model's vectors depend a little on the batch's other
        // texts
        for (String id : new LinkedHashSet<>(pool)) {
          EvalMemory m = memories.get(id);
          if (m == null || sentenceVectors.containsKey(id)) {
            continue;
          }
          Origin origin = EvalIngest.originOf(m, true);
          List<String> s =
              allSpeakers || origin.kind() == Origin.Kind.USER
                  ? sentences(EvalIngest.content(m))
                  : List.of();
          // each sentence names its speaker, as the memory's embedded text does
          String who = origin.name() == null ? "" : origin.name() + ": ";
          s = s.stream().map(t -> who + t).toList();
          sentenceVectors.put(id, new float[0][]);
          if (!s.isEmpty()) {
            todo.add(id);
            counts.add(s.size() + 1);
            batch.add(who + EvalIngest.content(m));
            batch.addAll(s);
          }
        }
        if (!batch.isEmpty()) {
          long start = System.nanoTime();
          List<Embedding> vectors = embedder.embedDocuments(batch);
          embedNanos += System.nanoTime() - start;
          texts += batch.size();
          embedded += batch.size() - todo.size();
          split += todo.size();
          int next = 0;
          for (int i = 0; i < todo.size(); i++) {
            wholeVectors.put(todo.get(i), vectors.get(next++).normalized().toArray());
            float[][] v = new float[counts.get(i) - 1][];
            for (int j = 0; j < v.length; j++) {
              v[j] = vectors.get(next++).normalized().toArray();
            }
            sentenceVectors.put(todo.get(i), v);
          }
        }
        float[] query = embedder.embedQuery(d.get("q").asText()).normalized().toArray();
        Map<String, Double> sentenceCosines = new HashMap<>();
        Map<String, Double> wholeCosines = new HashMap<>();
        for (String id : pool) {
          float[][] v = sentenceVectors.get(id);
          if (v != null && v.length > 0) {
            sentenceCosines.put(id, best(query, v));
            wholeCosines.put(id, best(query, new float[][] {wholeVectors.get(id)}));
          }
        }
        List<String> byVector = new ArrayList<>();
        vector.forEach(e -> byVector.add(e.getKey()));
        List<String> bySentence = rescored(vector, pool, sentenceCosines);
        List<String> ownBySentence = rescored(vector, byVector, sentenceCosines);
        List<String> byWhole = rescored(vector, pool, wholeCosines);
        String kind = d.get("kind").asText();
        if (!"own".equals(kind)) {
          double whole = vector.isEmpty() ? 0 : vector.get(0).getValue();
          offTopicBest.add(whole);
          offTopicBestBySentence.add(
              Math.max(
                  whole,
                  sentenceCosines.values().stream()
                      .mapToDouble(Double::doubleValue)
                      .max()
                      .orElse(0)));
          continue;
        }
        if (q == null || q.relevant().isEmpty()) {
          continue;
        }
        Map<String, List<String>> lists = new LinkedHashMap<>();
        lists.put("text", text);
        lists.put("vector", byVector);
        lists.put("vector, text hits by their own vector", byWhole);
        lists.put("vector by sentence", bySentence);
        lists.put("vector by sentence, own hits", ownBySentence);
        lists.put("text + vector (rrf)", reciprocalRank(List.of(text, byVector)));
        lists.put(
            "text + vector, text hits by their own vector (rrf)",
            reciprocalRank(List.of(text, byWhole)));
        lists.put("text + vector by sentence (rrf)", reciprocalRank(List.of(text, bySentence)));
        lists.put(
            "text + vector by sentence, own hits (rrf)",
            reciprocalRank(List.of(text, ownBySentence)));
        for (String category : List.of(q.categoryName(), "all")) {
          Map<String, List<Double>> cell =
              byCategory.computeIfAbsent(category, c -> new LinkedHashMap<>());
          lists.forEach(
              (name, ranked) -> {
                cell.computeIfAbsent(name + " @5", n -> new ArrayList<>())
                    .add(Metrics.recallAt(5, ranked, q.relevant()));
                cell.computeIfAbsent(name + " @10", n -> new ArrayList<>())
                    .add(Metrics.recallAt(10, ranked, q.relevant()));
              });
        }
      }
    }
    Map<String, Map<String, Double>> recall = new LinkedHashMap<>();
    byCategory.forEach(
        (category, cell) -> {
          Map<String, Double> means = new LinkedHashMap<>();
          cell.forEach((name, values) -> means.put(name, mean(values)));
          recall.put(category + " (" + cell.values().iterator().next().size() + ")", means);
        });
    return new Result(
        recall,
        embedded,
        split,
        allSpeakers ? "every speaker" : "people only",
        texts == 0 ? 0 : embedNanos / 1e6 / texts,
        offTopicBest.size(),
        median(offTopicBest),
        median(offTopicBestBySentence));
  }

  private static void print(Result r, PrintStream out) {
    out.printf(
        Locale.ROOT,
        "sentences embedded: %d for %d memories split (%s); %.2f ms a text embedded, the split"
            + " memories' whole texts counted%n",
        r.sentences(),
        r.split(),
        r.speakers(),
        r.millisPerText());
    out.println("turn recall by category (questions with evidence, their own conversation):");
    r.recall()
        .forEach(
            (category, means) -> {
              out.println("  " + category);
              means.forEach(
                  (name, value) -> out.printf(Locale.ROOT, "    %-52s %.3f%n", name, value));
            });
    out.printf(
        Locale.ROOT,
        "off-topic recalls: %d; best cosine, median %.3f -> %.3f by sentence%n",
        r.offTopic(),
        r.offTopicBest(),
        r.offTopicBestBySentence());
  }

  private static double best(float[] query, float[][] vectors) {
    double best = -1;
    for (float[] v : vectors) {
      double dot = 0;
      for (int i = 0; i < v.length; i++) {
        dot += v[i] * query[i];
      }
      best = Math.max(best, dot);
    }
    return best;
  }

  private static List<Map.Entry<String, Double>> hits(JsonNode array) {
    List<Map.Entry<String, Double>> out = new ArrayList<>();
    for (JsonNode hit : array) {
      out.add(Map.entry(hit.get(0).asText(), hit.get(1).asDouble()));
    }
    return out;
  }

  private static double mean(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
  }

  private static double median(List<Double> values) {
    if (values.isEmpty()) {
      return Double.NaN;
    }
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(null);
    return sorted.get(sorted.size() / 2);
  }
}
