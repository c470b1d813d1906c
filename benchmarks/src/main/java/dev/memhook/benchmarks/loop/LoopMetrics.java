package dev.memhook.benchmarks.loop;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The figures of one mode over its probe outcomes: hit rate per category (on-topic probes),
 * off-topic probes left clean, irrelevant memories per probe, characters injected per probe. Pure:
 * computed from the outcomes alone. Immutable.
 *
 * @param mode the mode's name
 * @param categories per category of on-topic probe, sorted by name
 * @param onTopic all on-topic probes together
 * @param offTopicProbes how many probes were off-topic
 * @param offTopicClean how many of them got nothing recalled for the prompt
 * @param offTopicCleanOfEverything how many of them got nothing at all, standing memories included
 * @param irrelevantPerProbe irrelevant memories injected (see {@link ProbeOutcome#irrelevant()}),
 *     summed over every probe and divided by the number of probes; 0 without probes
 * @param irrelevantPerOnTopic the same over on-topic probes only
 * @param irrelevantPerOffTopic the same over off-topic probes only
 * @param medianChars the median of characters injected per probe, every probe counted (nothing
 *     injected is 0)
 * @param p90Chars the 90th percentile of the same (nearest rank)
 * @param failures probes whose outcome notes a failure (a recall timeout, say)
 * @param standingPerProbe standing memories offered, summed over every probe and divided by the
 *     number of probes
 */
record LoopMetrics(
    String mode,
    Map<String, Score> categories,
    Score onTopic,
    int offTopicProbes,
    int offTopicClean,
    int offTopicCleanOfEverything,
    double irrelevantPerProbe,
    double irrelevantPerOnTopic,
    double irrelevantPerOffTopic,
    int medianChars,
    int p90Chars,
    int failures,
    double standingPerProbe) {

  LoopMetrics {
    Objects.requireNonNull(mode, "mode");
    categories = Collections.unmodifiableMap(new TreeMap<>(categories));
    Objects.requireNonNull(onTopic, "onTopic");
  }

  /**
   * Probes and hits.
   *
   * @param probes how many probes
   * @param hits how many were hits
   */
  record Score(int probes, int hits) {
    /** Hits over probes; NaN without probes. */
    double rate() {
      return probes == 0 ? Double.NaN : (double) hits / probes;
    }
  }

  /** The share of off-topic probes that got nothing; NaN without off-topic probes. */
  double offTopicCleanRate() {
    return offTopicProbes == 0 ? Double.NaN : (double) offTopicClean / offTopicProbes;
  }

  /** The figures of {@code outcomes}. */
  static LoopMetrics of(String mode, List<ProbeOutcome> outcomes) {
    Map<String, int[]> cats = new TreeMap<>();
    int on = 0;
    int hits = 0;
    int off = 0;
    int clean = 0;
    int cleanOfEverything = 0;
    long standing = 0;
    long irrelevantOn = 0;
    long irrelevantOff = 0;
    int failures = 0;
    int[] chars = new int[outcomes.size()];
    for (int i = 0; i < outcomes.size(); i++) {
      ProbeOutcome o = outcomes.get(i);
      chars[i] = o.chars();
      standing += o.standing();
      if (!o.failures().isEmpty()) {
        failures++;
      }
      if (o.probe().offTopic()) {
        off++;
        clean += o.clean() ? 1 : 0;
        cleanOfEverything += o.cleanOfEverything() ? 1 : 0;
        irrelevantOff += o.irrelevant();
      } else {
        on++;
        int[] c = cats.computeIfAbsent(o.probe().category(), k -> new int[2]);
        c[0]++;
        if (o.hit()) {
          c[1]++;
          hits++;
        }
        irrelevantOn += o.irrelevant();
      }
    }
    Map<String, Score> scores = new TreeMap<>();
    cats.forEach((k, v) -> scores.put(k, new Score(v[0], v[1])));
    Arrays.sort(chars);
    return new LoopMetrics(
        mode,
        scores,
        new Score(on, hits),
        off,
        clean,
        cleanOfEverything,
        mean(irrelevantOn + irrelevantOff, on + off),
        mean(irrelevantOn, on),
        mean(irrelevantOff, off),
        percentile(chars, 50),
        percentile(chars, 90),
        failures,
        mean(standing, on + off));
  }

  /** The nearest-rank percentile {@code p} of sorted {@code values}; 0 if there are none. */
  static int percentile(int[] sorted, int p) {
    if (sorted.length == 0) {
      return 0;
    }
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(0, rank - 1)];
  }

  private static double mean(long sum, int n) {
    return n == 0 ? 0 : (double) sum / n;
  }
}
