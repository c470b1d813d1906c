package dev.memhook.benchmarks.loop;

import dev.memhook.benchmarks.loop.MemoryLoopEval.ModeResult;
import dev.memhook.benchmarks.loop.MemoryLoopEval.Report;
import dev.memhook.benchmarks.loop.MemoryLoopEval.Scored;
import java.io.PrintStream;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Prints a {@link Report} as Markdown: the replays, then per mode the hit rate per category, the
 * off-topic, irrelevant and size figures, where the facts of the misses were and what the hook did
 * with them ({@link MissCause}), and a few misses with what was injected instead. Stateless.
 */
final class LoopReportPrinter {

  /** The most characters of one injected memory an example shows. */
  static final int EXAMPLE_CHARS = 160;

  private LoopReportPrinter() {}

  static void print(Report report, PrintStream out) {
    out.printf(
        Locale.ROOT,
        "# Memory loop: %d scenarios from %s, embedder %s, recall timeout %d ms, %d s%n%n",
        report.scenarios(),
        report.options().scenarios(),
        report.options().embedder(),
        report.options().recallTimeout().toMillis(),
        report.elapsed().toSeconds());
    report
        .replays()
        .forEach(
            (kind, r) -> {
              if (kind.equals("hook")) {
                out.printf(
                    Locale.ROOT,
                    "hook replay: %d sessions, %d events posted, %d accepted, %d rejected",
                    r.sessions(),
                    r.posted(),
                    r.accepted(),
                    r.rejectedEvents());
              } else {
                out.printf(
                    Locale.ROOT,
                    "%s replay: %d sessions, %d turns sent",
                    kind,
                    r.sessions(),
                    r.posted());
              }
              out.printf(
                  Locale.ROOT,
                  "; stores at the end: %d observations, %d distilled memories%n",
                  r.observations(),
                  r.distilled());
              r.rejected().forEach(m -> out.println("  rejected: " + m));
            });
    for (ModeResult m : report.modes()) {
      out.println();
      mode(m, report.options().examples(), out);
    }
  }

  private static void mode(ModeResult m, int examples, PrintStream out) {
    LoopMetrics x = m.metrics();
    out.printf(Locale.ROOT, "## %s (%s)%n%n", m.mode().key, m.mode().title);
    out.println("| category | probes | hits | hit rate |");
    out.println("|---|---:|---:|---:|");
    x.categories()
        .forEach(
            (c, s) ->
                out.printf(
                    Locale.ROOT, "| %s | %d | %d | %.2f |%n", c, s.probes(), s.hits(), s.rate()));
    out.printf(
        Locale.ROOT,
        "| **on-topic** | %d | %d | **%.2f** |%n%n",
        x.onTopic().probes(),
        x.onTopic().hits(),
        x.onTopic().rate());
    out.printf(
        Locale.ROOT,
        "off-topic clean of recall: %d of %d (%.2f), of everything (standing memories too): %d;"
            + " standing memories offered per probe: %.2f; irrelevant memories recalled per probe:"
            + " %.2f (on-topic %.2f, off-topic %.2f); characters injected per probe: median %d, p90"
            + " %d; probes with a failure noted: %d%n%n",
        x.offTopicClean(),
        x.offTopicProbes(),
        x.offTopicCleanRate(),
        x.offTopicCleanOfEverything(),
        x.standingPerProbe(),
        x.irrelevantPerProbe(),
        x.irrelevantPerOnTopic(),
        x.irrelevantPerOffTopic(),
        x.medianChars(),
        x.p90Chars(),
        x.failures());
    missCauses(m.scored(), out);
    missPaths(m.scored(), out);
    examples(m.scored(), examples, out);
  }

  /** On-topic misses by where their fact was and whether anything else was injected. */
  private static void missCauses(List<Scored> scored, PrintStream out) {
    Map<StoreCensus.Where, int[]> causes = new EnumMap<>(StoreCensus.Where.class);
    for (Scored s : scored) {
      ProbeOutcome o = s.outcome();
      if (!o.probe().offTopic() && !o.hit()) {
        causes.computeIfAbsent(s.where(), w -> new int[2])[o.injected().isEmpty() ? 0 : 1]++;
      }
    }
    out.println("| on-topic misses: the fact was | nothing injected | others injected |");
    out.println("|---|---:|---:|");
    for (StoreCensus.Where w : StoreCensus.Where.values()) {
      int[] c = causes.getOrDefault(w, new int[2]);
      out.printf(Locale.ROOT, "| %s | %d | %d |%n", w.label, c[0], c[1]);
    }
    out.println();
  }

  /**
   * On-topic misses by what the hook did with their fact ({@link MissCause}) and whether anything
   * else was injected; a cause no miss has is left out.
   */
  private static void missPaths(List<Scored> scored, PrintStream out) {
    Map<MissCause, int[]> causes = new EnumMap<>(MissCause.class);
    for (Scored s : scored) {
      if (s.miss().cause() != MissCause.NONE) {
        causes
            .computeIfAbsent(s.miss().cause(), c -> new int[2])[
            s.outcome().injected().isEmpty() ? 0 : 1]++;
      }
    }
    out.println(
        "| on-topic misses: at the hook, the fact was | nothing injected | others injected |");
    out.println("|---|---:|---:|");
    causes.forEach((c, n) -> out.printf(Locale.ROOT, "| %s | %d | %d |%n", c.label, n[0], n[1]));
    out.println();
  }

  /** Up to {@code n} misses, the first of each category first, with what was injected. */
  private static void examples(List<Scored> scored, int n, PrintStream out) {
    if (n == 0) {
      return;
    }
    Set<String> seen = new HashSet<>();
    Set<Scored> shown = new HashSet<>();
    for (int pass = 0; pass < 2 && shown.size() < n; pass++) {
      for (Scored s : scored) {
        ProbeOutcome o = s.outcome();
        boolean miss = o.probe().offTopic() ? !o.clean() : !o.hit();
        if (shown.size() >= n || !miss || shown.contains(s)) {
          continue;
        }
        if (pass == 0 && !seen.add(o.probe().category())) {
          continue;
        }
        shown.add(s);
        out.printf(
            Locale.ROOT,
            "- miss [%s] %s: \"%s\" expects %s; fact %s%s; injected %d (%d chars)%s%n",
            o.probe().category(),
            o.probe().scenario(),
            o.probe().prompt(),
            o.probe().expect(),
            s.where().label,
            missed(s.miss()),
            o.injected().size(),
            o.chars(),
            o.failures().isEmpty() ? "" : "; failures " + o.failures());
        for (ProbeOutcome.InjectedMemory im : o.injected()) {
          out.println("    - " + shorten(im.text()));
        }
      }
    }
    out.println();
  }

  /** ", then ‹cause› (‹the receipt's reason›)" for a traced miss, "" otherwise. */
  private static String missed(MissCause.Traced miss) {
    if (miss.cause() == MissCause.NONE) {
      return "";
    }
    return ", then "
        + miss.cause().label
        + (miss.holder() == null ? "" : " (" + shorten(miss.holder().detail()) + ")");
  }

  static String shorten(String text) {
    String flat = text.replaceAll("\\s+", " ").strip();
    return flat.length() <= EXAMPLE_CHARS ? flat : flat.substring(0, EXAMPLE_CHARS) + "…";
  }
}
