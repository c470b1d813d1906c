package dev.memhook.core.internal.capture;

import dev.memhook.core.internal.capture.CaptureQueue.Queued;
import dev.memhook.core.internal.journal.Journal;
import dev.memhook.core.internal.journal.JournalCursor;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads what the capture journal holds beyond its checkpoint when capture opens: the events
 * accepted and not yet processed in an earlier lifetime, and the session ends journaled when an
 * earlier lifetime closed ({@link CloseEnd}), which the worker processes first, in journal order. A
 * record that cannot be decoded is logged and skipped; records of other kinds are not capture's.
 */
final class CaptureReplay {

  private static final Logger LOG = LoggerFactory.getLogger(CaptureReplay.class);

  /**
   * What was read back, each list in journal order.
   *
   * @param events the accepted events
   * @param ends the session ends journaled at a close
   */
  record Read(List<Queued> events, List<CloseEnd.Journaled> ends) {
    boolean isEmpty() {
      return events.isEmpty() && ends.isEmpty();
    }
  }

  private CaptureReplay() {}

  /**
   * The accepted events and session ends in the journal beyond its checkpoint, in order, each
   * marked replayed on {@code cursor}; each event counted and shown to {@code seen} (which
   * remembers its key and session).
   */
  static Read read(
      Journal journal,
      JournalCursor cursor,
      CaptureCounters counters,
      Consumer<AcceptedEvent> seen) {
    List<Queued> events = new ArrayList<>();
    List<CloseEnd.Journaled> ends = new ArrayList<>();
    journal.replay(
        entry -> {
          if (entry.kind() == CapturePipeline.KIND_CLOSE_END) {
            CloseEnd end;
            try {
              end = CloseEnd.decode(entry.payload());
            } catch (RuntimeException e) {
              LOG.error(
                  "memhook: capture journal record {} cannot be read and is skipped: {}",
                  entry.seq(),
                  e.toString());
              return;
            }
            cursor.replayed(entry.seq());
            ends.add(new CloseEnd.Journaled(entry.seq(), end));
            return;
          }
          if (entry.kind() != CapturePipeline.KIND_EVENT) {
            return;
          }
          AcceptedEvent a;
          try {
            a = AcceptedEventCodec.decode(entry.payload());
          } catch (RuntimeException e) {
            LOG.error(
                "memhook: capture journal record {} cannot be read and is skipped: {}",
                entry.seq(),
                e.toString());
            return;
          }
          cursor.replayed(entry.seq());
          seen.accept(a);
          events.add(new Queued(entry.seq(), a, entry.payloadLength()));
          counters.replayed.increment();
        });
    if (!events.isEmpty()) {
      LOG.info("memhook: replaying {} captured events from the journal", events.size());
    }
    if (!ends.isEmpty()) {
      LOG.info(
          "memhook: finishing {} session ends an earlier close left in the journal", ends.size());
    }
    return new Read(events, ends);
  }
}
