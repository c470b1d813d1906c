package dev.memhook.core.internal.capture;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.memhook.api.Memory;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.capture.CaptureStats;
import dev.memhook.api.capture.LifecycleEvent;
import dev.memhook.api.capture.ObserveResult;
import dev.memhook.api.capture.Session;
import dev.memhook.api.capture.SessionStatus;
import dev.memhook.api.capture.ShedPolicy;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.core.internal.capture.CaptureQueue.Queued;
import dev.memhook.core.internal.compress.GuardedCompressor;
import dev.memhook.core.internal.compress.GuardedConsolidator;
import dev.memhook.core.internal.journal.Journal;
import dev.memhook.core.internal.journal.JournalCursor;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Capture: {@code observe} on the caller's thread, and the background worker behind it.
 *
 * <h2>Design note</h2>
 *
 * {@code observe} does only what must happen before the event may be called accepted: validate,
 * sanitize and cut every string ({@link EventScrub}), derive the duplicate key ({@link EventKeys}),
 * reserve a place in the bounded {@link CaptureQueue}, and append the encoded event to the {@link
 * Journal} (a write the OS holds once it returns, so a SIGKILL cannot lose it; the journal is
 * forced to the disk every {@code syncInterval}). Then it queues the event and returns. The worker
 * thread takes batches and hands them to {@link CaptureWorker}. The journal's checkpoint moves to
 * just below the oldest event still pending, and an event stays pending until every step it owes is
 * done (its observation stored, its session listing it and written, a session end consolidated), so
 * what was accepted and not fully processed is replayed on the next open. Every step is idempotent
 * (observation ids derive from events), so a replay completes what a crash cut off and does nothing
 * twice.
 *
 * <h2>Ending sessions on close</h2>
 *
 * With {@link CaptureOptions#endSessionsOnClose()}, {@link #close()} first journals a {@link
 * CloseEnd} for each session this lifetime captured an event of (accepted here or replayed from the
 * journal), unless its own end event completed it, and then lets the worker drain: the queued
 * events first, then the close ends, each of which ends its session as {@link SessionStatus#CLOSED}
 * and consolidates it if it is still active and captured nothing after the close saw it. Journaling
 * first is what makes the rule hold when close is cut short or the process dies during close: the
 * ends are in the journal like any accepted event, so the next open replays them, in journal order
 * with the events, and ends what is still open, once. The wait is bounded by {@link
 * CaptureOptions#closeTimeout()}; when it runs out, close cuts the worker short ({@link
 * CaptureWorker#cutShort()}), cancels the provider calls in flight and waits, at most {@link
 * #CUT_SHORT_WAIT}, for the batch under way to end before it closes the journal. Sessions left
 * active by an earlier lifetime and not captured in this one are not this close's to end: the idle
 * timeout ends them.
 *
 * <p>Thread-safe. {@link #close()} never throws.
 */
public final class CapturePipeline implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(CapturePipeline.class);

  /** The journal record kind of an accepted capture event. */
  static final byte KIND_EVENT = 1;

  /**
   * The journal record kind of a session end journaled when the service closed ({@link CloseEnd}).
   */
  static final byte KIND_CLOSE_END = 2;

  /** How many recent duplicate keys {@code observe} remembers to answer DUPLICATE at once. */
  static final int RECENT_KEYS = 100_000;

  /** How long a forget waits for capture to apply what it accepted before erasing the journal. */
  static final Duration ERASE_WAIT = Duration.ofSeconds(30);

  /** How long {@code consolidate} waits for what was accepted before it to be processed. */
  static final Duration CONSOLIDATE_WAIT = Duration.ofSeconds(60);

  /**
   * How long {@link #close()}, once it cut capture short, waits for the batch under way to end
   * before it closes the journal and the store under it: long enough for a batch's embedding and
   * store write, which nothing can cut short without risking the files.
   */
  static final Duration CUT_SHORT_WAIT = Duration.ofSeconds(30);

  private final CaptureOptions options;
  private final Clock clock;
  private final EventIntake intake;
  private final Journal journal;
  private final SessionBook book;
  private final MemoryStore store;
  private final CaptureWorker worker;
  private final GuardedCompressor compressor;
  private final GuardedConsolidator consolidator;
  private final CaptureCounters counters;
  private final CaptureQueue queue;
  private final JournalCursor cursor;

  /** Whether {@link #close()} closes the journal: not when the service's store logs to it too. */
  private final boolean ownsJournal;

  private final Cache<String, Boolean> recentKeys =
      Caffeine.newBuilder().maximumSize(RECENT_KEYS).build();
  private final Set<String> knownSessions = ConcurrentHashMap.newKeySet();
  private final CaptureReplay.Read replay;

  /** Counted down once the worker is done with what was replayed (or has stopped). */
  private final CountDownLatch replayed = new CountDownLatch(1);

  /**
   * The sessions this lifetime captured an event of, accepted or replayed, each with the latest
   * capture time: the sessions {@link #close()} ends.
   */
  private final Map<String, Instant> captured = new ConcurrentHashMap<>();

  /** The ends {@link #close()} journaled, for the worker to process once it drained the queue. */
  private volatile List<CloseEnd.Journaled> closing = List.of();

  private final Object progress = new Object();
  private final Thread thread;
  private final ScheduledExecutorService syncer;
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile boolean stopping;
  private volatile boolean abandon;

  /**
   * Starts the pipeline over {@code parts}, which it owns from now on: reads what the journal holds
   * for capture, starts the worker thread, which processes that first, and the journal's syncs.
   */
  CapturePipeline(CaptureParts parts) {
    CaptureInputs inputs = parts.inputs();
    this.options = inputs.options();
    this.clock = inputs.clock();
    this.intake = new EventIntake(options, clock, inputs.sanitizer(), this::knownSession);
    this.cursor = parts.storage().cursor();
    this.journal = cursor.journal();
    this.ownsJournal = parts.storage().ownsJournal();
    this.book = parts.book();
    this.store = inputs.store();
    this.compressor = parts.compressor();
    this.consolidator = parts.consolidator();
    this.counters = parts.counters();
    this.queue = new CaptureQueue(options.queueCapacity());
    this.worker = new CaptureWorker(parts, new ProgressSignal());
    book.all().forEach(s -> knownSessions.add(s.id()));
    this.replay =
        CaptureReplay.read(
            journal,
            cursor,
            counters,
            a -> {
              recentKeys.put(a.key(), Boolean.TRUE);
              knownSessions.add(a.event().sessionId());
              captured(a);
            });
    this.thread = new Thread(this::run, "memhook-capture");
    thread.setDaemon(true);
    this.syncer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "memhook-journal-sync");
              t.setDaemon(true);
              return t;
            });
    long every = options.syncInterval().toMillis();
    syncer.scheduleWithFixedDelay(this::syncQuietly, every, every, TimeUnit.MILLISECONDS);
    thread.start();
  }

  /**
   * Whether an event of {@code sessionId} may leave out project and cwd: the session is known here,
   * or (a shared session store) another instance captured it, which is then remembered.
   */
  private boolean knownSession(String sessionId) {
    if (knownSessions.contains(sessionId)) {
      return true;
    }
    if (book.knownAnywhere(sessionId)) {
      knownSessions.add(sessionId);
      return true;
    }
    return false;
  }

  /** See {@code MemoryCapture.observeJson}. */
  public ObserveResult observeJson(String json) {
    return observe(parsed(json), null, options.shedPolicy());
  }

  /** See {@code MemoryCapture.observeJson(String, Scope)}. */
  public ObserveResult observeJson(String json, Scope scope) {
    return observe(parsed(json), Objects.requireNonNull(scope, "scope"), options.shedPolicy());
  }

  private LifecycleEvent parsed(String json) {
    try {
      return EventJson.parse(json);
    } catch (IllegalArgumentException e) {
      counters.rejected.increment();
      throw e;
    }
  }

  /** See {@code MemoryCapture.observe}. */
  public ObserveResult observe(LifecycleEvent event) {
    return observe(event, null, options.shedPolicy());
  }

  /**
   * What a hook captures: as {@link #observe(LifecycleEvent)}, stored in the hook's {@code scope}
   * (the scope it recalls from and serves), except that a full queue under {@code CALLER_RUNS}
   * drops the newest instead, so a hook callback never processes a batch on the host's turn.
   */
  public ObserveResult observeFromHook(LifecycleEvent event, Scope scope) {
    ShedPolicy policy = options.shedPolicy();
    return observe(
        event,
        Objects.requireNonNull(scope, "scope"),
        policy == ShedPolicy.CALLER_RUNS ? ShedPolicy.DROP_NEWEST : policy);
  }

  /** Accepts {@code event} into {@code scope} (null: the options' scope for its project). */
  private ObserveResult observe(LifecycleEvent event, Scope scope, ShedPolicy policy) {
    AcceptedEvent accepted;
    try {
      accepted = intake.accept(event, scope);
    } catch (IllegalArgumentException e) {
      counters.rejected.increment();
      throw e;
    }
    if (recentKeys.asMap().putIfAbsent(accepted.key(), Boolean.TRUE) != null) {
      counters.duplicates.increment();
      return ObserveResult.DUPLICATE;
    }
    try {
      return enqueue(accepted, policy);
    } catch (RuntimeException | LinkageError e) {
      // encoding the event or appending it to the journal failed, before it counted as accepted:
      // it is not accepted, which the result says; never thrown
      recentKeys.invalidate(accepted.key());
      counters.shed(accepted.event().sessionId(), "the journal could not take the event");
      LOG.warn("memhook: a captured event could not be written to the journal and is shed", e);
      return ObserveResult.SHED;
    }
  }

  private ObserveResult enqueue(AcceptedEvent accepted, ShedPolicy policy) {
    byte[] bytes = AcceptedEventCodec.encode(accepted);
    while (!queue.tryReserve(bytes.length)) {
      switch (policy) {
        case DROP_NEWEST -> {
          recentKeys.invalidate(accepted.key());
          counters.shed(accepted.event().sessionId(), "the capture queue was full (drop newest)");
          return ObserveResult.SHED;
        }
        case DROP_OLDEST -> {
          Queued old = queue.pollOldest();
          if (old != null) {
            recentKeys.invalidate(old.event().key());
            counters.dropped(old.event().scope(), old.event().event().sessionId());
            finish(old.seq());
          }
        }
        case CALLER_RUNS -> {
          long seq = append(bytes);
          counters.accepted.increment();
          knownSessions.add(accepted.event().sessionId());
          captured(accepted);
          runOnCaller(new Queued(seq, accepted, bytes.length));
          return ObserveResult.ACCEPTED;
        }
      }
    }
    long seq;
    try {
      seq = append(bytes);
    } catch (RuntimeException | LinkageError e) {
      queue.cancel(bytes.length);
      throw e;
    }
    counters.accepted.increment();
    knownSessions.add(accepted.event().sessionId());
    captured(accepted);
    queue.put(new Queued(seq, accepted, bytes.length));
    return ObserveResult.ACCEPTED;
  }

  /** Records that this lifetime captured {@code a}: its session is one {@link #close()} ends. */
  private void captured(AcceptedEvent a) {
    captured.merge(a.event().sessionId(), a.capturedAt(), (x, y) -> x.isAfter(y) ? x : y);
  }

  /**
   * The caller does the pipeline's work: what waits first, then its own event, in one batch. Never
   * throws: the event is in the journal, so it is accepted whatever happens here, and the worker
   * has counted how each event of the batch ended (one it could not store is failed and is retried
   * from the journal when the service next opens).
   */
  private void runOnCaller(Queued own) {
    List<Queued> batch = queue.drain(options.batchSize() - 1);
    batch.add(own);
    try {
      worker.process(batch);
    } catch (RuntimeException | Error e) {
      LOG.warn(
          "memhook: storing captured events on the caller's thread failed; they stay in the"
              + " journal and are retried when the service next opens",
          e);
    }
  }

  private long append(byte[] bytes) {
    return cursor.append(KIND_EVENT, bytes);
  }

  private void finish(long seq) {
    cursor.finished(seq);
  }

  private final class ProgressSignal implements CaptureWorker.Progress {
    @Override
    public void finished(long seq) {
      finish(seq);
    }

    @Override
    public void batchEnded() {
      checkpoint();
      synchronized (progress) {
        progress.notifyAll();
      }
    }
  }

  private void checkpoint() {
    cursor.checkpoint();
  }

  private void run() {
    try {
      replay();
      replayed.countDown();
      while ((!stopping || !queue.isEmpty()) && !abandon) {
        List<Queued> batch = queue.take(options.batchSize(), 100);
        if (!batch.isEmpty()) {
          worker.process(batch);
        }
        if (!stopping) {
          worker.endIdleSessions();
        }
      }
      // stopping, and what was queued is done: the ends close() journaled before it said so
      for (CloseEnd.Journaled end : closing) {
        if (abandon) {
          break;
        }
        worker.endOnClose(end);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException | Error e) {
      LOG.error("memhook: the capture worker stopped; accepted events stay in the journal", e);
    } finally {
      replayed.countDown();
    }
  }

  /**
   * Processes what the journal held when capture opened, in journal order: the events in batches,
   * and each session end an earlier close journaled where it stands among them.
   */
  private void replay() {
    List<Queued> events = replay.events();
    List<CloseEnd.Journaled> ends = replay.ends();
    int e = 0;
    int c = 0;
    while ((e < events.size() || c < ends.size()) && !abandon) {
      if (c < ends.size() && (e == events.size() || ends.get(c).seq() < events.get(e).seq())) {
        worker.endOnClose(ends.get(c++));
        continue;
      }
      long before = c < ends.size() ? ends.get(c).seq() : Long.MAX_VALUE;
      int to = e;
      while (to < events.size() && to - e < options.batchSize() && events.get(to).seq() < before) {
        to++;
      }
      worker.process(events.subList(e, to));
      e = to;
    }
  }

  /**
   * See {@code MemoryCapture.flush}; what was replayed when capture opened, session ends an earlier
   * close journaled included, counts as accepted before the call.
   */
  public boolean flush(Duration timeout) {
    long target = counters.started();
    long deadline = System.nanoTime() + timeout.toNanos();
    boolean replayDone;
    try {
      replayDone = replayed.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
    synchronized (progress) {
      while (counters.finished() < target) {
        long left = deadline - System.nanoTime();
        if (left <= 0 || !thread.isAlive()) {
          break;
        }
        try {
          progress.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
    }
    boolean batchEnded;
    try {
      // the last event is counted before the batch ends: a session's consolidation runs after it
      batchEnded = worker.awaitBatchEnd(deadline - System.nanoTime());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      batchEnded = false;
    }
    syncQuietly();
    return replayDone && batchEnded && counters.finished() >= target;
  }

  /**
   * Erases what capture keeps of forgotten observations outside the store: waits (at most {@link
   * #ERASE_WAIT}) for accepted events to be applied, then drops applied records from the journal
   * files, and clears the first prompt, summary and last turn of their sessions, which may quote
   * them. An event still pending when the wait ends stays in the journal until it is applied.
   *
   * @param sessions the sessions of the forgotten observations
   */
  public void forgotten(Set<String> sessions) {
    if (!sessions.isEmpty()) {
      worker.forgetQuotes(sessions);
    }
    flush(ERASE_WAIT);
    try {
      journal.eraseApplied();
    } catch (RuntimeException e) {
      LOG.warn("memhook: erasing applied records from the capture journal failed", e);
    }
  }

  /** See {@code MemoryCapture.consolidate}. */
  public int consolidate(String sessionId) {
    flush(CONSOLIDATE_WAIT);
    return worker.consolidate(sessionId);
  }

  public CaptureStats stats() {
    return counters.snapshot(
        () -> compressor.fallbacks().total(), () -> consolidator.fallbacks().total());
  }

  public Optional<Session> session(String id) {
    return book.get(id);
  }

  public List<Session> sessions() {
    return book.all();
  }

  /**
   * See {@code MemoryCapture.observations}: the ids the session store lists (read on the caller's
   * thread, which the store allows), those still stored, by time.
   */
  public List<Memory> observations(String sessionId) {
    List<Memory> out = new ArrayList<>(store.getAll(book.listedObservations(sessionId)).values());
    out.sort(Comparator.comparing(Memory::occurredAt).thenComparing(Memory::id));
    return out;
  }

  private void syncQuietly() {
    try {
      journal.sync();
    } catch (RuntimeException e) {
      LOG.warn("memhook: forcing the capture journal to the disk failed", e);
    }
  }

  /**
   * Ends the sessions this lifetime holds open (with {@link CaptureOptions#endSessionsOnClose()}),
   * drains what was accepted, both within {@link CaptureOptions#closeTimeout()}, cutting the worker
   * short when that runs out (see the class note); then closes the journal and the session store.
   * Never throws; idempotent.
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    long deadline = System.nanoTime() + options.closeTimeout().toNanos();
    if (options.endSessionsOnClose()) {
      try {
        closing = journalCloseEnds();
      } catch (RuntimeException | LinkageError e) {
        LOG.warn("memhook: the open sessions could not be ended on close; they stay open", e);
      }
    }
    stopping = true;
    join(deadline - System.nanoTime());
    if (thread.isAlive()) {
      LOG.warn(
          "memhook: capture did not finish within {} of closing; what is left stays in the"
              + " journal and is finished when the service next opens (with no journal directory,"
              + " it is lost)",
          options.closeTimeout());
      // not an interrupt: one can close Lucene's file channels mid-write. The worker stops after
      // the batch under way, which ends before the store closes; a provider call it waits for is
      // cancelled, and what it proposed is dropped, its session end left to the journal
      worker.cutShort();
      abandon = true;
      consolidator.close();
      compressor.close();
      join(CUT_SHORT_WAIT.toNanos());
      if (thread.isAlive()) {
        LOG.warn(
            "memhook: the capture worker's batch did not end within {} of cutting it short;"
                + " closing under it",
            CUT_SHORT_WAIT);
      }
    }
    // Not an interrupt either: one during the journal's fsync closes its file channel, and the
    // journal is the store's write-ahead log too. shutdown() cancels the waiting syncs and lets a
    // running one end.
    syncer.shutdown();
    try {
      syncer.awaitTermination(CUT_SHORT_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    checkpoint();
    try {
      if (ownsJournal) {
        journal.close();
      } else {
        journal.sync();
      }
    } catch (RuntimeException e) {
      LOG.warn("memhook: closing the capture journal failed", e);
    }
    compressor.close();
    consolidator.close();
    book.close();
  }

  /** Waits at most {@code nanos} for the worker thread to end. */
  private void join(long nanos) {
    if (nanos <= 0) {
      return;
    }
    try {
      thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(nanos)));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Journals a {@link CloseEnd} for each session this lifetime captured, except those their own end
   * event completed (only another end event ends such a session again), and forces them to the
   * disk. A session whose end cannot be journaled is left open; the failures are logged once.
   *
   * @return the ends journaled, in journal order
   */
  private List<CloseEnd.Journaled> journalCloseEnds() {
    Instant at = clock.instant();
    List<CloseEnd.Journaled> ends = new ArrayList<>();
    List<String> failed = new ArrayList<>();
    Throwable failure = null;
    for (Map.Entry<String, Instant> e : captured.entrySet()) {
      String id = e.getKey();
      if (book.held(id).map(s -> s.status() == SessionStatus.COMPLETED).orElse(false)) {
        continue;
      }
      CloseEnd end = new CloseEnd(id, e.getValue(), at);
      try {
        ends.add(new CloseEnd.Journaled(cursor.append(KIND_CLOSE_END, end.encode()), end));
      } catch (RuntimeException | LinkageError f) {
        failed.add(id);
        failure = failure == null ? f : failure;
      }
    }
    if (failure != null) {
      LOG.warn(
          "memhook: the ends of {} sessions could not be journaled on close; they stay open: {}",
          failed.size(),
          failed,
          failure);
    }
    if (!ends.isEmpty()) {
      syncQuietly();
    }
    return List.copyOf(ends);
  }
}
