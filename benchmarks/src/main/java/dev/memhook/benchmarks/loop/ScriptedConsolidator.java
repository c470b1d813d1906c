package dev.memhook.benchmarks.loop;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Origin;
import dev.memhook.api.capture.Consolidation;
import dev.memhook.api.capture.Consolidator;
import dev.memhook.api.capture.Session;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A stand-in for a language-model consolidator, plugged in through the {@link Consolidator} SPI
 * (`--consolidator scripted`): it keeps every message a user typed of six words or more whole, as a
 * {@link MemoryType#FACT}, and a message that says it changes something as a correction. It knows
 * nothing of the scenarios; it shows that what a provider returns is stored, superseded, offered
 * and recalled through the same path as the local consolidator's, and what keeping everything a
 * user says costs. Stateless and thread-safe.
 */
final class ScriptedConsolidator implements Consolidator {

  private static final int MIN_WORDS = 6;

  @Override
  public List<Consolidation> consolidate(Session session, List<Memory> observations) {
    List<Consolidation> out = new ArrayList<>();
    for (Memory m : observations) {
      if (m.type() != MemoryType.OBSERVATION || m.origin().kind() != Origin.Kind.USER) {
        continue;
      }
      String text = m.content().strip();
      if (text.split("\\s+").length < MIN_WORDS) {
        continue;
      }
      String lower = text.toLowerCase(Locale.ROOT);
      boolean corrects =
          lower.contains("correction") || lower.contains(" now") || lower.contains("switched");
      out.add(
          new Consolidation(
              MemoryType.FACT,
              "Said: " + (text.length() > 80 ? text.substring(0, 80) : text),
              text,
              List.of(),
              List.of(),
              0.6,
              List.of(m.id()),
              corrects));
    }
    return out;
  }

  @Override
  public String name() {
    return "scripted";
  }
}
