package dev.memhook.core.internal.capture;

import dev.memhook.api.Memory;
import dev.memhook.api.capture.Consolidation;
import dev.memhook.api.capture.LifecycleEventType;
import dev.memhook.api.capture.Session;
import dev.memhook.api.capture.SessionStatus;
import dev.memhook.core.internal.capture.CaptureQueue.Queued;
import dev.memhook.core.internal.logging.WarnLimiter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The processing half of capture: stores batches of accepted events as observations, keeps their
 * sessions, ends idle sessions and consolidates ended ones. Everything here runs under one
 * processing lock, so events are processed one batch at a time whichever thread runs them (the
 * worker thread, or a caller under {@code CALLER_RUNS}, or {@code consolidate}).
 *
 * <p>An accepted event owes these steps, in order: its observation stored ({@link
 * ObservationWriter}), its session touched and listing the observation ({@link SessionBook}), for a
 * session end the session consolidated and recorded ended, and the session's record and ids written
 * to the session store. Each step is idempotent, and an event is reported {@linkplain
 * Progress#finished finished}, which lets the journal's checkpoint pass it, only after the last: so
 * a crash between any two steps leaves the event in the journal, and its replay runs every step
 * again, completing what the crash cut off and repeating nothing that was done (an observation
 * found stored is not stored again but is still listed in its session; a consolidated memory found
 * held as it is is not written again). An event whose session the store has not taken yet stays
 * unfinished until a later write succeeds.
 *
 * <p>A {@link CloseEnd} (a session end journaled when the service closed) owes its session's end,
 * when it still ends the session ({@link SessionBook#endsOnClose}), and the session written; it
 * finishes then, or at once when the session was ended or continued since.
 *
 * <p>Closing the service may {@linkplain #cutShort() cut processing short}: from then on no session
 * end begins, and a consolidation whose proposal arrives after it is dropped unstored, its session
 * not recorded ended; the event or close end that owed it stays unfinished in the journal, so the
 * next open ends the session, once.
 *
 * <p>An event {@link dev.memhook.core.internal.compress.NoiseAdmission} calls noise owes the same
 * steps but stores nothing: it is kept in its session only. A tool start is held ({@link ToolRuns})
 * until its run ends, when the end's observation stands for the run and the start finishes with it,
 * or until its session ends, when it is stored as its own observation; until then its journal
 * record stays unfinished.
 *
 * <p>A batch that fails is retried event by event, so one bad event cannot fail its neighbours; an
 * event that still fails is counted and logged, and stays unapplied in the journal, to be retried
 * when the service next opens. Thread-safe through the lock.
 */
final class CaptureWorker {

  private static final Logger LOG = LoggerFactory.getLogger(CaptureWorker.class);

  /** How often idle sessions are looked for. */
  private static final Duration IDLE_CHECK = Duration.ofSeconds(1);

  private final ReentrantLock lock = new ReentrantLock();
  private final ToolRuns toolRuns = new ToolRuns();
  private final ObservationWriter writer;
  private final SessionBook book;
  private final SessionConsolidation consolidation;
  private final CaptureCounters counters;
  private final Progress progress;
  private final Clock clock;
  private final Duration idleTimeout;
  private final boolean consolidateOnEnd;
  private final WarnLimiter warnings = new WarnLimiter(Duration.ofSeconds(30), System::nanoTime);
  private Instant lastIdleCheck = Instant.MIN;

  /** Set when closing the service cut processing short; see the class note. */
  private volatile boolean cutShort;

  /** Processed events, by session, whose session the store has not taken yet; under the lock. */
  private final Map<String, List<Long>> unsettled = new LinkedHashMap<>();

  /** Told when events finish, so waiters and the journal checkpoint move on. */
  interface Progress {
    /** Every step {@code seq} owes is done: it need not be replayed. */
    void finished(long seq);

    /** A batch ended. */
    void batchEnded();
  }

  /**
   * A worker over {@code parts}: it stores observations in the service's store through their
   * compressor and consolidates ended sessions through the service's writes.
   *
   * @param progress told when events finish and batches end
   */
  CaptureWorker(CaptureParts parts, Progress progress) {
    CaptureInputs inputs = parts.inputs();
    this.writer =
        new ObservationWriter(
            inputs.store(), inputs.embedder(), inputs.intake(), parts.compressor());
    this.book = parts.book();
    this.consolidation =
        new SessionConsolidation(
            inputs.store(), parts.consolidator(), inputs.writes(), inputs.events(), inputs.clock());
    this.counters = parts.counters();
    this.progress = Objects.requireNonNull(progress, "progress");
    this.clock = inputs.clock();
    this.idleTimeout = inputs.options().sessionIdleTimeout();
    this.consolidateOnEnd = inputs.options().consolidateOnSessionEnd();
  }

  /**
   * Processes a batch in order. Each event of it ends exactly once: stored, found stored, or failed
   * (counted, logged, left in the journal for the next open). A throwable that is neither a {@code
   * RuntimeException} nor a {@code LinkageError} (an {@code AssertionError} from a store, an {@code
   * OutOfMemoryError}) fails the events not yet ended, leaves every event of the batch unfinished
   * (in the journal, for the next open) and is rethrown; the worker thread then stops, and a caller
   * running the batch under {@code CALLER_RUNS} logs it.
   */
  void process(List<Queued> batch) {
    lock.lock();
    int ended = 0;
    try {
      // a shared store: continue sessions another instance captured since with their state
      book.refresh(batch.stream().map(q -> q.event().event().sessionId()).toList());
      List<Queued> writes = new ArrayList<>(batch.size());
      Set<Long> released = new HashSet<>();
      Map<Long, Long> runStarts = new HashMap<>();
      for (Queued q : batch) {
        AcceptedEvent a = q.event();
        if (ToolRuns.starts(a) && book.touch(a, null).status() == SessionStatus.ACTIVE) {
          toolRuns
              .hold(q.seq(), a)
              .ifPresent(
                  old -> {
                    released.add(old.seq());
                    writes.add(new Queued(old.seq(), old.event(), 0));
                  });
          counters.notAdmitted.increment(); // ended for now; stored later only if released
          ended++;
          continue;
        }
        if (ToolRuns.ends(a)) {
          var start = toolRuns.match(a);
          if (start.isPresent()) {
            runStarts.put(q.seq(), start.get().seq());
            writes.add(new Queued(q.seq(), ToolRuns.completed(a, start.get().event()), q.bytes()));
            continue;
          }
        }
        writes.add(q);
      }
      List<AcceptedEvent> events = new ArrayList<>(writes.size());
      writes.forEach(q -> events.add(q.event()));
      List<ObservationWriter.Written> results;
      try {
        results = writer.write(events, book);
      } catch (RuntimeException | LinkageError batchFailure) {
        results = null;
      }
      for (int i = 0; i < writes.size(); i++) {
        Queued q = writes.get(i);
        boolean release = released.contains(q.seq());
        if (release) {
          counters.notAdmitted.decrement(); // counted once, as what became of it now
        }
        ObservationWriter.Written w;
        try {
          w = results != null ? results.get(i) : writer.write(List.of(q.event()), book).get(0);
          done(q.seq(), w);
        } catch (RuntimeException | LinkageError e) {
          ended += release ? 0 : 1;
          counters.failed.increment();
          warn(
              "storing a captured event failed; it stays in the journal, and the next service to"
                  + " open the journal's directory stores it (a journal kept in memory, with no"
                  + " directory, loses it at close)",
              e);
          continue;
        }
        ended += release ? 0 : 1;
        Long start = runStarts.get(q.seq());
        if (start != null) {
          unsettled.get(q.event().event().sessionId()).add(start);
        }
        if (w.event().event().type() == LifecycleEventType.SESSION_END && !endQuietly(w.event())) {
          // cut short by close: the event still owes its session's end, on the next open
          unsettled.get(w.event().event().sessionId()).remove(Long.valueOf(q.seq()));
        }
      }
      persistSessions();
    } catch (RuntimeException | Error e) {
      for (int i = ended; i < batch.size(); i++) {
        counters.failed.increment();
      }
      // a step of any event of the batch may have been cut off: none finishes in this lifetime
      Set<Long> seqs = new HashSet<>();
      batch.forEach(q -> seqs.add(q.seq()));
      toolRuns.drop(seqs);
      unsettled.values().forEach(pending -> pending.removeAll(seqs));
      unsettled.values().removeIf(List::isEmpty);
      throw e;
    } finally {
      lock.unlock();
      progress.batchEnded();
    }
  }

  /**
   * Records an event whose observation is stored, or was found stored (a redelivery, or a replay
   * after a crash that may have cut off the steps after the store write): its session steps run
   * either way. What is counted is the last thing done, so it happens once; the event finishes when
   * its session is written ({@link #settle()}).
   */
  private void done(long seq, ObservationWriter.Written w) {
    AcceptedEvent a = w.event();
    String session = a.event().sessionId();
    String prompt =
        a.event().type() == LifecycleEventType.PROMPT_SUBMIT ? a.event().data().prompt() : null;
    book.touch(a, prompt);
    if (w.notAdmitted() == null) {
      book.observationStored(session, a.observationId(), !w.duplicate());
    }
    unsettled.computeIfAbsent(session, k -> new ArrayList<>()).add(seq);
    if (w.notAdmitted() != null) {
      counters.notAdmitted.increment();
    } else if (w.duplicate()) {
      counters.duplicatesProcessed.increment();
    } else {
      counters.stored(w.memory().scope(), session, w.memory().id());
    }
  }

  /**
   * Ends the session of a processed session-end event; a failure leaves the event processed.
   *
   * @return false when closing cut processing short before the end was recorded
   */
  private boolean endQuietly(AcceptedEvent a) {
    try {
      return end(a.event().sessionId(), SessionStatus.COMPLETED, a.event().timestamp());
    } catch (RuntimeException | LinkageError e) {
      warn("ending session " + a.event().sessionId() + " failed; its event is stored", e);
      return true;
    }
  }

  /**
   * Processes a session end journaled when the service closed: ends the session as {@link
   * SessionStatus#CLOSED} at the close's time if the end still applies ({@link
   * SessionBook#endsOnClose}), and finishes the record once the session is written, or at once if
   * the end does not apply. Cut short, or failing (logged), the record stays unfinished in the
   * journal for the next open.
   */
  void endOnClose(CloseEnd.Journaled record) {
    CloseEnd e = record.end();
    lock.lock();
    try {
      book.refresh(List.of(e.sessionId()));
      if (!book.endsOnClose(e.sessionId(), e.through())) {
        progress.finished(record.seq());
        return;
      }
      if (!end(e.sessionId(), SessionStatus.CLOSED, e.at())) {
        return;
      }
      unsettled.computeIfAbsent(e.sessionId(), k -> new ArrayList<>()).add(record.seq());
      persistSessions();
    } catch (RuntimeException | LinkageError failure) {
      warn(
          "ending session "
              + e.sessionId()
              + " on close failed; it is ended when the service next opens",
          failure);
    } finally {
      lock.unlock();
      progress.batchEnded();
    }
  }

  /**
   * Cuts processing short, for a close whose wait ran out: no session end begins after this, and a
   * consolidation under way is dropped when its proposal arrives (see the class note). Thread-safe.
   */
  void cutShort() {
    cutShort = true;
  }

  /** Ends every active session idle past the timeout, at most once a second. */
  void endIdleSessions() {
    Instant now = clock.instant();
    if (Duration.between(lastIdleCheck, now).compareTo(IDLE_CHECK) < 0) {
      return;
    }
    lastIdleCheck = now;
    lock.lock();
    try {
      for (String id : book.idleSince(now.minus(idleTimeout))) {
        if (!end(id, SessionStatus.ABANDONED, now)) {
          break; // cut short: still active, so idle again on the next open
        }
      }
      persistSessions();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Consolidates (if configured) and then records the session ended, summary and all at once.
   *
   * @return false, having recorded nothing, when processing was cut short before the end began or
   *     before its consolidation was stored
   */
  private boolean end(String sessionId, SessionStatus status, Instant at) {
    if (cutShort) {
      return false;
    }
    releaseToolStarts(sessionId);
    Session ending = book.ending(sessionId, status, at);
    String summary = null;
    if (consolidateOnEnd) {
      Consolidated c = consolidateLocked(ending);
      if (c.cutShort()) {
        return false;
      }
      summary = c.summary();
    }
    book.end(ending, summary);
    return true;
  }

  /**
   * Stores the tool starts the ending session still holds, whose runs never ended, each as its own
   * observation. A failure leaves them unfinished in the journal, for the next open.
   */
  private void releaseToolStarts(String sessionId) {
    List<ToolRuns.Held> held = toolRuns.release(sessionId);
    if (held.isEmpty()) {
      return;
    }
    List<ObservationWriter.Written> written;
    try {
      written = writer.write(held.stream().map(ToolRuns.Held::event).toList(), book);
    } catch (RuntimeException | LinkageError e) {
      warn(
          "storing the unended tool runs of " + sessionId + " failed; they stay in the journal", e);
      return;
    }
    for (int i = 0; i < held.size(); i++) {
      counters.notAdmitted.decrement(); // counted once, as what became of it now
      done(held.get(i).seq(), written.get(i));
    }
  }

  /** Clears what the sessions' records quote of their observations; see the pipeline. */
  void forgetQuotes(Set<String> sessions) {
    lock.lock();
    try {
      sessions.forEach(book::forgetQuotes);
      persistSessions();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits, at most {@code nanos}, for the batch being processed to end, the session consolidation
   * it runs at a session's end included: its events are counted as finished before that
   * consolidation runs, so a flush that saw them counted would otherwise return while it runs.
   *
   * @return whether no batch was running by the deadline
   */
  boolean awaitBatchEnd(long nanos) throws InterruptedException {
    if (lock.tryLock(Math.max(0, nanos), TimeUnit.NANOSECONDS)) {
      lock.unlock();
      return true;
    }
    return false;
  }

  /** Consolidates a session now; see {@code MemoryCapture.consolidate}. */
  int consolidate(String sessionId) {
    lock.lock();
    try {
      book.refresh(List.of(sessionId));
      Session s =
          book.held(sessionId)
              .orElseThrow(() -> new IllegalArgumentException("no captured session " + sessionId));
      long before = counters.consolidated.sum();
      Consolidated c = consolidateLocked(s);
      if (!c.cutShort()) {
        book.end(s, c.summary());
      }
      persistSessions();
      return (int) (counters.consolidated.sum() - before);
    } finally {
      lock.unlock();
    }
  }

  /**
   * What consolidating a session came to.
   *
   * @param cutShort whether processing was cut short before anything was stored
   * @param summary the session's summary; null when cut short or when consolidation failed
   */
  private record Consolidated(boolean cutShort, String summary) {}

  /**
   * Consolidates the session: stores what the consolidator proposes, unless processing was cut
   * short while it was asked.
   */
  private Consolidated consolidateLocked(Session session) {
    try {
      List<Memory> observations = consolidation.observations(book.observations(session.id()));
      List<Consolidation> found = consolidation.propose(session, observations);
      if (cutShort) {
        return new Consolidated(true, null);
      }
      counters.consolidated.add(consolidation.store(session, found, observations));
      return new Consolidated(false, consolidation.summary(session, observations));
    } catch (RuntimeException | LinkageError e) {
      warn("consolidating session " + session.id() + " failed; its observations are kept", e);
      return new Consolidated(false, null);
    }
  }

  /**
   * Writes the session records, then finishes the events whose session is now written; the book
   * reports and retries its store's failures itself.
   */
  private void persistSessions() {
    try {
      book.persist();
    } catch (RuntimeException e) {
      warn("writing session records failed; they are written with the next batch", e);
    }
    settle();
  }

  /** Finishes the processed events whose session the store holds as the book does. */
  private void settle() {
    for (Iterator<Map.Entry<String, List<Long>>> it = unsettled.entrySet().iterator();
        it.hasNext(); ) {
      Map.Entry<String, List<Long>> e = it.next();
      if (book.settled(e.getKey())) {
        e.getValue().forEach(progress::finished);
        it.remove();
      }
    }
  }

  private void warn(String what, Throwable e) {
    WarnLimiter.Decision d = warnings.next();
    if (d.warn()) {
      LOG.warn("memhook capture: {} ({} similar held back)", what, d.heldBack(), e);
    } else {
      LOG.debug("memhook capture: {}", what, e);
    }
  }
}
