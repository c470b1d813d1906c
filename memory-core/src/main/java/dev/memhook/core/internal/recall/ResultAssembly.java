package dev.memhook.core.internal.recall;

import dev.memhook.api.DroppedCandidate;
import dev.memhook.api.Memory;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecalledMemory;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Result assembly: turns the gated candidates, best first, into recalled memories by reading their
 * records, skipping those forgotten, superseded or in another scope by now, capping each source
 * session and stopping at the places wanted. Stateless and thread-safe.
 */
final class ResultAssembly {

  private final RecallOptions options;
  private final int maxListedLimitDrops;

  /**
   * Assembly with the session cap of {@code options}.
   *
   * @param maxListedLimitDrops how many of the candidates left over once the places are filled are
   *     listed as {@link DroppedCandidate.Rule#LIMIT} drops
   */
  ResultAssembly(RecallOptions options, int maxListedLimitDrops) {
    this.options = options;
    this.maxListedLimitDrops = maxListedLimitDrops;
  }

  /**
   * At most {@code wanted} memories from {@code gated}, in its order, none that {@code exclusion}
   * leaves out. Appends each candidate it leaves out to {@code excluded}, before the session cap
   * and the places count, so it takes no place. Appends to {@code dropped} a {@link
   * DroppedCandidate.Rule#SESSION_CAP} drop for each candidate whose source session already has its
   * {@link RecallOptions#maxPerSession()}, then a {@link DroppedCandidate.Rule#LIMIT} drop for each
   * of the first {@code maxListedLimitDrops} candidates not reached.
   *
   * <p>Records are read in chunks: the places left plus a margin, reading on while places are left
   * and candidates remain.
   */
  List<RecalledMemory> assemble(
      RecallQuery query,
      List<Candidate> gated,
      int wanted,
      RecordReader records,
      Exclusion exclusion,
      List<RecalledMemory> excluded,
      List<DroppedCandidate> dropped) {
    List<RecalledMemory> kept = new ArrayList<>();
    Map<String, Integer> perSession = new HashMap<>();
    int next = 0;
    while (next < gated.size() && kept.size() < wanted) {
      // The margin covers a few candidates forgotten, superseded or capped since the search, so one
      // read usually fills the places; the loop reads on if it did not. Each record the store has
      // not cached is a read of its own, so reading far beyond the places left costs reads whose
      // records are never returned (see benchmarks/RESULTS.md).
      int end = Math.min(gated.size(), next + firstRead(wanted - kept.size()));
      records.read(gated.subList(next, end));
      for (; next < end && kept.size() < wanted; next++) {
        Candidate c = gated.get(next);
        Memory m = records.get(c.id);
        if (!current(query, m)) {
          continue; // forgotten or superseded between search and read: never returned
        }
        if (exclusion.excludes(m)) {
          excluded.add(new RecalledMemory(m, c.fused, c.signalHits()));
          continue;
        }
        String session = m.sourceSession();
        if (session != null) {
          int count = perSession.merge(session, 1, Integer::sum);
          if (count > options.maxPerSession()) {
            dropped.add(
                new DroppedCandidate(
                    c.id,
                    DroppedCandidate.Rule.SESSION_CAP,
                    "session " + session + " already has " + options.maxPerSession(),
                    c.signalHits()));
            continue;
          }
        }
        kept.add(new RecalledMemory(m, c.fused, c.signalHits()));
      }
    }
    for (int listed = 0; next < gated.size() && listed < maxListedLimitDrops; next++, listed++) {
      Candidate c = gated.get(next);
      dropped.add(
          new DroppedCandidate(
              c.id,
              DroppedCandidate.Rule.LIMIT,
              "fused " + fourDecimals(c.fused) + " ranked below the limit of " + query.limit(),
              c.signalHits()));
    }
    return kept;
  }

  /**
   * How many records assembly reads at once for {@code need} places left: the places and a margin
   * of a quarter of them, at least 2.
   */
  static int firstRead(int need) {
    return need + Math.max(2, need / 4);
  }

  /**
   * Whether {@code m}, a candidate's record read for {@code query} (null if gone), is still the
   * latest memory of the query's scope: one forgotten, superseded or moved since the search never
   * is.
   */
  static boolean current(RecallQuery query, Memory m) {
    return m != null && m.latest() && m.scope().equals(query.scope());
  }

  /** Whether assembly would return {@code m} for {@code query}: current and not excluded. */
  static boolean returnable(RecallQuery query, Memory m, Exclusion exclusion) {
    return current(query, m) && !exclusion.excludes(m);
  }

  /**
   * {@code v} with four decimals, as {@code %.4f} prints it, without a {@link java.util.Formatter}
   * (which parses its pattern on every call: a recall lists many drops).
   */
  static String fourDecimals(double v) {
    if (!Double.isFinite(v)) {
      return String.format(Locale.ROOT, "%.4f", v);
    }
    String digits = BigDecimal.valueOf(v).setScale(4, RoundingMode.HALF_UP).toPlainString();
    // a negative value that rounds to zero keeps its sign, as the Formatter prints it
    boolean negative = Double.doubleToRawLongBits(v) < 0;
    return negative && !digits.startsWith("-") ? "-" + digits : digits;
  }
}
