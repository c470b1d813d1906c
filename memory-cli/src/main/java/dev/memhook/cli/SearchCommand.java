package dev.memhook.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memhook.api.DroppedCandidate;
import dev.memhook.api.FusionMethod;
import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecallResult;
import dev.memhook.api.RecalledMemory;
import dev.memhook.api.Scope;
import dev.memhook.api.SignalHit;
import dev.memhook.lucene.IndexInfo;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code memhook search}: a recall as a host makes it, with the host's recall options, and with
 * {@code --explain} each signal's rank and score and every gate decision.
 */
@Command(
    name = "search",
    description =
        "Recall memories as a host would, best first; --explain shows each signal's rank and"
            + " score, the fusion and what the gates dropped. Read-only.")
final class SearchCommand implements Callable<Integer> {
  @ParentCommand MemhookCli root;
  @Mixin StoreArguments store;

  @Parameters(arity = "1..*", paramLabel = "QUERY", description = "What to recall for.")
  List<String> words;

  @Option(
      names = "--scope",
      paramLabel = "SCOPE",
      description = "The scope searched. Default: ${DEFAULT-VALUE}.")
  Scope scope = Scope.DEFAULT;

  @Option(
      names = "--limit",
      paramLabel = "N",
      description =
          "At most N memories (1-" + RecallQuery.MAX_LIMIT + "). Default: ${DEFAULT-VALUE}.")
  int limit = RecallQuery.DEFAULT_LIMIT;

  @Option(names = "--explain", description = "Show ranks, scores, fusion and gate decisions.")
  boolean explain;

  @Option(
      names = "--fusion",
      paramLabel = "METHOD",
      description = "standardised_scores or reciprocal_ranks.")
  FusionMethod fusion;

  @Option(names = "--rrf-k", paramLabel = "K", description = "The RRF constant (1-1000).")
  Integer rrfK;

  @Option(
      names = "--weights",
      paramLabel = "T,V,G",
      split = ",",
      description = "Fusion weights of the text, vector and graph signals, each in [0, 10].")
  double[] weights;

  @Option(names = "--candidates", paramLabel = "N", description = "Candidates per signal.")
  Integer candidates;

  @Option(names = "--max-per-session", paramLabel = "N", description = "Results per session.")
  Integer maxPerSession;

  @Option(names = "--no-session-cap", description = "No cap on results per session.")
  boolean noSessionCap;

  @Option(
      names = "--min-cosine",
      paramLabel = "X",
      description =
          "The gate's candidate floor on cosine, as a share of the way from the cosine unrelated"
              + " text reaches with this model (0) to 1; above 1 turns the vector route off.")
  Double minCosine;

  @Option(
      names = "--min-text-score",
      paramLabel = "X",
      description = "The gate's candidate floor on the normalised text score, in [0, 1].")
  Double minTextScore;

  @Option(names = "--no-gate", description = "Turn the relevance gate off.")
  boolean noGate;

  @Override
  public Integer call() {
    CliContext context = root.context();
    // a store whose model memhook does not have is searched by its words (a server never has one)
    IndexInfo info = context.served().isPresent() ? null : store.info(context);
    boolean wordsOnly = info != null && store.readsWithoutModel(info);
    RecallQuery query;
    RecallOptions options;
    try {
      query = new RecallQuery(scope, String.join(" ", words), limit);
      options = options(wordsOnly);
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new CliException(ExitCode.USAGE, e.getMessage(), e);
    }
    if (wordsOnly) {
      context
          .err()
          .println(
              "memhook: searched by words only: the store's vectors are in model '"
                  + info.space().modelId()
                  + "', which memhook does not have, so the vector signal is off and the"
                  + " relevance gate reads no cosine");
    }
    RecallResult result;
    // a server's store recalls with the default options: only a tuned search needs its own
    try (MemoryService memory =
        tuned() || wordsOnly ? store.openReadOnly(context, options) : store.openReadOnly(context)) {
      result = memory.recall(query);
    }
    if (store.json) {
      JsonRecords.print(context.out(), json(result));
      return ExitCode.OK;
    }
    int rank = 1;
    for (RecalledMemory m : result.memories()) {
      context.out().printf("%d. %s  %s%n", rank++, m.id(), m.memory().title());
      context.out().println("   " + m.memory().summary());
    }
    if (result.memories().isEmpty()) {
      context.out().println("nothing relevant enough");
    }
    if (explain) {
      context.out().println();
      context.out().print(SearchExplanation.of(result));
    }
    return ExitCode.OK;
  }

  /** Whether an option changes the recall options from their defaults. */
  private boolean tuned() {
    return fusion != null
        || rrfK != null
        || weights != null
        || candidates != null
        || maxPerSession != null
        || noSessionCap
        || noGate
        || minCosine != null
        || minTextScore != null;
  }

  /**
   * The recall options the flags ask for; {@code wordsOnly}, with the vector weight at 0 and the
   * cosine floors absolute, so that nothing embeds the query (the text and graph weights stay as
   * asked).
   */
  private RecallOptions options(boolean wordsOnly) {
    RecallOptions.Builder b = RecallOptions.builder();
    if (fusion != null) {
      b.fusion(fusion);
    }
    if (rrfK != null) {
      b.rrfK(rrfK);
    }
    if (weights != null && weights.length != 3) {
      throw new IllegalArgumentException("--weights takes three numbers: text,vector,graph");
    }
    if (wordsOnly) {
      RecallOptions d = RecallOptions.defaults();
      double text = weights == null ? d.textWeight() : weights[0];
      if (text == 0) {
        throw new IllegalArgumentException(
            "this store is searched by words only (memhook does not have its model): the text"
                + " weight must be positive");
      }
      b.weights(text, 0, weights == null ? d.graphWeight() : weights[2]);
      b.cosineBase(RecallOptions.CosineBase.ABSOLUTE);
    } else if (weights != null) {
      b.weights(weights[0], weights[1], weights[2]);
    }
    if (candidates != null) {
      b.candidatesPerSignal(candidates);
    }
    if (maxPerSession != null) {
      b.maxPerSession(maxPerSession);
    }
    if (noSessionCap) {
      b.noSessionCap();
    }
    if (noGate) {
      b.noRelevanceGate();
    }
    if (minCosine != null) {
      b.minCosine(minCosine);
    }
    if (minTextScore != null) {
      b.minTextScore(minTextScore);
    }
    return b.build();
  }

  private ObjectNode json(RecallResult result) {
    ObjectNode n = JsonRecords.MAPPER.createObjectNode();
    ArrayNode memories = n.putArray("memories");
    int rank = 1;
    for (RecalledMemory m : result.memories()) {
      ObjectNode o =
          memories
              .addObject()
              .put("rank", rank++)
              .put("id", m.id().value())
              .put("score", m.score())
              .put("title", m.memory().title())
              .put("summary", m.memory().summary());
      if (explain) {
        signals(o.putArray("signals"), m.signals());
      }
    }
    if (explain) {
      n.put("fusion", result.fusion());
      ArrayNode dropped = n.putArray("dropped");
      for (DroppedCandidate d : result.dropped()) {
        ObjectNode o =
            dropped
                .addObject()
                .put("id", d.id().value())
                .put("rule", JsonRecords.lower(d.rule()))
                .put("detail", d.detail());
        signals(o.putArray("signals"), d.signals());
      }
      ObjectNode took = n.putObject("tookMicros");
      result.took().forEach((s, d) -> took.put(JsonRecords.lower(s), d.toNanos() / 1000));
    }
    return n;
  }

  private static void signals(ArrayNode array, List<SignalHit> hits) {
    for (SignalHit h : hits) {
      array
          .addObject()
          .put("signal", JsonRecords.lower(h.signal()))
          .put("rank", h.rank())
          .put("score", h.score());
    }
  }
}
