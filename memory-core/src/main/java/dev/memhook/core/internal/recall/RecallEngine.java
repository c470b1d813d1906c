package dev.memhook.core.internal.recall;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.memhook.api.DroppedCandidate;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecallResult;
import dev.memhook.api.RecalledMemory;
import dev.memhook.api.Signal;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.Reranker;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.api.spi.TextHits;
import dev.memhook.api.RecallOptions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Recall above the store, the same for every store:
 *
 * <ol>
 *   <li>per-signal top-k: BM25 text and k-nearest vectors from the store;
 *   <li>graph expansion: the top fused hits' concepts and files find memories that share them;
 *   <li>weighted reciprocal-rank fusion of the three lists ({@link Fusion});
 *   <li>relevance gate: a candidate needs one signal over its absolute floor;
 *   <li>session diversification: at most N per source session, walking the fused order;
 *   <li>cut to the limit, then the optional reranker over the top M.
 * </ol>
 *
 * The gate runs before the session cap (the design lists them the other way round) so that
 * candidates without evidence never use up a session's places.
 *
 * <p>Thread-safe: it holds only the store, the embedder, immutable options and Caffeine caches.
 */
public final class RecallEngine {

  private static final Logger LOG = LoggerFactory.getLogger(RecallEngine.class);
  /** Queries longer than this are cut before embedding and text search. */
  static final int MAX_QUERY_CHARS = 4_000;
  /** At most this many LIMIT drops are listed in a result, so explanations stay bounded. */
  private static final int MAX_LISTED_LIMIT_DROPS = 20;

  private final MemoryStore store;
  private final Embedder embedder;
  private final RecallOptions options;
  private final Cache<String, Embedding> queryCache;

  public RecallEngine(MemoryStore store, Embedder embedder, RecallOptions options) {
    this.store = Objects.requireNonNull(store, "store");
    this.embedder = Objects.requireNonNull(embedder, "embedder");
    this.options = Objects.requireNonNull(options, "options");
    this.queryCache = Caffeine.newBuilder().maximumSize(options.queryCacheSize()).build();
  }

  /** The options in force. */
  public RecallOptions options() {
    return options;
  }

  /** Embeds a query, once per distinct text while it stays in the cache. */
  public Embedding embedQuery(String text) {
    return queryCache.get(text, embedder::embed);
  }

  /** Runs the whole pipeline for {@code query}. */
  public RecallResult recall(RecallQuery query) {
    Objects.requireNonNull(query, "query");
    String text = query.text().length() > MAX_QUERY_CHARS ? query.text().substring(0, MAX_QUERY_CHARS) : query.text();
    if (text.isBlank()) {
      return RecallResult.empty();
    }
    int depth = Math.max(options.candidatesPerSignal(), query.limit());
    TextHits found = options.textWeight() > 0 ? store.searchText(query.scope(), text, depth) : TextHits.none();
    List<StoreHit> textHits = found.hits();
    double ceiling = found.ceiling();
    List<StoreHit> vectorHits = options.vectorWeight() > 0
        ? store.searchVector(query.scope(), embedQuery(text), depth) : List.of();

    List<Fusion.RankedList> lists = new ArrayList<>(3);
    lists.add(new Fusion.RankedList(Signal.TEXT, options.textWeight(), textHits));
    lists.add(new Fusion.RankedList(Signal.VECTOR, options.vectorWeight(), vectorHits));
    List<Candidate> fused = Fusion.fuse(lists, options.rrfK());

    Map<MemoryId, Memory> records = new HashMap<>();
    if (options.graphSeeds() > 0 && options.graphWeight() > 0 && !fused.isEmpty()) {
      List<Candidate> seeds = new ArrayList<>();
      for (Candidate c : fused) {
        if (seeds.size() == options.graphSeeds()) {
          break;
        }
        if (passesDirectFloor(c, ceiling)) {
          seeds.add(c);
        }
      }
      List<StoreHit> graphHits = expand(query, seeds, records, depth);
      if (!graphHits.isEmpty()) {
        lists.add(new Fusion.RankedList(Signal.GRAPH, options.graphWeight(), graphHits));
        fused = Fusion.fuse(lists, options.rrfK());
      }
    }

    List<DroppedCandidate> dropped = new ArrayList<>();
    List<Candidate> gated = new ArrayList<>();
    if (!hasEvidence(fused, ceiling)) {
      String detail = evidenceDetail(fused, ceiling);
      for (Candidate c : fused) {
        if (dropped.size() == MAX_LISTED_LIMIT_DROPS) {
          break;
        }
        dropped.add(new DroppedCandidate(c.id, DroppedCandidate.Rule.RELEVANCE_GATE, detail));
      }
      return new RecallResult(List.of(), dropped);
    }
    for (Candidate c : fused) {
      if (passesGate(c, ceiling)) {
        gated.add(c);
      } else {
        dropped.add(new DroppedCandidate(c.id, DroppedCandidate.Rule.RELEVANCE_GATE, gateDetail(c, ceiling)));
      }
    }

    List<RecalledMemory> kept = new ArrayList<>();
    Map<String, Integer> perSession = new HashMap<>();
    int limitDrops = 0;
    int wanted = options.reranker().isPresent() ? Math.max(query.limit(), options.rerankTop()) : query.limit();
    int next = 0;
    while (next < gated.size() && kept.size() < wanted) {
      // Read the places left plus a small margin for candidates forgotten, superseded or capped
      // since the search; the loop reads on if that was not enough. Records not in the cache cost
      // tens of microseconds each, so reading twice the places (as this once did) doubled it.
      int need = wanted - kept.size();
      int end = Math.min(gated.size(), next + need + Math.max(2, need / 4));
      fetch(gated.subList(next, end), records);
      for (; next < end && kept.size() < wanted; next++) {
        Candidate c = gated.get(next);
        Memory m = records.get(c.id);
        if (m == null || !m.latest() || !m.scope().equals(query.scope())) {
          continue; // forgotten or superseded between search and read: never returned
        }
        String session = m.sourceSession();
        if (session != null) {
          int count = perSession.merge(session, 1, Integer::sum);
          if (count > options.maxPerSession()) {
            dropped.add(new DroppedCandidate(c.id, DroppedCandidate.Rule.SESSION_CAP,
                "session " + session + " already has " + options.maxPerSession()));
            continue;
          }
        }
        kept.add(new RecalledMemory(m, c.fused, c.signalHits()));
      }
    }
    for (; next < gated.size() && limitDrops < MAX_LISTED_LIMIT_DROPS; next++, limitDrops++) {
      Candidate c = gated.get(next);
      dropped.add(new DroppedCandidate(c.id, DroppedCandidate.Rule.LIMIT,
          String.format(Locale.ROOT, "fused %.4f ranked below the limit of %d", c.fused, query.limit())));
    }

    List<RecalledMemory> result = rerank(text, kept);
    if (result.size() > query.limit()) {
      result = new ArrayList<>(result.subList(0, query.limit()));
    }
    return new RecallResult(result, dropped);
  }

  private List<StoreHit> expand(RecallQuery query, List<Candidate> seeds, Map<MemoryId, Memory> records, int depth) {
    if (seeds.isEmpty()) {
      return List.of();
    }
    fetch(seeds, records);
    Set<String> concepts = new LinkedHashSet<>();
    Set<String> files = new LinkedHashSet<>();
    Set<MemoryId> seedIds = new HashSet<>();
    for (Candidate seed : seeds) {
      Memory m = records.get(seed.id);
      if (m != null) {
        concepts.addAll(m.concepts());
        files.addAll(m.files());
        seedIds.add(seed.id);
      }
    }
    if (concepts.isEmpty() && files.isEmpty()) {
      return List.of();
    }
    List<StoreHit> related = store.searchRelated(query.scope(), concepts, files, depth + seedIds.size());
    List<StoreHit> out = new ArrayList<>();
    for (StoreHit hit : related) {
      if (!seedIds.contains(hit.id())) {
        out.add(hit);
      }
    }
    return out;
  }

  private void fetch(List<Candidate> candidates, Map<MemoryId, Memory> records) {
    List<MemoryId> missing = new ArrayList<>();
    for (Candidate c : candidates) {
      if (!records.containsKey(c.id)) {
        missing.add(c.id);
      }
    }
    if (!missing.isEmpty()) {
      records.putAll(store.getAll(missing));
    }
  }

  /**
   * The candidate's text score as a share of the query's text-score ceiling (what the text floors
   * compare), or NaN if text did not find it or the ceiling is 0; NaN clears no floor.
   */
  private static double textShare(Candidate c, double ceiling) {
    return ceiling > 0 && c.hits.containsKey(Signal.TEXT) ? c.score(Signal.TEXT, 0) / ceiling : Double.NaN;
  }

  /** Whether any candidate reaches an evidence floor: the query-level half of the gate. */
  private boolean hasEvidence(List<Candidate> fused, double ceiling) {
    for (Candidate c : fused) {
      double cosine = c.score(Signal.VECTOR, Double.NEGATIVE_INFINITY);
      if (cosine >= options.evidenceCosine() || textShare(c, ceiling) >= options.evidenceTextScore()) {
        return true;
      }
    }
    return false;
  }

  private String evidenceDetail(List<Candidate> fused, double ceiling) {
    double bestCosine = Double.NaN;
    double bestText = Double.NaN;
    for (Candidate c : fused) {
      if (c.hits.containsKey(Signal.VECTOR)) {
        bestCosine = Double.isNaN(bestCosine) ? c.score(Signal.VECTOR, 0) : Math.max(bestCosine, c.score(Signal.VECTOR, 0));
      }
      double t = textShare(c, ceiling);
      if (!Double.isNaN(t)) {
        bestText = Double.isNaN(bestText) ? t : Math.max(bestText, t);
      }
    }
    return String.format(Locale.ROOT, "no candidate reached the evidence floors: best cosine %.3f < %.2f, best text %.3f < %.2f",
        bestCosine, options.evidenceCosine(), bestText, options.evidenceTextScore());
  }

  private boolean passesDirectFloor(Candidate c, double ceiling) {
    double cosine = c.score(Signal.VECTOR, Double.NEGATIVE_INFINITY);
    return cosine >= options.minCosine() || textShare(c, ceiling) >= options.minTextScore();
  }

  private boolean passesGate(Candidate c, double ceiling) {
    return passesDirectFloor(c, ceiling)
        || (c.hits.containsKey(Signal.GRAPH) && c.score(Signal.GRAPH, 0) >= options.minSharedEntities());
  }

  private String gateDetail(Candidate c, double ceiling) {
    return String.format(Locale.ROOT, "cosine %s < %.2f, text %s < %.2f, shared %s < %d",
        c.hits.containsKey(Signal.VECTOR) ? String.format(Locale.ROOT, "%.3f", c.score(Signal.VECTOR, 0)) : "-",
        options.minCosine(),
        Double.isNaN(textShare(c, ceiling)) ? "-" : String.format(Locale.ROOT, "%.3f", textShare(c, ceiling)),
        options.minTextScore(),
        c.hits.containsKey(Signal.GRAPH) ? String.format(Locale.ROOT, "%.0f", c.score(Signal.GRAPH, 0)) : "-",
        options.minSharedEntities());
  }

  private List<RecalledMemory> rerank(String text, List<RecalledMemory> kept) {
    if (options.reranker().isEmpty() || kept.size() < 2) {
      return kept;
    }
    Reranker reranker = options.reranker().get();
    List<RecalledMemory> head = kept.subList(0, Math.min(kept.size(), options.rerankTop()));
    try {
      List<RecalledMemory> reordered = reranker.rerank(text, List.copyOf(head));
      Set<MemoryId> given = new HashSet<>();
      head.forEach(m -> given.add(m.id()));
      for (RecalledMemory m : reordered) {
        if (!given.contains(m.id())) {
          throw new IllegalStateException("reranker returned " + m.id() + ", which it was not given");
        }
      }
      List<RecalledMemory> out = new ArrayList<>(reordered);
      out.addAll(kept.subList(head.size(), kept.size()));
      return out;
    } catch (RuntimeException e) {
      LOG.warn("reranker {} failed; keeping the fused order", reranker, e);
      return kept;
    }
  }
}
