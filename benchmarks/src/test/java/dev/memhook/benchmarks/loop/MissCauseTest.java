package dev.memhook.benchmarks.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.memhook.api.trace.ReceiptCandidate.Decision;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Why a probe missed, read from receipts built here: each decision's cause, which holder decides
 * when several hold the fact, and the causes that need no receipt.
 */
class MissCauseTest {

  private static final LoopData.Probe ON_TOPIC =
      new LoopData.Probe("s", "p", "proj", "which package manager?", List.of("pnpm"), "preference");

  private static final LoopData.Probe OFF_TOPIC =
      new LoopData.Probe("s", "p", "proj", "what is a monad?", List.of(), "off-topic");

  private static ProbeOutcome.Considered entry(String id, Decision decision) {
    return new ProbeOutcome.Considered(id, decision, decision + " of " + id);
  }

  private static ProbeOutcome missed(ProbeOutcome.Considered... considered) {
    return new ProbeOutcome(
        ON_TOPIC,
        List.of(new ProbeOutcome.InjectedMemory("other", "Ran git status")),
        40,
        List.of(),
        Arrays.asList(considered));
  }

  @ParameterizedTest
  @EnumSource(Decision.class)
  void eachDecisionOnTheFactsMemory_namesWhereOnThePathItStopped(Decision decision) {
    MissCause expected =
        switch (decision) {
          case SELECTED, STANDING, ALREADY_INJECTED -> MissCause.SHOWN_WITHOUT_FACT;
          case LIMIT, FUSED_OUT, OVER_CAP, SESSION_CAP -> MissCause.RANKED_OUT;
          case RELEVANCE_GATE -> MissCause.GATED;
          case OWN_CONVERSATION -> MissCause.EXCLUDED;
        };

    MissCause.Traced traced = MissCause.of(missed(entry("fact", decision)), Set.of("fact"));

    assertEquals(expected, traced.cause());
    assertEquals(entry("fact", decision), traced.holder());
  }

  @Test
  void theHolderNearestTheModelDecides_notTheFirstListed() {
    ProbeOutcome outcome =
        missed(
            entry("a", Decision.RELEVANCE_GATE),
            entry("b", Decision.LIMIT),
            entry("c", Decision.OWN_CONVERSATION));

    MissCause.Traced traced = MissCause.of(outcome, Set.of("a", "b", "c"));

    assertEquals(MissCause.RANKED_OUT, traced.cause());
    assertEquals("b", traced.holder().id());
  }

  @Test
  void whatTheHookDidWithOtherMemories_saysNothingAboutTheFact() {
    ProbeOutcome outcome =
        missed(entry("other", Decision.SELECTED), entry("noise", Decision.RELEVANCE_GATE));

    MissCause.Traced traced = MissCause.of(outcome, Set.of("fact"));

    assertEquals(MissCause.NOT_CANDIDATE, traced.cause());
    assertNull(traced.holder());
  }

  @Test
  void aFactNoMemoryHolds_isNotStored_evenWithoutReceipts() {
    ProbeOutcome untraced = new ProbeOutcome(ON_TOPIC, List.of(), 0, List.of());

    assertEquals(MissCause.NOT_STORED, MissCause.of(untraced, Set.of()).cause());
    assertEquals(MissCause.NOT_STORED, MissCause.of(missed(), Set.of()).cause());
    assertEquals(MissCause.UNTRACED, MissCause.of(untraced, Set.of("fact")).cause());
  }

  @Test
  void aHitAndAnOffTopicProbe_areNoMiss() {
    ProbeOutcome hit =
        new ProbeOutcome(
            ON_TOPIC,
            List.of(new ProbeOutcome.InjectedMemory("fact", "We use PNPM here")),
            30,
            List.of(),
            List.of(entry("fact", Decision.SELECTED)));
    ProbeOutcome offTopic =
        new ProbeOutcome(
            OFF_TOPIC, List.of(), 0, List.of(), List.of(entry("x", Decision.RELEVANCE_GATE)));

    assertEquals(MissCause.NONE, MissCause.of(hit, Set.of("fact")).cause());
    assertEquals(MissCause.NONE, MissCause.of(offTopic, Set.of()).cause());
  }
}
