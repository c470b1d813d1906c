package dev.memhook.benchmarks.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How the answers of {@code memhook hook} read as a probe's injected memories. */
class CliProbeTest {

  @Test
  void aStandingMemorysExcerptLine_atThePrompt_countsAsThatStandingMemory() {
    List<ProbeOutcome.InjectedMemory> injected = new ArrayList<>();
    CliProbe.parse(
        "Standing memories of this project (Memhook): …\n- mem_g (pattern): Contributing guide\n",
        injected,
        Set.of(),
        true);
    CliProbe.parse(
        "Memories from earlier sessions …\n"
            + "- mem_r (bug) Fix: the pool ran dry: raise max_conns\n"
            + "- mem_g (pattern) excerpt: …Branches: rk-<ticket>/<slug>.\n",
        injected,
        Set.of("mem_g"),
        false);

    assertEquals(
        List.of(
            new ProbeOutcome.InjectedMemory("mem_g", "(pattern): Contributing guide", true),
            new ProbeOutcome.InjectedMemory(
                "mem_r", "(bug) Fix: the pool ran dry: raise max_conns", false),
            new ProbeOutcome.InjectedMemory(
                "mem_g", "(pattern) excerpt: …Branches: rk-<ticket>/<slug>.", true)),
        injected);
    ProbeOutcome offTopic =
        new ProbeOutcome(
            new LoopData.Probe("s", "p", "proj", "what is a monad?", List.of(), "off-topic"),
            List.of(injected.get(0), injected.get(2)),
            100,
            List.of());
    assertTrue(offTopic.clean(), "a standing memory's excerpt recalls nothing new");
  }
}
