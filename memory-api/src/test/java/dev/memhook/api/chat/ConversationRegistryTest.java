package dev.memhook.api.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The bound, the holds and the lifecycle of {@link ConversationRegistry}. */
class ConversationRegistryTest {

  private final List<String> opened = new CopyOnWriteArrayList<>();
  private final List<String> ended = new CopyOnWriteArrayList<>();
  private final List<String> evicted = new CopyOnWriteArrayList<>();
  private final List<String> overBound = new CopyOnWriteArrayList<>();

  private String open(String key) {
    String c = key + "#" + opened.size();
    opened.add(c);
    return c;
  }

  private ConversationRegistry<String, String> registry(int bound) {
    return new ConversationRegistry<>(
        bound,
        new ConversationRegistry.Lifecycle<>() {
          @Override
          public void end(String conversation) {
            ended.add(conversation);
          }

          @Override
          public void overBound(int held, int bound) {
            overBound.add(held + "/" + bound);
          }

          @Override
          public void evicted(String key, String conversation) {
            evicted.add(key);
          }
        });
  }

  @Test
  void aUse_opensOnce_andLaterUsesGetTheSameConversation() {
    ConversationRegistry<String, String> r = registry(3);

    String first = r.use("a", this::open);

    assertSame(first, r.use("a", this::open));
    assertEquals(List.of("a#0"), opened);
    assertEquals(Optional.of(first), r.peek("a"));
    assertEquals(Optional.empty(), r.peek("b"), "peek opens nothing");
  }

  @Test
  void oneMoreThanTheBound_endsTheLeastRecentlyUsed() {
    ConversationRegistry<String, String> r = registry(3);
    r.use("a", this::open);
    r.use("b", this::open);
    r.use("c", this::open);
    r.use("a", this::open); // now b is the least recently used

    r.use("d", this::open);

    assertEquals(Set.of("a", "c", "d"), r.keys());
    assertEquals(List.of("b"), evicted);
    assertEquals(List.of("b#1"), ended);
    r.use("b", this::open);
    assertEquals("b#4", r.peek("b").orElseThrow(), "an evicted key starts afresh");
  }

  @Test
  void aHeldKey_isNeverEvicted_andOnceEveryHoldIsRemovedItIs() {
    ConversationRegistry<String, String> r = registry(2);
    Registration hold = r.hold("a");
    Registration again = r.hold("a");
    r.use("a", this::open);
    r.use("b", this::open);

    r.use("c", this::open);

    assertEquals(Set.of("a", "c"), r.keys(), "b was idle, a was held");
    hold.remove();
    hold.remove(); // idempotent: it must not release the second hold
    r.use("d", this::open);
    assertEquals(Set.of("a", "d"), r.keys(), "a is still held once");
    again.remove();
    r.use("e", this::open);
    assertEquals(Set.of("d", "e"), r.keys());
  }

  @Test
  void whenEveryOtherConversationIsHeld_theBoundIsExceeded_andSaidOnce() {
    ConversationRegistry<String, String> r = registry(1);
    Registration a = r.hold("a");
    r.use("a", this::open);
    Registration b = r.hold("b");
    r.use("b", this::open);
    r.hold("c");
    r.use("c", this::open);

    assertEquals(Set.of("a", "b", "c"), r.keys());
    assertEquals(List.of("2/1"), overBound, "told once");
    a.remove();
    b.remove();
    r.use("d", this::open);
    assertEquals(Set.of("c", "d"), r.keys(), "idle ones go as new ones open");
  }

  @Test
  void aHold_beforeTheConversationIsOpened_counts() {
    ConversationRegistry<String, String> r = registry(1);
    r.hold("b");
    r.use("a", this::open);

    r.use("b", this::open);

    assertEquals(Set.of("b"), r.keys());
    r.use("c", this::open);
    assertEquals(Set.of("b", "c"), r.keys(), "b is held: c is over the bound");
  }

  @Test
  void end_andClose_endEachConversationOnce_andAClosedRegistryHoldsNothing() {
    ConversationRegistry<String, String> r = registry(5);
    r.use("a", this::open);
    r.use("b", this::open);

    r.end("a");
    r.end("a");
    r.close();
    r.close();
    String late = r.use("c", this::open);

    assertEquals(List.of("a#0", "b#1", "c#2"), ended, "c was ended at once");
    assertEquals("c#2", late, "the caller still gets a conversation");
    assertEquals(Set.of(), r.keys());
    assertTrue(r.isClosed());
  }

  @Test
  void theBound_isCheckedAtOnce() {
    assertThrows(IllegalArgumentException.class, () -> registry(0));
    assertThrows(
        IllegalArgumentException.class,
        () -> registry(ConversationRegistry.MAX_MAX_CONVERSATIONS + 1));
    assertThrows(NullPointerException.class, () -> new ConversationRegistry<>(1, null));
  }
}
