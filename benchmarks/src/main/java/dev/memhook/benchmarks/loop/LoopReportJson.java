package dev.memhook.benchmarks.loop;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memhook.benchmarks.loop.MemoryLoopEval.ModeResult;
import dev.memhook.benchmarks.loop.MemoryLoopEval.Report;
import dev.memhook.benchmarks.loop.MemoryLoopEval.Scored;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Writes a {@link Report} as one JSON document ({@code --json}): the options, the replays, per mode
 * its figures and every probe's outcome (prompt, expected strings, hit, where the fact was, for an
 * on-topic miss what the hook did with the fact ({@link MissCause}: its cause, and the memory and
 * receipt entry that decided it), the injected memories). NaN rates are written as null. Stateless.
 */
final class LoopReportJson {

  private LoopReportJson() {}

  static void write(Report report, Path file) throws IOException {
    HookReplay.JSON.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), tree(report));
  }

  static ObjectNode tree(Report report) {
    ObjectNode root = HookReplay.JSON.createObjectNode();
    root.put("scenarios", report.scenarios());
    root.put("file", report.options().scenarios().toString());
    root.put("embedder", report.options().embedder());
    root.put("recallTimeoutMillis", report.options().recallTimeout().toMillis());
    root.put("elapsedSeconds", report.elapsed().toSeconds());
    ObjectNode replays = root.putObject("replays");
    report.replays().forEach((k, r) -> replays.set(k, HookReplay.JSON.valueToTree(r)));
    ObjectNode modes = root.putObject("modes");
    for (ModeResult m : report.modes()) {
      ObjectNode mode = modes.putObject(m.mode().key);
      LoopMetrics x = m.metrics();
      mode.put("title", m.mode().title);
      ObjectNode cats = mode.putObject("categories");
      x.categories()
          .forEach(
              (c, s) -> {
                ObjectNode n = cats.putObject(c);
                n.put("probes", s.probes());
                n.put("hits", s.hits());
                rate(n, "hitRate", s.rate());
              });
      ObjectNode on = mode.putObject("onTopic");
      on.put("probes", x.onTopic().probes());
      on.put("hits", x.onTopic().hits());
      rate(on, "hitRate", x.onTopic().rate());
      ObjectNode off = mode.putObject("offTopic");
      off.put("probes", x.offTopicProbes());
      off.put("clean", x.offTopicClean());
      rate(off, "cleanRate", x.offTopicCleanRate());
      off.put("cleanOfEverything", x.offTopicCleanOfEverything());
      mode.put("standingPerProbe", x.standingPerProbe());
      mode.put("irrelevantPerProbe", x.irrelevantPerProbe());
      mode.put("irrelevantPerOnTopicProbe", x.irrelevantPerOnTopic());
      mode.put("irrelevantPerOffTopicProbe", x.irrelevantPerOffTopic());
      mode.put("medianChars", x.medianChars());
      mode.put("p90Chars", x.p90Chars());
      mode.put("probesWithFailures", x.failures());
      ArrayNode probes = mode.putArray("probes");
      for (Scored s : m.scored()) {
        ProbeOutcome o = s.outcome();
        ObjectNode p = probes.addObject();
        p.put("scenario", o.probe().scenario());
        p.put("category", o.probe().category());
        p.put("prompt", o.probe().prompt());
        ArrayNode expect = p.putArray("expect");
        o.probe().expect().forEach(expect::add);
        p.put("hit", o.hit());
        p.put("clean", o.clean());
        p.put("irrelevant", o.irrelevant());
        p.put("chars", o.chars());
        p.put("fact", s.where().name().toLowerCase(Locale.ROOT));
        if (s.miss().cause() != MissCause.NONE) {
          ObjectNode miss = p.putObject("miss");
          miss.put("cause", s.miss().cause().name().toLowerCase(Locale.ROOT));
          ProbeOutcome.Considered holder = s.miss().holder();
          if (holder == null) {
            miss.putNull("memory").putNull("decision").putNull("detail");
          } else {
            miss.put("memory", holder.id())
                .put("decision", holder.decision().name())
                .put("detail", holder.detail());
          }
        }
        ArrayNode injected = p.putArray("injected");
        for (ProbeOutcome.InjectedMemory im : o.injected()) {
          injected
              .addObject()
              .put("id", im.id())
              .put("text", im.text())
              .put("standing", im.standing());
        }
        ArrayNode failures = p.putArray("failures");
        o.failures().forEach(failures::add);
      }
    }
    return root;
  }

  private static void rate(ObjectNode n, String field, double rate) {
    if (Double.isNaN(rate)) {
      n.putNull(field);
    } else {
      n.put(field, rate);
    }
  }
}
