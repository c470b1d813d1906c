package dev.memhook.benchmarks.eval;

import dev.memhook.api.RecallOptions;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Locale;

/** Prints {@link RetrievalEval}'s tables: quality, the relevance gate and latency. Stateless. */
final class EvalReportPrinter {

  private EvalReportPrinter() {}

  /** The quality table: each configuration overall, then per category. */
  static void quality(EvalRecalls.Quality quality, PrintStream out) {
    out.println();
    out.println("Retrieval quality (gate off), recall limit " + RetrievalEval.LIMIT + ":");
    out.println();
    out.println(
        "| config | queries | recall@5 | recall@10 | any@5 | MRR"
            + " | session recall@5 | session recall@10 | session any@5 | session any@10"
            + " | top-10 turns' sessions recall | top-10 turns' sessions any |");
    out.println("|---|---|---|---|---|---|---|---|---|---|---|---|");
    quality.overall().forEach((config, s) -> out.println(row(config + " / overall", s)));
    for (String category : quality.categories()) {
      for (String config : quality.overall().keySet()) {
        out.println(
            row(config + " / " + category, quality.perCategory().get(config).get(category)));
      }
    }
    out.println();
    out.println(
        "queries fusion read as exact references (vector weight cut), by category: "
            + quality.exactShaped());
    out.println(
        "session columns: a memory's session is its conversation and session; the ranking is the"
            + " same recall taken to "
            + RetrievalEval.SESSION_DEPTH
            + " memories, session@k its first k distinct sessions; recall = share of the relevant"
            + " sessions among them, any = at least one; the last two columns read the sessions of"
            + " the top "
            + RetrievalEval.LIMIT
            + " memories instead, however few");
    quality
        .sessionRankings()
        .forEach(
            (config, r) ->
                out.printf(
                    Locale.ROOT,
                    "  %s: %d of %d deeper rankings held fewer than 10 distinct sessions;"
                        + " %d did not start with the top %d%n",
                    config,
                    r.underTenSessions(),
                    r.queries(),
                    r.prefixDiffers(),
                    RetrievalEval.LIMIT));
  }

  /** The gate's definitions and counts; {@code gatedOptions} is the configuration it ran with. */
  static void gate(EvalRecalls.Gate gate, RecallOptions gatedOptions, PrintStream out) {
    int limit = RetrievalEval.LIMIT;
    out.println();
    out.println("Relevance gate (" + gatedOptions + "):");
    out.println(
        "  gate precision = share of off-topic recalls that return nothing: conversation i's"
            + " questions against conversation i+1's memories, and questions no memory answers"
            + " (relevant: []) against their own conversation");
    out.println(
        "  gate cost = among on-topic queries whose ungated fused top "
            + limit
            + " holds >= 1 relevant memory,"
            + " the share whose gated top "
            + limit
            + " holds none");
    if (gate.offTopic() + gate.offTopicQuestions() == 0) {
      out.println("  gate precision: n/a (one conversation, no off-topic questions)");
    } else {
      out.printf(
          Locale.ROOT,
          "  gate precision: %d of %d off-topic recalls empty = %.3f%n",
          gate.offTopicEmpty() + gate.offTopicQuestionsEmpty(),
          gate.offTopic() + gate.offTopicQuestions(),
          gate.precision());
      out.printf(
          Locale.ROOT,
          "    other conversation: %d of %d empty; off-topic questions: %d of %d empty"
              + " (%d injected something)%n",
          gate.offTopicEmpty(),
          gate.offTopic(),
          gate.offTopicQuestionsEmpty(),
          gate.offTopicQuestions(),
          gate.offTopicQuestions() - gate.offTopicQuestionsEmpty());
    }
    out.printf(
        Locale.ROOT,
        "  gate cost: %d of %d on-topic queries lost all evidence = %.3f%n",
        gate.evidenceLost(),
        gate.withEvidence(),
        gate.cost());
    if (!gate.lostByCategory().isEmpty()) {
      out.println("    lost by category: " + gate.lostByCategory());
    }
    out.printf(
        Locale.ROOT,
        "  on-topic recalls that returned nothing with the gate: %d of %d%n",
        gate.onTopicEmpty(),
        gate.queries());
  }

  /** Median, p99 and mean of the sorted fused recall latencies. */
  static void latency(double[] sortedMillis, PrintStream out) {
    out.println();
    out.printf(
        Locale.ROOT,
        "Fused recall latency per query (query embedding included), %d queries:"
            + " median %.2f ms, p99 %.2f ms, mean %.2f ms%n",
        sortedMillis.length,
        percentile(sortedMillis, 0.5),
        percentile(sortedMillis, 0.99),
        Arrays.stream(sortedMillis).average().orElse(0));
  }

  /** The nearest-rank percentile of sorted {@code values}; 0 when empty. */
  static double percentile(double[] sorted, double p) {
    if (sorted.length == 0) {
      return 0;
    }
    int rank = (int) Math.ceil(p * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }

  private static String row(String label, Metrics.Sums s) {
    return String.format(
        Locale.ROOT,
        "| %s | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f |",
        label,
        s.queries(),
        s.recall5(),
        s.recall10(),
        s.any5(),
        s.mrr(),
        s.sessionRecall5(),
        s.sessionRecall10(),
        s.sessionAny5(),
        s.sessionAny10(),
        s.topTurnsSessionRecall(),
        s.topTurnsSessionAny());
  }
}
