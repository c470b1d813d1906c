package dev.memhook.core.internal.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.MemoryId;
import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEvent;
import dev.memhook.api.capture.LifecycleEventType;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** Duplicate keys and observation ids: stable for the same event, distinct for any difference. */
class EventKeysTest {

  private static final Instant AT = Instant.parse("2026-11-30T10:15:00.123Z");
  private static final EventData DATA =
      new EventData("Bash", "in", "out", "prompt", "error", "agent", "message", null);

  private static LifecycleEvent event(EventData data) {
    return LifecycleEvent.builder(LifecycleEventType.POST_TOOL_USE, "s-1")
        .timestamp(AT)
        .data(data)
        .build();
  }

  @Test
  void sameEventTwice_givesTheSameKeyAndId() {
    String key = EventKeys.key(event(DATA));
    assertEquals(key, EventKeys.key(event(DATA)));
    assertEquals(EventKeys.observationId(key), EventKeys.observationId(EventKeys.key(event(DATA))));
    assertTrue(key.startsWith("digest:") && key.length() == "digest:".length() + 64, key);
  }

  @Test
  void anyOneDifference_givesAnotherKeyAndId() {
    List<UnaryOperator<EventData>> changes =
        List.of(
            d ->
                new EventData(
                    "Bash2",
                    d.input(),
                    d.output(),
                    d.prompt(),
                    d.error(),
                    d.agentName(),
                    d.message(),
                    null),
            d ->
                new EventData(
                    d.toolName(),
                    "in2",
                    d.output(),
                    d.prompt(),
                    d.error(),
                    d.agentName(),
                    d.message(),
                    null),
            d ->
                new EventData(
                    d.toolName(),
                    d.input(),
                    "out2",
                    d.prompt(),
                    d.error(),
                    d.agentName(),
                    d.message(),
                    null),
            d ->
                new EventData(
                    d.toolName(),
                    d.input(),
                    d.output(),
                    "prompt2",
                    d.error(),
                    d.agentName(),
                    d.message(),
                    null),
            d ->
                new EventData(
                    d.toolName(),
                    d.input(),
                    d.output(),
                    d.prompt(),
                    "error2",
                    d.agentName(),
                    d.message(),
                    null),
            d ->
                new EventData(
                    d.toolName(),
                    d.input(),
                    d.output(),
                    d.prompt(),
                    d.error(),
                    "agent2",
                    d.message(),
                    null),
            d ->
                new EventData(
                    d.toolName(),
                    d.input(),
                    d.output(),
                    d.prompt(),
                    d.error(),
                    d.agentName(),
                    "message2",
                    null),
            d ->
                new EventData(
                    d.toolName(),
                    null,
                    d.output(),
                    d.prompt(),
                    d.error(),
                    d.agentName(),
                    d.message(),
                    null),
            d ->
                new EventData(
                    d.toolName(),
                    "",
                    d.output(),
                    d.prompt(),
                    d.error(),
                    d.agentName(),
                    d.message(),
                    null),
            // the same characters split differently between two fields
            d ->
                new EventData(
                    d.toolName(),
                    "i",
                    "nout",
                    d.prompt(),
                    d.error(),
                    d.agentName(),
                    d.message(),
                    null));
    Set<String> keys = new HashSet<>();
    Set<MemoryId> ids = new HashSet<>();
    keys.add(EventKeys.key(event(DATA)));
    for (UnaryOperator<EventData> change : changes) {
      keys.add(EventKeys.key(event(change.apply(DATA))));
    }
    LifecycleEvent base = event(DATA);
    keys.add(
        EventKeys.key(
            LifecycleEvent.builder(LifecycleEventType.PRE_TOOL_USE, "s-1")
                .timestamp(AT)
                .data(DATA)
                .build()));
    keys.add(
        EventKeys.key(LifecycleEvent.builder(base.type(), "s-2").timestamp(AT).data(DATA).build()));
    keys.add(
        EventKeys.key(
            LifecycleEvent.builder(base.type(), "s-1")
                .timestamp(AT.plusMillis(1))
                .data(DATA)
                .build()));
    for (String key : keys) {
      ids.add(EventKeys.observationId(key));
    }
    assertEquals(changes.size() + 4, keys.size(), keys.toString());
    assertEquals(keys.size(), ids.size());
  }

  @Test
  void withAnEventId_contentDoesNotMatter_butTheSessionDoes() {
    LifecycleEvent a =
        LifecycleEvent.builder(LifecycleEventType.POST_TOOL_USE, "s-1")
            .eventId("e-7")
            .timestamp(AT)
            .data(DATA)
            .build();
    LifecycleEvent b =
        LifecycleEvent.builder(LifecycleEventType.PROMPT_SUBMIT, "s-1")
            .eventId("e-7")
            .timestamp(AT.plusSeconds(9))
            .data(EventData.prompt("other"))
            .build();
    LifecycleEvent otherSession =
        LifecycleEvent.builder(LifecycleEventType.POST_TOOL_USE, "s-2")
            .eventId("e-7")
            .timestamp(AT)
            .data(DATA)
            .build();
    assertEquals("id:3:s-1:e-7", EventKeys.key(a));
    assertEquals(EventKeys.key(a), EventKeys.key(b));
    assertNotEquals(EventKeys.key(a), EventKeys.key(otherSession));
    // the length prefix keeps "a:b" + "c" apart from "a" + "b:c"
    LifecycleEvent split1 =
        LifecycleEvent.builder(LifecycleEventType.SESSION_END, "a:b")
            .eventId("c")
            .timestamp(AT)
            .build();
    LifecycleEvent split2 =
        LifecycleEvent.builder(LifecycleEventType.SESSION_END, "a")
            .eventId("b:c")
            .timestamp(AT)
            .build();
    assertNotEquals(EventKeys.key(split1), EventKeys.key(split2));
  }

  @Test
  void observationIds_areValidMemoryIds_ofAFixedShape() {
    for (String key :
        List.of("id:1:s:e", EventKeys.key(event(DATA)), "id:200:" + "\u00e9".repeat(400))) {
      MemoryId id = EventKeys.observationId(key);
      assertTrue(MemoryId.isValid(id.value()), id.value());
      assertTrue(id.value().matches("obs-[0-9a-z]{32}"), id.value());
    }
  }
}
