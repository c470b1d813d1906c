package dev.memhook.core.internal.notify;

import static dev.memhook.core.Eventually.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.trace.CaptureEvent;
import dev.memhook.api.trace.ListenerStats;
import dev.memhook.api.trace.MemoryListener;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Listeners run on their own thread, in order, bounded, and what they throw is only counted. */
class ListenerDispatchTest {

  private static final CaptureEvent EVENT =
      new CaptureEvent(CaptureEvent.Kind.EVENT_SHED, Instant.EPOCH, null, "s", null, "full");

  @Test
  void eventsArriveInOrder_toTheServiceAndTheHookListener() {
    List<String> heard = new CopyOnWriteArrayList<>();
    MemoryListener service =
        new MemoryListener() {
          @Override
          public void captured(CaptureEvent event) {
            heard.add("service:" + event.detail());
          }
        };
    MemoryListener hook =
        new MemoryListener() {
          @Override
          public void captured(CaptureEvent event) {
            heard.add("hook:" + event.detail());
          }
        };
    try (ListenerDispatch dispatch = new ListenerDispatch(service)) {
      for (int i = 0; i < 100; i++) {
        CaptureEvent e = new CaptureEvent(EVENT.kind(), EVENT.at(), null, null, null, "" + i);
        dispatch.publish(hook, l -> l.captured(e));
      }
      eventually(() -> assertEquals(200, heard.size()));
      for (int i = 0; i < 100; i++) {
        assertEquals("service:" + i, heard.get(2 * i));
        assertEquals("hook:" + i, heard.get(2 * i + 1));
      }
      assertEquals(new ListenerStats(200, 0, 0), dispatch.stats());
    }
  }

  @Test
  void aStuckListener_neverBlocksPublish_andWhatOverflowsTheBacklogIsDroppedAndCounted()
      throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    MemoryListener stuck =
        new MemoryListener() {
          @Override
          public void captured(CaptureEvent event) {
            try {
              release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
        };
    try (ListenerDispatch dispatch = new ListenerDispatch(stuck)) {
      long start = System.nanoTime();
      int sent = ListenerDispatch.BACKLOG + 500;
      for (int i = 0; i < sent; i++) {
        dispatch.publish(l -> l.captured(EVENT));
      }
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
      assertTrue(millis < 10_000, "publishing waited for the listener: " + millis + " ms");
      assertTrue(dispatch.stats().dropped() >= 499, dispatch.stats().toString());
      release.countDown();
      eventually(
          () -> {
            ListenerStats s = dispatch.stats();
            assertEquals(sent, s.delivered() + s.dropped(), s.toString());
          });
    }
  }

  @Test
  void aThrowingListener_isCounted_andTheNextEventStillArrives() {
    List<String> heard = new CopyOnWriteArrayList<>();
    MemoryListener flaky =
        new MemoryListener() {
          @Override
          public void captured(CaptureEvent event) {
            if (event.detail().equals("boom")) {
              throw new IllegalStateException("listener bug");
            }
            heard.add(event.detail());
          }
        };
    try (ListenerDispatch dispatch = new ListenerDispatch(flaky)) {
      CaptureEvent boom = new CaptureEvent(EVENT.kind(), EVENT.at(), null, null, null, "boom");
      CaptureEvent fine = new CaptureEvent(EVENT.kind(), EVENT.at(), null, null, null, "fine");
      dispatch.publish(l -> l.captured(boom));
      dispatch.publish(l -> l.captured(fine));
      eventually(() -> assertEquals(List.of("fine"), heard));
      assertEquals(new ListenerStats(1, 1, 0), dispatch.stats());
    }
  }
}
