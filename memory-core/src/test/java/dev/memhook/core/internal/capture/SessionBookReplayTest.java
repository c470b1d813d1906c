package dev.memhook.core.internal.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEvent;
import dev.memhook.api.capture.LifecycleEventType;
import dev.memhook.api.capture.Session;
import dev.memhook.api.capture.SessionStatus;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

/**
 * Every change the book makes for an event is idempotent, so replaying an event whose steps a crash
 * cut off completes them and repeats none.
 */
class SessionBookReplayTest {

  private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");
  private static final MemoryId FIRST = MemoryId.of("obs-first");
  private static final MemoryId SECOND = MemoryId.of("obs-second");

  private final InMemorySessionStore store = new InMemorySessionStore();
  private final LongAdder failures = new LongAdder();

  @Test
  void anObservationRecordedTwice_isListedAndCountedOnce() {
    SessionBook book = book();
    book.touch(event(0, FIRST), "We use yarn, never npm.");
    book.observationStored("s1", FIRST, true);
    book.touch(event(0, FIRST), "We use yarn, never npm.");
    book.observationStored("s1", FIRST, false);
    book.persist();

    assertEquals(List.of(FIRST), book.observations("s1"));
    assertEquals(List.of(FIRST), store.observations("s1"));
    assertEquals(1, book.get("s1").orElseThrow().observationCount());
    assertEquals(0, failures.sum());
  }

  @Test
  void anObservationFoundStoredButNotListed_isListedAndCounted() {
    SessionBook before = book();
    before.touch(event(0, FIRST), "Add a coupon field.");
    before.observationStored("s1", FIRST, true);
    before.persist();
    // the crash: the second observation was stored, nothing of its session was written

    SessionBook after = book();
    after.touch(event(1, SECOND), "We use yarn, never npm.");
    after.observationStored("s1", SECOND, false);
    after.persist();

    assertEquals(List.of(FIRST, SECOND), store.observations("s1"));
    assertEquals(2, after.get("s1").orElseThrow().observationCount());
  }

  @Test
  void anObservationListedButNotCounted_isCountedWithoutListingItTwice() {
    SessionBook before = book();
    before.touch(event(0, FIRST), "Add a coupon field.");
    before.observationStored("s1", FIRST, true);
    before.persist();
    // the crash: the second id was appended, the record counting it was not written
    store.appendObservations("s1", List.of(SECOND));

    SessionBook after = book();
    assertEquals(1, after.get("s1").orElseThrow().observationCount());
    after.touch(event(1, SECOND), "We use yarn, never npm.");
    after.observationStored("s1", SECOND, false);
    after.persist();

    assertEquals(List.of(FIRST, SECOND), store.observations("s1"));
    assertEquals(2, after.get("s1").orElseThrow().observationCount());
  }

  @Test
  void aReplayedEvent_doesNotReopenASessionAbandonedAfterIt_butANewOneDoes() {
    SessionBook book = book();
    book.touch(event(0, FIRST), null);
    book.end(book.ending("s1", SessionStatus.ABANDONED, T0.plusSeconds(3_600)), "Abandoned.");

    Session replayed = book.touch(event(0, FIRST), null);
    assertEquals(SessionStatus.ABANDONED, replayed.status());
    assertEquals(T0.plusSeconds(3_600), replayed.endedAt());

    Session spoke = book.touch(event(7_200, SECOND), null);
    assertEquals(SessionStatus.ACTIVE, spoke.status());
    assertNull(spoke.endedAt());
  }

  @Test
  void aReplayedEvent_doesNotReopenASessionEndedOnClose_butANewOneDoes() {
    SessionBook book = book();
    book.touch(event(0, FIRST), null);
    book.end(book.ending("s1", SessionStatus.CLOSED, T0.plusSeconds(60)), "Closed.");

    assertEquals(SessionStatus.CLOSED, book.touch(event(0, FIRST), null).status());

    Session spoke = book.touch(event(120, SECOND), null);
    assertEquals(SessionStatus.ACTIVE, spoke.status());
    assertNull(spoke.endedAt());
  }

  @Test
  void aCompletedSession_staysCompletedWhenAnEventArrivesAfterItsEnd() {
    SessionBook book = book();
    book.touch(event(0, FIRST), null);
    book.end(book.ending("s1", SessionStatus.COMPLETED, T0.plusSeconds(1)), "Done.");

    assertEquals(SessionStatus.COMPLETED, book.touch(event(120, SECOND), null).status());
  }

  @Test
  void aCloseEnd_endsOnlyAnActiveSession_thatCapturedNothingAfterIt() {
    SessionBook book = book();
    assertFalse(book.endsOnClose("s1", T0), "a session the book does not hold");
    book.touch(event(10, FIRST), null);

    assertTrue(book.endsOnClose("s1", T0.plusSeconds(10)), "captured exactly up to it");
    assertTrue(book.endsOnClose("s1", T0.plusSeconds(11)));
    assertFalse(
        book.endsOnClose("s1", T0.plusSeconds(9)), "an event captured after the close saw it");

    book.end(book.ending("s1", SessionStatus.CLOSED, T0.plusSeconds(20)), "Closed.");
    assertFalse(book.endsOnClose("s1", T0.plusSeconds(10)), "ended already");
  }

  private SessionBook book() {
    return SessionBook.open(store, new SessionStoreFailures(failures));
  }

  /** A prompt of session s1 at T0 + {@code second}, captured then, stored as {@code id}. */
  private static AcceptedEvent event(int second, MemoryId id) {
    Instant at = T0.plusSeconds(second);
    LifecycleEvent e =
        LifecycleEvent.builder(LifecycleEventType.PROMPT_SUBMIT, "s1")
            .project("shop")
            .cwd("/work/shop")
            .timestamp(at)
            .data(EventData.prompt("text " + second))
            .build();
    return new AcceptedEvent(e, "key-" + second, id, Scope.DEFAULT, at, false);
  }
}
