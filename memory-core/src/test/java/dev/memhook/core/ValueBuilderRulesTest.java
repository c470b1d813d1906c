package dev.memhook.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.HookOptions;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEvent;
import dev.memhook.api.capture.LifecycleEventType;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The builders' one rule: each setter once; a failed call sets nothing; toBuilder starts afresh.
 */
class ValueBuilderRulesTest {

  private static final Instant T = Instant.parse("2025-01-01T00:00:00Z");

  @Test
  void aSetterCalledTwice_throwsAndNamesTheSetter() {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> MemoryDraft.builder(Scope.DEFAULT, "x").title("a").title("b"));
    assertTrue(e.getMessage().startsWith("title was already set"), e.getMessage());
    assertThrows(
        IllegalStateException.class,
        () ->
            HookOptions.builder()
                .recallTimeout(Duration.ofSeconds(1))
                .recallTimeout(Duration.ofSeconds(2)));
    assertThrows(IllegalStateException.class, () -> Memory.builder().content("a").content("b"));
  }

  @Test
  void lifecycleEvent_eachSetterOnce_evenWhenTheFirstCallPassedNull() {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () ->
                LifecycleEvent.builder(LifecycleEventType.SESSION_START, "s")
                    .project("a")
                    .project("b"));
    assertTrue(e.getMessage().startsWith("project was already set"), e.getMessage());
    e =
        assertThrows(
            IllegalStateException.class,
            () ->
                LifecycleEvent.builder(LifecycleEventType.SESSION_START, "s")
                    .eventId(null)
                    .eventId("e"));
    assertTrue(e.getMessage().startsWith("eventId was already set"), e.getMessage());
    e =
        assertThrows(
            IllegalStateException.class,
            () ->
                LifecycleEvent.builder(LifecycleEventType.SESSION_START, "s")
                    .timestamp(T)
                    .timestamp(null));
    assertTrue(e.getMessage().startsWith("timestamp was already set"), e.getMessage());
  }

  @Test
  void lifecycleEvent_nullForAnOptionalSetting_meansNone_andARejectedDataSetsNothing() {
    LifecycleEvent.Builder b =
        LifecycleEvent.builder(LifecycleEventType.PROMPT_SUBMIT, "s").project(null).cwd(null);
    assertThrows(NullPointerException.class, () -> b.data(null));
    EventData prompt = EventData.prompt("hi");
    LifecycleEvent event = b.data(prompt).build();
    assertNull(event.project());
    assertNull(event.cwd());
    assertEquals(prompt, event.data());
  }

  @Test
  void recallOptions_aShortcutAndASetterOfTheSameSetting_conflict() {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> RecallOptions.builder().noRelevanceGate().minCosine(0.2));
    assertTrue(e.getMessage().startsWith("minCosine was already set"), e.getMessage());
    assertThrows(
        IllegalStateException.class, () -> RecallOptions.builder().maxPerSession(2).noSessionCap());
    assertEquals(4, RecallOptions.defaults().toBuilder().maxPerSession(4).build().maxPerSession());
  }

  @Test
  void aRejectedValue_setsNothing_soACorrectedCallSucceeds() {
    MemoryDraft.Builder b = MemoryDraft.builder(Scope.DEFAULT, "x");
    assertThrows(IllegalArgumentException.class, () -> b.importance(2.0));
    assertEquals(0.25, b.importance(0.25).build().importance());
    HookOptions.Builder h = HookOptions.builder();
    assertThrows(IllegalArgumentException.class, () -> h.maxPerMessage(0));
    assertEquals(7, h.maxPerMessage(7).build().maxPerMessage());
  }

  @Test
  void toBuilder_startsFromTheCopiedValues_andEachSetterMayStillBeCalledOnce() {
    Memory m =
        Memory.builder()
            .id(MemoryId.of("m1"))
            .scope(Scope.DEFAULT)
            .content("c")
            .occurredAt(T)
            .createdAt(T)
            .build();
    Memory copy = m.toBuilder().content("changed").build();
    assertEquals("changed", copy.content());
    assertEquals(m.id(), copy.id());
    assertFalse(m.withLatest(false).latest());
    assertThrows(IllegalStateException.class, () -> m.toBuilder().content("a").content("b"));
  }
}
