package dev.memhook.core.internal.recall;

import dev.memhook.api.Memory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * For a question that counts or adds up across occasions ({@link CountingCue}), each further
 * candidate of a source session already represented higher in the ranking gives way a little, so
 * the result's places spread over more of the conversations the occasions were told in.
 *
 * <h2>Design note</h2>
 *
 * "How many weddings have I been to this year?" is answered by one mention in each conversation
 * where a wedding came up. The conversation that matches best often holds several turns on its
 * wedding, which rank ahead of the other conversations' single mentions and take the places the
 * count needs. So, going down the ranking, the k-th candidate of a session after its first (k = 1,
 * 2, …) has its fused score multiplied by {@link #DISCOUNT}<sup>k</sup>: a session's second turn by
 * 0.9, its third by 0.81. The rule it keeps: <b>a candidate still ranks above every one whose fused
 * score was lower than its own times {@code DISCOUNT}<sup>k</sup></b>, so a session's later turn
 * that matched clearly better than another conversation's mention keeps its lead, and a session's
 * first candidate never moves down. Memories without a source session are never discounted and
 * count for none. Only a counting question is touched: for other questions the neighbouring turns
 * of one session are often the evidence itself (a question about one occasion), and spreading costs
 * them (benchmarks/RESULTS.md, section 30). For the same reason the engine does not lift a counting
 * question's neighbouring turns ({@link SessionNeighbours}), which would give the seeds' sessions
 * more places.
 *
 * <p>Only what can change the result's places is read: candidates are read in ranking order, each
 * discounted as it comes, until the places are held ({@link Places}: the gate's direct floors,
 * memories assembly would return, the per-session cap) and the next candidate's undiscounted score
 * is below the lowest discounted score holding a place. A discount only lowers scores, so no
 * candidate after that can take a place, and the rest keep their scores unread. Of the first {@code
 * depth} candidates only: the ranking below them is not read at all. A record that is gone, or that
 * assembly would not return, counts for no session. Stateless and thread-safe.
 */
final class SessionSpread {

  /**
   * What each earlier candidate of the same session multiplies a candidate's fused score by: enough
   * to let another conversation's mention pass a session's second turn that matched about as well,
   * not one that matched far better.
   */
  static final double DISCOUNT = 0.9;

  /**
   * What the stage did.
   *
   * @param ranked the candidates, best first
   * @param description what it discounted, for {@code RecallResult.fusion()}; empty when the
   *     question does not count
   */
  record Spread(List<Candidate> ranked, String description) {}

  private SessionSpread() {}

  /**
   * {@code ranked} (best first) with the later candidates of each source session among the first
   * {@code depth} discounted and sorted again, when {@code counting}; itself, unread, otherwise.
   * Reads records through {@code records} as the class comment says.
   */
  static Spread apply(
      List<Candidate> ranked, boolean counting, RecordReader records, int depth, Places places) {
    if (!counting || ranked.isEmpty()) {
      return new Spread(ranked, "");
    }
    int end = Math.min(depth, ranked.size());
    int chunk = Math.max(4, Math.min(places.count(), end));
    Map<String, Integer> earlier = new HashMap<>();
    Map<String, Integer> placed = new HashMap<>();
    // the discounted scores of the candidates holding places, lowest first
    PriorityQueue<Double> holders = new PriorityQueue<>();
    int discounted = 0;
    int read = 0;
    int looked = 0;
    while (looked < end) {
      Candidate c = ranked.get(looked);
      if (holders.size() == places.count() && c.fused < holders.peek()) {
        break;
      }
      if (looked == read) {
        read = Math.min(end, read + chunk);
        records.read(ranked.subList(looked, read));
      }
      looked++;
      Memory m = records.get(c.id);
      if (m == null || !places.returnable().test(m)) {
        continue;
      }
      String session = m.sourceSession();
      if (session != null) {
        int k = earlier.merge(session, 1, Integer::sum) - 1;
        if (k > 0) {
          c.fused *= Math.pow(DISCOUNT, k);
          discounted++;
        }
      }
      if (places.passesGate().test(c)
          && (session == null
              || places.maxPerSession() == Integer.MAX_VALUE
              || placed.merge(session, 1, Integer::sum) <= places.maxPerSession())) {
        holders.add(c.fused);
        if (holders.size() > places.count()) {
          holders.poll();
        }
      }
    }
    if (discounted == 0) {
      return new Spread(ranked, describe(0, looked));
    }
    List<Candidate> out = new ArrayList<>(ranked);
    out.sort(Candidate.BEST_FIRST);
    return new Spread(out, describe(discounted, looked));
  }

  private static String describe(int discounted, int looked) {
    return String.format(
        Locale.ROOT,
        "counting question: %d of %d candidates follow another of their session (score x%.2f for"
            + " each)",
        discounted,
        looked,
        DISCOUNT);
  }
}
