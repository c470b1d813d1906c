package dev.memhook.benchmarks.eval;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.memhook.benchmarks.CommandLine;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Compares two {@link RetrievalEval} traces ({@code --trace}) of the same data question by
 * question: for one configuration's rankings, turn recall at a depth per category before and after,
 * how many questions went up and down, and an exact two-sided sign test over the questions that
 * moved; then every question that moved, losses first; then the gate's precision and cost before
 * and after and every gate recall whose outcome changed.
 *
 * <p>What it is for: a change to ranking or to the gate moves a handful of questions on a dev set
 * of tens, and two runs of one build can move a few through the order of tied scores. The sign test
 * says how often a split of ups and downs at least this uneven comes from changes that go either
 * way with equal chance; it says nothing about the size of a change, and a set of tens cannot show
 * a small one. The moved questions are what to read before keeping a rule.
 *
 * <pre>
 * java -cp benchmarks.jar dev.memhook.benchmarks.eval.TraceCompare BEFORE.jsonl AFTER.jsonl \
 *     [--config text|vector|fused] [--at K]
 * </pre>
 *
 * <p>Both traces must rank the same questions with the same relevant ids, and hold the same gate
 * recalls if either holds any: a comparison of different sets would read as a change. A file that
 * is not a trace (a line that is not JSON, a ranking without its fields, a question ranked twice)
 * is refused with its file and line. Stateless; {@link #compare} reads both files whole.
 */
public final class TraceCompare {

  static final String USAGE =
      "usage: TraceCompare BEFORE.jsonl AFTER.jsonl [--config text|vector|fused] [--at K]";

  /** The configurations {@link RetrievalEval} traces. */
  private static final Set<String> CONFIGS = Set.of("text", "vector", "fused");

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * What to compare.
   *
   * @param before the first trace
   * @param after the second trace
   * @param config whose rankings: {@code text}, {@code vector} or {@code fused}
   * @param at the depth recall counts to, 1 to {@link RetrievalEval#LIMIT} (a trace holds that
   *     many)
   */
  public record Options(Path before, Path after, String config, int at) {

    /**
     * Parses a command line.
     *
     * @throws IllegalArgumentException if a file is missing, an option unknown or its value bad
     */
    public static Options parse(String... args) {
      List<Path> files = new ArrayList<>();
      String config = "fused";
      int at = RetrievalEval.LIMIT;
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        switch (a) {
          case "--config" -> config = value(args, ++i, a);
          case "--at" -> at = depth(args, ++i);
          default -> {
            if (a.startsWith("--")) {
              throw new IllegalArgumentException("unknown option '" + a + "'\n" + USAGE);
            }
            files.add(Path.of(a));
          }
        }
      }
      if (files.size() != 2) {
        throw new IllegalArgumentException(
            "two trace files are needed, " + files.size() + " given\n" + USAGE);
      }
      if (!CONFIGS.contains(config)) {
        throw new IllegalArgumentException(
            "unknown config '" + config + "'; known: text, vector, fused\n" + USAGE);
      }
      return new Options(files.get(0), files.get(1), config, at);
    }

    private static int depth(String[] args, int i) {
      int at = CommandLine.count(args, i);
      if (at < 1 || at > RetrievalEval.LIMIT) {
        throw new IllegalArgumentException(
            "--at must be 1 to "
                + RetrievalEval.LIMIT
                + " (a trace holds the top "
                + RetrievalEval.LIMIT
                + "), not "
                + at);
      }
      return at;
    }

    private static String value(String[] args, int i, String option) {
      if (i >= args.length) {
        throw new IllegalArgumentException(option + " needs a value\n" + USAGE);
      }
      return args[i];
    }
  }

  /** A question of the data: its conversation and id. */
  record Key(String conv, String id) implements Comparable<Key> {
    @Override
    public int compareTo(Key o) {
      int c = conv.compareTo(o.conv);
      return c != 0 ? c : id.compareTo(o.id);
    }

    @Override
    public String toString() {
      return conv + "/" + id;
    }
  }

  /** One ranking line: the 1-based ranks of its relevant ids among what it returned. */
  record Ranking(
      Key key, String category, String question, List<String> relevant, List<Integer> found) {

    /** The share of the relevant ids ranked within the first {@code at}. */
    double recall(int at) {
      long hits = found.stream().filter(r -> r <= at).count();
      return (double) hits / relevant.size();
    }
  }

  /** One gate line: which recall of which question, and what it counted as. */
  record GateRecall(String recall, Key key, String category, String question, String outcome) {}

  /**
   * One row of the recall table.
   *
   * @param category the category, or {@code overall}
   * @param questions how many questions it holds
   * @param before mean recall at the depth before
   * @param after the same after
   * @param up how many questions gained
   * @param down how many lost
   * @param signP the exact two-sided sign test's p over {@code up + down} questions (1 when none
   *     moved)
   */
  public record Row(
      String category,
      int questions,
      double before,
      double after,
      int up,
      int down,
      double signP) {}

  /**
   * One question whose recall moved.
   *
   * @param before its recall at the depth before
   * @param after the same after
   */
  public record Moved(
      String key,
      String category,
      String question,
      double before,
      double after,
      List<Integer> foundBefore,
      List<Integer> foundAfter) {}

  /**
   * One gate recall whose outcome changed.
   *
   * @param recall {@code own}, {@code other} or {@code question}
   */
  public record OutcomeChange(
      String recall, String key, String category, String question, String before, String after) {}

  /**
   * The gate's figures of one trace, as {@link RetrievalEval} reports them.
   *
   * @param offTopic off-topic recalls ({@code other} and {@code question})
   * @param empty of which returned nothing
   * @param withEvidence own recalls whose ungated top 10 held evidence
   * @param lost of which the gate emptied of it
   */
  public record GateFigures(int offTopic, int empty, int withEvidence, int lost) {

    /** Share of off-topic recalls that return nothing; NaN without any. */
    public double precision() {
      return offTopic == 0 ? Double.NaN : (double) empty / offTopic;
    }

    /** Share of own recalls with evidence that the gate emptied of it; NaN without any. */
    public double cost() {
      return withEvidence == 0 ? Double.NaN : (double) lost / withEvidence;
    }
  }

  /**
   * What changed between two traces.
   *
   * @param rows overall first, then each category by name
   * @param moved the questions whose recall moved, losses first, the largest first
   * @param gateBefore null when neither trace holds gate lines
   * @param gateAfter null when neither trace holds gate lines
   * @param outcomes the gate recalls whose outcome changed
   */
  public record Comparison(
      Options options,
      List<Row> rows,
      List<Moved> moved,
      GateFigures gateBefore,
      GateFigures gateAfter,
      List<OutcomeChange> outcomes) {}

  private TraceCompare() {}

  public static void main(String[] args) {
    Comparison c = CommandLine.parseOrExit(a -> compare(Options.parse(a)), args);
    print(c, System.out);
  }

  /**
   * Reads both traces and compares them.
   *
   * @throws IllegalArgumentException if a file is missing or not a trace, or the two do not hold
   *     the same questions
   * @throws UncheckedIOException if a file cannot be read
   */
  public static Comparison compare(Options options) {
    Trace before = Trace.read(options.before(), options.config());
    Trace after = Trace.read(options.after(), options.config());
    sameKeys(options, before.rankings.keySet(), after.rankings.keySet(), "rankings");
    int at = options.at();
    List<double[]> all = new ArrayList<>();
    Map<String, List<double[]>> byCategory = new TreeMap<>();
    List<Moved> moved = new ArrayList<>();
    for (Ranking b : before.rankings.values()) {
      Ranking a = after.rankings.get(b.key());
      if (!a.relevant().equals(b.relevant())) {
        throw new IllegalArgumentException(
            b.key()
                + " has relevant ids "
                + b.relevant()
                + " in "
                + options.before()
                + " but "
                + a.relevant()
                + " in "
                + options.after()
                + ": traces of different data");
      }
      double[] pair = {b.recall(at), a.recall(at)};
      all.add(pair);
      byCategory.computeIfAbsent(b.category(), k -> new ArrayList<>()).add(pair);
      if (pair[0] != pair[1]) {
        moved.add(
            new Moved(
                b.key().toString(),
                b.category(),
                b.question(),
                pair[0],
                pair[1],
                b.found(),
                a.found()));
      }
    }
    List<Row> rows = new ArrayList<>();
    rows.add(row("overall", all));
    byCategory.forEach((category, p) -> rows.add(row(category, p)));
    moved.sort(
        Comparator.comparingDouble((Moved m) -> m.after() - m.before()).thenComparing(Moved::key));

    GateFigures gateBefore = null;
    GateFigures gateAfter = null;
    List<OutcomeChange> outcomes = new ArrayList<>();
    if (!before.gate.isEmpty() || !after.gate.isEmpty()) {
      sameKeys(options, before.gate.keySet(), after.gate.keySet(), "gate recalls");
      gateBefore = figures(before.gate.values());
      gateAfter = figures(after.gate.values());
      for (Map.Entry<String, GateRecall> e : before.gate.entrySet()) {
        GateRecall b = e.getValue();
        GateRecall a = after.gate.get(e.getKey());
        if (!a.outcome().equals(b.outcome())) {
          outcomes.add(
              new OutcomeChange(
                  b.recall(),
                  b.key().toString(),
                  b.category(),
                  b.question(),
                  b.outcome(),
                  a.outcome()));
        }
      }
    }
    return new Comparison(options, rows, moved, gateBefore, gateAfter, outcomes);
  }

  /** Prints {@code c} as the report's tables and lists. */
  public static void print(Comparison c, PrintStream out) {
    Options o = c.options();
    out.printf(
        Locale.ROOT,
        "TraceCompare before=%s after=%s config=%s recall@%d%n%n",
        o.before(),
        o.after(),
        o.config(),
        o.at());
    out.println("| category | questions | before | after | change | up | down | sign test p |");
    out.println("|---|---|---|---|---|---|---|---|");
    for (Row r : c.rows()) {
      out.printf(
          Locale.ROOT,
          "| %s | %d | %.3f | %.3f | %+.3f | %d | %d | %.3f |%n",
          r.category(),
          r.questions(),
          r.before(),
          r.after(),
          r.after() - r.before(),
          r.up(),
          r.down(),
          r.signP());
    }
    out.printf(
        Locale.ROOT,
        "%n%d questions moved (ranks of their relevant ids in the top %d):%n",
        c.moved().size(),
        RetrievalEval.LIMIT);
    for (Moved m : c.moved()) {
      out.printf(
          Locale.ROOT,
          "- %s (%s) %.3f -> %.3f, ranks %s -> %s: %s%n",
          m.key(),
          m.category(),
          m.before(),
          m.after(),
          m.foundBefore(),
          m.foundAfter(),
          m.question());
    }
    if (c.gateBefore() == null) {
      out.printf("%nno gate recalls in either trace%n");
      return;
    }
    GateFigures b = c.gateBefore();
    GateFigures a = c.gateAfter();
    out.printf(
        Locale.ROOT,
        "%ngate precision %.3f -> %.3f (%d -> %d of %d off-topic recalls empty);"
            + " cost %.3f -> %.3f (%d -> %d of %d own recalls with evidence lost it)%n",
        b.precision(),
        a.precision(),
        b.empty(),
        a.empty(),
        b.offTopic(),
        b.cost(),
        a.cost(),
        b.lost(),
        a.lost(),
        b.withEvidence());
    out.printf(Locale.ROOT, "%d gate outcomes changed:%n", c.outcomes().size());
    for (OutcomeChange x : c.outcomes()) {
      out.printf(
          Locale.ROOT,
          "- %s %s (%s) %s -> %s: %s%n",
          x.recall(),
          x.key(),
          x.category(),
          x.before(),
          x.after(),
          x.question());
    }
  }

  /**
   * The exact two-sided sign test: the chance that {@code up + down} fair coin flips split at least
   * as unevenly as {@code up} to {@code down}. 1 when nothing moved.
   */
  static double signTest(int up, int down) {
    int n = up + down;
    int k = Math.min(up, down);
    if (n == 0) {
      return 1;
    }
    // sum of C(n, i) / 2^n for i <= k, in logs so that large n does not underflow
    double logTerm = -n * Math.log(2);
    double tail = Math.exp(logTerm);
    for (int i = 1; i <= k; i++) {
      logTerm += Math.log(n - i + 1) - Math.log(i);
      tail += Math.exp(logTerm);
    }
    return Math.min(1, 2 * tail);
  }

  private static Row row(String category, List<double[]> pairs) {
    double before = 0;
    double after = 0;
    int up = 0;
    int down = 0;
    for (double[] p : pairs) {
      before += p[0];
      after += p[1];
      up += p[1] > p[0] ? 1 : 0;
      down += p[1] < p[0] ? 1 : 0;
    }
    int n = pairs.size();
    return new Row(category, n, before / n, after / n, up, down, signTest(up, down));
  }

  private static GateFigures figures(Iterable<GateRecall> recalls) {
    int offTopic = 0;
    int empty = 0;
    int withEvidence = 0;
    int lost = 0;
    for (GateRecall g : recalls) {
      switch (g.outcome()) {
        case "empty" -> {
          offTopic++;
          empty++;
        }
        case "injected" -> offTopic++;
        case "kept evidence" -> withEvidence++;
        case "lost evidence" -> {
          withEvidence++;
          lost++;
        }
        default -> {
          // "no evidence": the ungated top 10 held none, so the gate could not cost it
        }
      }
    }
    return new GateFigures(offTopic, empty, withEvidence, lost);
  }

  private static <K> void sameKeys(Options o, Set<K> before, Set<K> after, String what) {
    if (before.equals(after)) {
      return;
    }
    Set<K> onlyBefore = new TreeSet<>(Comparator.comparing(Object::toString));
    onlyBefore.addAll(before);
    onlyBefore.removeAll(after);
    Set<K> onlyAfter = new TreeSet<>(Comparator.comparing(Object::toString));
    onlyAfter.addAll(after);
    onlyAfter.removeAll(before);
    throw new IllegalArgumentException(
        String.format(
            Locale.ROOT,
            "the traces hold different %s: %d only in %s%s, %d only in %s%s",
            what,
            onlyBefore.size(),
            o.before(),
            onlyBefore.isEmpty() ? "" : " (first " + onlyBefore.iterator().next() + ")",
            onlyAfter.size(),
            o.after(),
            onlyAfter.isEmpty() ? "" : " (first " + onlyAfter.iterator().next() + ")"));
  }

  /** One trace file's rankings of one configuration, and its gate recalls. */
  private static final class Trace {
    final Map<Key, Ranking> rankings = new TreeMap<>();

    /** By recall and question, e.g. {@code "other locomo-1/q7"}. */
    final Map<String, GateRecall> gate = new TreeMap<>();

    static Trace read(Path file, String config) {
      if (!Files.isRegularFile(file)) {
        throw new IllegalArgumentException("no trace file " + file);
      }
      Trace t = new Trace();
      try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        String line;
        int number = 0;
        while ((line = in.readLine()) != null) {
          number++;
          if (!line.isBlank()) {
            t.add(new Line(file, number, line), config);
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
      }
      if (t.rankings.isEmpty()) {
        throw new IllegalArgumentException(
            file + " holds no '" + config + "' rankings: not a RetrievalEval trace");
      }
      return t;
    }

    private void add(Line line, String config) {
      JsonNode n = line.json();
      String kind = line.text(n, "kind");
      switch (kind) {
        case "ranking" -> {
          if (!line.text(n, "config").equals(config)) {
            return;
          }
          Key key = new Key(line.text(n, "conv"), line.text(n, "id"));
          List<String> relevant = line.strings(n, "relevant");
          if (relevant.isEmpty()) {
            throw line.bad("a ranking without relevant ids");
          }
          List<Integer> found = line.ranks(n, "found");
          if (found.size() > relevant.size()) {
            throw line.bad("more ranks found than relevant ids");
          }
          Ranking r =
              new Ranking(key, line.text(n, "category"), line.text(n, "q"), relevant, found);
          if (rankings.putIfAbsent(key, r) != null) {
            throw line.bad("question " + key + " ranked twice by '" + config + "'");
          }
        }
        case "gate" -> {
          Key key = new Key(line.text(n, "conv"), line.text(n, "id"));
          String recall = line.text(n, "recall");
          GateRecall g =
              new GateRecall(
                  recall,
                  key,
                  line.text(n, "category"),
                  line.text(n, "q"),
                  line.text(n, "outcome"));
          if (gate.putIfAbsent(recall + " " + key, g) != null) {
            throw line.bad("gate recall '" + recall + "' of " + key + " written twice");
          }
        }
        default -> throw line.bad("unknown kind '" + kind + "'");
      }
    }
  }

  /** One line of a trace file, for errors that name where they are. */
  private record Line(Path file, int number, String raw) {

    JsonNode json() {
      JsonNode n;
      try {
        n = JSON.readTree(raw);
      } catch (JsonProcessingException e) {
        throw bad("not JSON (" + e.getOriginalMessage() + ")");
      }
      if (n == null || !n.isObject()) {
        throw bad("not a JSON object");
      }
      return n;
    }

    String text(JsonNode n, String field) {
      JsonNode v = n.get(field);
      if (v == null || !v.isTextual()) {
        throw bad("no text field '" + field + "'");
      }
      return v.asText();
    }

    List<String> strings(JsonNode n, String field) {
      JsonNode v = array(n, field);
      List<String> out = new ArrayList<>(v.size());
      for (JsonNode e : v) {
        if (!e.isTextual()) {
          throw bad("'" + field + "' holds a non-text element");
        }
        out.add(e.asText());
      }
      return List.copyOf(out);
    }

    /** Ascending 1-based ranks within the trace's depth. */
    List<Integer> ranks(JsonNode n, String field) {
      JsonNode v = array(n, field);
      List<Integer> out = new ArrayList<>(v.size());
      int last = 0;
      for (JsonNode e : v) {
        if (!e.isInt() || e.asInt() <= last || e.asInt() > RetrievalEval.LIMIT) {
          throw bad("'" + field + "' must hold ascending ranks from 1 to " + RetrievalEval.LIMIT);
        }
        last = e.asInt();
        out.add(last);
      }
      return List.copyOf(out);
    }

    private JsonNode array(JsonNode n, String field) {
      JsonNode v = n.get(field);
      if (v == null || !v.isArray()) {
        throw bad("no array field '" + field + "'");
      }
      return v;
    }

    IllegalArgumentException bad(String what) {
      return new IllegalArgumentException(file + " line " + number + ": " + what);
    }
  }
}
