package dev.memhook.benchmarks.eval;

import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecallResult;
import dev.memhook.api.Scope;
import dev.memhook.benchmarks.eval.EvalData.EvalQuery;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Runs {@link RetrievalEval}'s recalls and counts what they found: retrieval quality of the ungated
 * configurations, then the relevance gate's precision and cost. Prints nothing. Stateless.
 */
final class EvalRecalls {

  /** The ungated configurations, in the order they run and are reported. */
  static final List<String> CONFIGS = List.of("text", "vector", "fused");

  /**
   * Retrieval quality with the gate off.
   *
   * @param overall per configuration, the metrics over all queries
   * @param perCategory per configuration, the metrics per category ("number name")
   * @param categories every category, sorted
   * @param fusedTop per query id, the eval ids the fused configuration ranked
   * @param latencyMillis fused recall latencies, sorted
   * @param exactShaped per category, how many queries fusion read as exact references (its {@link
   *     RecallResult#fusion()} says so)
   * @param sessionRankings per configuration, the session rankings' shape
   */
  record Quality(
      Map<String, Metrics.Sums> overall,
      Map<String, Map<String, Metrics.Sums>> perCategory,
      SortedSet<String> categories,
      Map<String, List<String>> fusedTop,
      double[] latencyMillis,
      SortedMap<String, Integer> exactShaped,
      Map<String, SessionRankings> sessionRankings) {}

  /**
   * How the deeper rankings the session metrics read turned out for one configuration.
   *
   * @param queries queries ranked
   * @param prefixDiffers queries whose deeper ranking did not start with the ids of the {@link
   *     RetrievalEval#LIMIT} recall (then the turn and session metrics saw different orders)
   * @param underTenSessions queries whose deeper ranking held fewer than 10 distinct sessions
   */
  record SessionRankings(int queries, int prefixDiffers, int underTenSessions) {}

  /**
   * What the relevance gate did.
   *
   * @param offTopic on-topic questions recalled against another conversation
   * @param offTopicEmpty those that returned nothing
   * @param offTopicQuestions questions no memory answers ({@code relevant} empty), recalled against
   *     their own conversation
   * @param offTopicQuestionsEmpty those that returned nothing (anything returned is a false
   *     injection)
   * @param withEvidence on-topic queries whose ungated fused top holds a relevant memory
   * @param evidenceLost those whose gated top holds none
   * @param onTopicEmpty gated on-topic recalls (own conversation) that returned nothing
   * @param queries on-topic queries
   * @param lostByCategory {@code evidenceLost} per category name, in name order
   */
  record Gate(
      int offTopic,
      int offTopicEmpty,
      int offTopicQuestions,
      int offTopicQuestionsEmpty,
      int withEvidence,
      int evidenceLost,
      int onTopicEmpty,
      int queries,
      SortedMap<String, Integer> lostByCategory) {

    /**
     * The share of off-topic recalls (other conversation, or a question no memory answers) that
     * returned nothing, or NaN without any.
     */
    double precision() {
      int all = offTopic + offTopicQuestions;
      return all == 0 ? Double.NaN : (double) (offTopicEmpty + offTopicQuestionsEmpty) / all;
    }

    /** The share of on-topic queries whose evidence the gate removed, or NaN without any. */
    double cost() {
      return withEvidence == 0 ? Double.NaN : (double) evidenceLost / withEvidence;
    }
  }

  private EvalRecalls() {}

  /**
   * Runs every on-topic query (one with relevant ids) against its own conversation with each of
   * {@link #CONFIGS}, timing the fused recalls. Questions no memory answers ({@code relevant}
   * empty) have no ranking to score; {@link #gate} measures them.
   *
   * <p>Each query runs twice per configuration: with {@link RetrievalEval#LIMIT}, as a host asks
   * (timed; the turn metrics and the gate read it), and untimed with {@link
   * RetrievalEval#SESSION_DEPTH}, whose first distinct sessions the session metrics read. Up to the
   * candidate depth the limit only cuts the fused list, so the deeper ranking starts with the same
   * ids; the run counts the queries where it did not. Each {@link RetrievalEval#LIMIT} recall is
   * written to {@code trace}.
   */
  static Quality quality(
      EvalData data,
      Map<String, Scope> scopes,
      Map<String, MemoryService> services,
      Map<MemoryId, String> evalIds,
      EvalTrace trace) {
    EvalSessions sessions = EvalSessions.of(data);
    AskedAt asked = AskedAt.of(data);
    Map<String, SessionRankings> sessionRankings = new LinkedHashMap<>();
    Map<String, Metrics.Sums> overall = new LinkedHashMap<>();
    Map<String, Map<String, Metrics.Sums>> perCategory = new LinkedHashMap<>();
    Map<String, List<String>> fusedTop = new HashMap<>();
    SortedSet<String> categories = new TreeSet<>();
    List<EvalQuery> onTopic = onTopic(data);
    double[] latencies = new double[onTopic.size()];
    SortedMap<String, Integer> exactShaped = new TreeMap<>();
    for (String config : CONFIGS) {
      MemoryService service = services.get(config);
      Metrics.Sums all = new Metrics.Sums();
      Map<String, Metrics.Sums> byCategory = new TreeMap<>();
      int qi = 0;
      int prefixDiffers = 0;
      int underTenSessions = 0;
      for (EvalQuery q : onTopic) {
        Scope scope = scopes.get(q.conv());
        long t0 = System.nanoTime();
        RecallResult r = service.recall(asked.query(scope, q, RetrievalEval.LIMIT));
        long t1 = System.nanoTime();
        List<String> ranked = ranked(r, evalIds);
        List<String> deeper =
            ranked(service.recall(asked.query(scope, q, RetrievalEval.SESSION_DEPTH)), evalIds);
        if (deeper.size() < ranked.size() || !deeper.subList(0, ranked.size()).equals(ranked)) {
          prefixDiffers++;
        }
        if (sessions.rankedSessions(deeper).size() < 10) {
          underTenSessions++;
        }
        trace.ranking(config, q, ranked, r);
        all.add(ranked, deeper, q.relevant(), sessions);
        String category = categoryLabel(q);
        categories.add(category);
        byCategory
            .computeIfAbsent(category, c -> new Metrics.Sums())
            .add(ranked, deeper, q.relevant(), sessions);
        if (config.equals("fused")) {
          latencies[qi] = (t1 - t0) / 1e6;
          fusedTop.put(q.id(), ranked);
          if (r.fusion().contains("query shape exact")) {
            exactShaped.merge(category, 1, Integer::sum);
          }
        }
        qi++;
      }
      overall.put(config, all);
      perCategory.put(config, byCategory);
      sessionRankings.put(
          config, new SessionRankings(onTopic.size(), prefixDiffers, underTenSessions));
    }
    Arrays.sort(latencies);
    return new Quality(
        overall, perCategory, categories, fusedTop, latencies, exactShaped, sessionRankings);
  }

  /**
   * A query's category as the tables name it: {@code "<number> <name>"}, or the name alone when the
   * data names categories without numbers (LongMemEval's question types).
   */
  static String categoryLabel(EvalQuery q) {
    boolean numbered = q.category() != 0 || q.categoryName().equals("0");
    return numbered ? q.category() + " " + q.categoryName() : q.categoryName();
  }

  /**
   * Runs every query through {@code gated}. An on-topic query runs against the next conversation
   * (the last against the first), which should return nothing, and against its own, compared with
   * {@code fusedTop}. A question no memory answers ({@code relevant} empty) runs against its own
   * conversation only, which should return nothing. Each recall is written to {@code trace} with
   * what it counted as.
   */
  static Gate gate(
      EvalData data,
      Map<String, Scope> scopes,
      MemoryService gated,
      Map<String, List<String>> fusedTop,
      Map<MemoryId, String> evalIds,
      EvalTrace trace) {
    int limit = RetrievalEval.LIMIT;
    AskedAt asked = AskedAt.of(data);
    List<String> convs = new ArrayList<>(scopes.keySet());
    int offTopic = 0;
    int offTopicEmpty = 0;
    int withEvidence = 0;
    int evidenceLost = 0;
    int onTopicEmpty = 0;
    int offTopicQuestions = 0;
    int offTopicQuestionsEmpty = 0;
    SortedMap<String, Integer> lostByCategory = new TreeMap<>();
    for (EvalQuery q : data.queries()) {
      if (q.relevant().isEmpty()) {
        offTopicQuestions++;
        RecallResult r = gated.recall(asked.query(scopes.get(q.conv()), q, limit));
        if (r.memories().isEmpty()) {
          offTopicQuestionsEmpty++;
        }
        trace.gate("question", q, q.conv(), offTopicOutcome(r), ranked(r, evalIds), r, evalIds);
        continue;
      }
      if (convs.size() > 1) {
        String other = convs.get((convs.indexOf(q.conv()) + 1) % convs.size());
        offTopic++;
        RecallResult r = gated.recall(asked.query(scopes.get(other), q, limit));
        if (r.memories().isEmpty()) {
          offTopicEmpty++;
        }
        trace.gate("other", q, other, offTopicOutcome(r), ranked(r, evalIds), r, evalIds);
      }
      RecallResult own = gated.recall(asked.query(scopes.get(q.conv()), q, limit));
      List<String> gatedTop = ranked(own, evalIds);
      if (gatedTop.isEmpty()) {
        onTopicEmpty++;
      }
      String outcome = "no evidence";
      if (Metrics.anyAt(limit, fusedTop.get(q.id()), q.relevant()) > 0) {
        withEvidence++;
        outcome = "kept evidence";
        if (Metrics.anyAt(limit, gatedTop, q.relevant()) == 0) {
          evidenceLost++;
          lostByCategory.merge(q.categoryName(), 1, Integer::sum);
          outcome = "lost evidence";
        }
      }
      trace.gate("own", q, q.conv(), outcome, gatedTop, own, evalIds);
    }
    return new Gate(
        offTopic,
        offTopicEmpty,
        offTopicQuestions,
        offTopicQuestionsEmpty,
        withEvidence,
        evidenceLost,
        onTopicEmpty,
        onTopic(data).size(),
        Collections.unmodifiableSortedMap(lostByCategory));
  }

  private static String offTopicOutcome(RecallResult r) {
    return r.memories().isEmpty() ? "empty" : "injected";
  }

  /** The queries some memory answers, in file order. */
  static List<EvalQuery> onTopic(EvalData data) {
    return data.queries().stream().filter(q -> !q.relevant().isEmpty()).toList();
  }

  /** The eval ids of {@code r}'s memories in rank order; an unknown id stays as it is. */
  private static List<String> ranked(RecallResult r, Map<MemoryId, String> evalIds) {
    List<String> out = new ArrayList<>(r.memories().size());
    r.ids().forEach(id -> out.add(evalIds.getOrDefault(id, id.value())));
    return out;
  }

  /**
   * When each question is asked, as a host would give it in {@link RecallQuery#asOf()}: its own
   * {@code time} when the file gives one (LongMemEval's question date), else the latest time of its
   * conversation's memories (a LoCoMo question is asked after the conversation, as a live host's
   * clock would stand), else null (the service's clock).
   */
  record AskedAt(Map<String, Instant> latestByConv) {

    static AskedAt of(EvalData data) {
      Map<String, Instant> latest = new HashMap<>();
      for (EvalData.EvalMemory m : data.memories()) {
        if (m.time() != null) {
          ConversationTime.parse(m.time())
              .ifPresent(t -> latest.merge(m.conv(), t, (a, b) -> a.isAfter(b) ? a : b));
        }
      }
      return new AskedAt(latest);
    }

    /** When {@code q} is asked, or null for the service's clock. */
    Instant of(EvalQuery q) {
      if (q.time() != null) {
        java.util.Optional<Instant> t = ConversationTime.parse(q.time());
        if (t.isPresent()) {
          return t.get();
        }
      }
      return latestByConv.get(q.conv());
    }

    /** {@code q} as a recall query in {@code scope}, asked when {@link #of(EvalQuery)} says. */
    RecallQuery query(Scope scope, EvalQuery q, int limit) {
      return new RecallQuery(scope, q.text(), limit, of(q));
    }
  }
}
