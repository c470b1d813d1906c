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
 * accepted and not yet processed in an earlier lifetime, which the worker processes first. A record
 * that cannot be decoded is logged and skipped; records of other kinds are not capture's.
 */
final class CaptureReplay {

  private static final Logger LOG = LoggerFactory.getLogger(CaptureReplay.class);

  private CaptureReplay() {}

  /**
   * The accepted events in the journal beyond its checkpoint, in order, each marked replayed on
   * {@code cursor}, counted, and shown to {@code seen} (which remembers its key and session).
   */
  static List<Queued> read(
      Journal journal,
      JournalCursor cursor,
      CaptureCounters counters,
      Consumer<AcceptedEvent> seen) {
    List<Queued> replay = new ArrayList<>();
    journal.replay(
        entry -> {
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
          replay.add(new Queued(entry.seq(), a, entry.payloadLength()));
          counters.replayed.increment();
        });
    if (!replay.isEmpty()) {
      LOG.info("memhook: replaying {} captured events from the journal", replay.size());
    }
    return replay;
  }
}
