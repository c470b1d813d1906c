package dev.memhook.core.internal.capture;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.memhook.api.CaptureStats;
import dev.memhook.api.LifecycleEvent;
import dev.memhook.api.ObserveResult;
import dev.memhook.api.Scope;
import dev.memhook.api.Session;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.capture.ShedPolicy;
import dev.memhook.core.internal.capture.CaptureQueue.Queued;
import dev.memhook.core.internal.compress.GuardedCompressor;
import dev.memhook.core.internal.compress.GuardedConsolidator;
import dev.memhook.core.internal.journal.Journal;
import dev.memhook.core.internal.journal.JournalCursor;
import dev.memhook.core.internal.sanitize.Sanitizer;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
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
 * <p>Thread-safe. {@link #close()} drains what was accepted (bounded by {@link #CLOSE_WAIT}; what
 * is left stays in the journal).
 */
public final class CapturePipeline implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(CapturePipeline.class);

  /** The journal record kind of an accepted capture event. */
  static final byte KIND_EVENT = 1;

  /** How many recent duplicate keys {@code observe} remembers to answer DUPLICATE at once. */
  static final int RECENT_KEYS = 100_000;

  /** How long a forget waits for capture to apply what it accepted before erasing the journal. */
  static final Duration ERASE_WAIT = Duration.ofSeconds(30);

  /** How long {@link #close()} lets the worker drain before leaving the rest to the journal. */
  static final Duration CLOSE_WAIT = Duration.ofSeconds(60);

  private final CaptureOptions options;
  private final Clock clock;
  private final EventIntake intake;
  private final Journal journal;
  private final SessionBook book;
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
  private final List<Queued> replay = new ArrayList<>();
  private final Object progress = new Object();
  private final Thread thread;
  private final ScheduledExecutorService syncer;
  private volatile boolean stopping;
  private volatile boolean abandon;

  CapturePipeline(
      CaptureOptions options,
      Clock clock,
      Sanitizer sanitizer,
      JournalCursor cursor,
      boolean ownsJournal,
      SessionBook book,
      GuardedCompressor compressor,
      GuardedConsolidator consolidator,
      CaptureCounters counters,
      Function<CaptureWorker.Progress, CaptureWorker> workerFactory) {
    this.options = options;
    this.clock = clock;
    this.intake = new EventIntake(options, clock, sanitizer, this::knownSession);
    this.journal = cursor.journal();
    this.cursor = cursor;
    this.ownsJournal = ownsJournal;
    this.book = book;
    this.compressor = compressor;
    this.consolidator = consolidator;
    this.counters = counters;
    this.queue = new CaptureQueue(options.queueCapacity());
    this.worker = workerFactory.apply(new ProgressSignal());
    book.all().forEach(s -> knownSessions.add(s.id()));
    replay.addAll(
        CaptureReplay.read(
            journal,
            cursor,
            counters,
            a -> {
              recentKeys.put(a.key(), Boolean.TRUE);
              knownSessions.add(a.event().sessionId());
            }));
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

  /** See {@code MemoryService.observeJson}. */
  public ObserveResult observeJson(String json) {
    LifecycleEvent event;
    try {
      event = EventJson.parse(json);
    } catch (IllegalArgumentException e) {
      counters.rejected.increment();
      throw e;
    }
    return observe(event);
  }

  /** See {@code MemoryService.observe}. */
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
    queue.put(new Queued(seq, accepted, bytes.length));
    return ObserveResult.ACCEPTED;
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
      for (int i = 0; i < replay.size() && !abandon; i += options.batchSize()) {
        worker.process(replay.subList(i, Math.min(replay.size(), i + options.batchSize())));
      }
      replay.clear();
      while ((!stopping || !queue.isEmpty()) && !abandon) {
        List<Queued> batch = queue.take(options.batchSize(), 100);
        if (!batch.isEmpty()) {
          worker.process(batch);
        }
        if (!stopping) {
          worker.endIdleSessions();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException | Error e) {
      LOG.error("memhook: the capture worker stopped; accepted events stay in the journal", e);
    }
  }

  /** See {@code MemoryService.flush}. */
  public boolean flush(Duration timeout) {
    long target = counters.started();
    long deadline = System.nanoTime() + timeout.toNanos();
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
    return batchEnded && counters.finished() >= target;
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

  /** See {@code MemoryService.consolidate}. */
  public int consolidate(String sessionId) {
    flush(CLOSE_WAIT);
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

  private void syncQuietly() {
    try {
      journal.sync();
    } catch (RuntimeException e) {
      LOG.warn("memhook: forcing the capture journal to the disk failed", e);
    }
  }

  /**
   * Drains what was accepted (at most {@link #CLOSE_WAIT}), then closes the journal and the session
   * store.
   */
  @Override
  public void close() {
    if (stopping) {
      return;
    }
    stopping = true;
    try {
      thread.join(CLOSE_WAIT.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (thread.isAlive()) {
      LOG.warn("memhook: capture did not drain in {}; the rest stays in the journal", CLOSE_WAIT);
      // not an interrupt: one can close Lucene's file channels mid-write. The worker stops after
      // the batch under way, which ends before the store closes
      abandon = true;
      try {
        thread.join(CLOSE_WAIT.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    // Not an interrupt either: one during the journal's fsync closes its file channel, and the
    // journal is the store's write-ahead log too. shutdown() cancels the waiting syncs and lets a
    // running one end.
    syncer.shutdown();
    try {
      syncer.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
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
}
