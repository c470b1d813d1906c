package dev.memhook.core.internal.capture;

import dev.memhook.api.MemoryId;
import dev.memhook.api.capture.Session;
import dev.memhook.api.capture.SessionStatus;
import dev.memhook.api.spi.SessionStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The captured sessions: their records, the ids of their stored observations, and the last turn of
 * each (the context of the next one), kept in a {@link SessionStore}.
 *
 * <p>Design note. Only the capture worker changes the book (it processes events one at a time, in
 * order), so the mutable parts need no locks; readers on other threads see immutable {@link
 * Session} records through a concurrent map. A changed record is written to the store when {@link
 * #persist()} runs after a batch; an observation id is appended when the observation is stored.
 * Both may lag the memory store after a crash, so every change here is idempotent and a replay of
 * the journal completes what an event left undone: {@link #touch} moves times forward only and does
 * not reopen a session with an event it had seen, {@link #observationStored} lists an id once and
 * counts what the session lists, and the worker lets the journal's checkpoint pass an event only
 * once its session is {@linkplain #settled settled}. A store failure is reported ({@link
 * SessionStoreFailures}) and never thrown: what could not be written stays pending and is written
 * by the next {@link #persist()}.
 *
 * <p>With a {@linkplain SessionStore#shared() shared} store other instances write records too. A
 * record this book has written (not pending) is then the store's to update: {@link #refresh} reads
 * the sessions of a batch before it is processed and adopts what another instance wrote (dropping
 * the cached ids and last turn, which the writer derives again from the store); {@link #get} and
 * {@link #all} answer from the store, with this book's pending records over it.
 *
 * <p>Worker-confined, except {@link #get}, {@link #held}, {@link #all} and {@link #knownAnywhere},
 * which are thread-safe.
 */
final class SessionBook {

  private static final Logger LOG = LoggerFactory.getLogger(SessionBook.class);

  private final SessionStore store;
  private final boolean shared;
  private final SessionStoreFailures failures;
  private final Map<String, Session> sessions = new ConcurrentHashMap<>();
  private final Map<String, Instant> lastCapturedAt = new HashMap<>();
  private final Map<String, Listed> observations = new HashMap<>();
  private final Map<String, List<MemoryId>> unappended = new LinkedHashMap<>();
  private final Map<String, String> lastTurn = new HashMap<>();

  /** Sessions whose record changed since it was last written; read by other threads. */
  private final Set<String> dirty = ConcurrentHashMap.newKeySet();

  /** Sessions whose last record the store refused: kept here only, never replaced by a read. */
  private final Set<String> refused = new HashSet<>();

  private SessionBook(SessionStore store, SessionStoreFailures failures) {
    this.store = Objects.requireNonNull(store, "store");
    this.shared = store.shared();
    this.failures = Objects.requireNonNull(failures, "failures");
  }

  /**
   * The book over {@code store}, with every record it holds.
   *
   * @throws RuntimeException what the store throws when it cannot list its records
   */
  static SessionBook open(SessionStore store, SessionStoreFailures failures) {
    SessionBook book = new SessionBook(store, failures);
    for (String record : store.loadAll()) {
      SessionRecordJson.Stored stored = readable(record);
      if (stored != null) {
        book.sessions.put(stored.session().id(), stored.session());
        book.lastCapturedAt.put(stored.session().id(), stored.lastCapturedAt());
      }
    }
    return book;
  }

  /** The decoded record, or null, logged, when it is damaged: its events rebuild it. */
  private static SessionRecordJson.Stored readable(String record) {
    try {
      return SessionRecordJson.read(record);
    } catch (IllegalArgumentException e) {
      LOG.warn("memhook: skipping an unreadable session record: {}", e.getMessage());
      return null;
    }
  }

  /**
   * Whether this book holds the session or, with a shared store, the store has its record.
   * Thread-safe. When the store cannot say, true: an event is not refused for a store failure.
   */
  boolean knownAnywhere(String sessionId) {
    if (sessions.containsKey(sessionId) || !shared) {
      return sessions.containsKey(sessionId);
    }
    try {
      return store.load(sessionId).isPresent();
    } catch (RuntimeException e) {
      failures.report("looking up session " + sessionId + " failed; its event is accepted", e);
      return true;
    }
  }

  /** The session, if any; with a shared store, as last written by any instance. Thread-safe. */
  Optional<Session> get(String sessionId) {
    Session local = sessions.get(sessionId);
    if (!shared || dirty.contains(sessionId)) {
      return Optional.ofNullable(local);
    }
    try {
      Optional<SessionRecordJson.Stored> stored = store.load(sessionId).map(SessionBook::readable);
      return stored.isPresent() ? Optional.of(stored.get().session()) : Optional.ofNullable(local);
    } catch (RuntimeException e) {
      failures.report("reading session " + sessionId + " failed; answered from this instance", e);
      return Optional.ofNullable(local);
    }
  }

  /** The session as this book holds it, if any: its latest record, never read from the store. */
  Optional<Session> held(String sessionId) {
    return Optional.ofNullable(sessions.get(sessionId));
  }

  /**
   * Every session, most recent activity first; with a shared store, every instance's, each as last
   * written. Thread-safe.
   */
  List<Session> all() {
    Map<String, Session> view = new HashMap<>(sessions);
    if (shared) {
      try {
        for (String record : store.loadAll()) {
          SessionRecordJson.Stored stored = readable(record);
          if (stored != null && !dirty.contains(stored.session().id())) {
            view.put(stored.session().id(), stored.session());
          }
        }
      } catch (RuntimeException e) {
        failures.report("listing the sessions failed; answered from this instance", e);
      }
    }
    List<Session> out = new ArrayList<>(view.values());
    out.sort(Comparator.comparing(Session::lastEventAt).reversed().thenComparing(Session::id));
    return out;
  }

  /**
   * With a shared store, reads the records of {@code sessionIds} this book has no pending change
   * of, and adopts each that differs from what it holds.
   *
   * @return the sessions whose record could not be read (reported)
   */
  Set<String> refresh(Collection<String> sessionIds) {
    Set<String> unread = new HashSet<>();
    if (!shared) {
      return unread;
    }
    for (String id : new HashSet<>(sessionIds)) {
      if (dirty.contains(id) || refused.contains(id)) {
        continue;
      }
      try {
        store.load(id).map(SessionBook::readable).ifPresent(this::adopt);
      } catch (RuntimeException e) {
        unread.add(id);
        failures.report(
            "reading session " + id + " failed; it continues as this instance holds it", e);
      }
    }
    return unread;
  }

  private void adopt(SessionRecordJson.Stored stored) {
    Session s = stored.session();
    if (s.equals(sessions.get(s.id()))
        && stored.lastCapturedAt().equals(lastCapturedAt.get(s.id()))) {
      return;
    }
    sessions.put(s.id(), s);
    lastCapturedAt.put(s.id(), stored.lastCapturedAt());
    // another instance captured it since: its ids and last turn are read again when needed
    observations.remove(s.id());
    lastTurn.remove(s.id());
  }

  /**
   * Records that an event of session {@code e} was processed: creates the session if unknown, moves
   * its last event time forward, keeps its first prompt, and reactivates it if it had been
   * abandoned or ended on close and {@code e} was captured after its last event (such a session
   * that speaks again is not over; a replayed event it had seen does not reopen it). Idempotent.
   */
  Session touch(AcceptedEvent e, String prompt) {
    String id = e.event().sessionId();
    Session s = sessions.get(id);
    Instant last = lastCapturedAt.get(id);
    boolean news = last == null || e.capturedAt().isAfter(last);
    s = s == null ? SessionChanges.started(e, prompt) : SessionChanges.touched(s, e, prompt, news);
    put(s);
    if (news) {
      lastCapturedAt.put(id, e.capturedAt());
    }
    return s;
  }

  /**
   * Lists the stored observation {@code id} in its session unless the session lists it already,
   * appending it to the store at once (on a failure, with the next {@link #persist()}), and brings
   * the record's count up to the number of observations the session lists. Idempotent: a replay of
   * an event whose observation was stored, listed or counted before a crash completes what is
   * missing and counts nothing twice.
   *
   * @param fresh whether the observation was stored just now, by this call's event: it then counts
   *     even when the store's list of the session cannot be read
   */
  void observationStored(String sessionId, MemoryId id, boolean fresh) {
    Session s = sessions.get(sessionId);
    if (s == null) {
      return;
    }
    Listed listed = listed(sessionId);
    boolean added = listed.add(id);
    if (added) {
      unappended.computeIfAbsent(sessionId, k -> new ArrayList<>()).add(id);
      append(sessionId);
    }
    // unread, the list cannot say the count: only an observation stored just now surely adds one
    int count =
        listed.complete
            ? Math.max(s.observationCount(), listed.ids.size())
            : s.observationCount() + (fresh && added ? 1 : 0);
    if (count != s.observationCount()) {
      put(SessionChanges.with(s, s.status(), s.endedAt(), count, s.summary()));
    }
  }

  /**
   * Whether everything this book knows of the session is in the store: its record written (or
   * refused for good) and its observation ids appended.
   */
  boolean settled(String sessionId) {
    return !dirty.contains(sessionId) && !unappended.containsKey(sessionId);
  }

  /** Appends the session's unappended ids; a failure keeps them for the next try. */
  private void append(String sessionId) {
    List<MemoryId> ids = unappended.get(sessionId);
    try {
      store.appendObservations(sessionId, ids);
      unappended.remove(sessionId);
    } catch (IllegalArgumentException e) {
      unappended.remove(sessionId);
      failures.report("the session store refused the ids of session " + sessionId, e);
    } catch (RuntimeException e) {
      // the observation is stored; only the session's list of it lags, until the next batch
      failures.report(
          "recording an observation of session " + sessionId + " failed; retried next batch", e);
    }
  }

  /**
   * The ids the session store lists for the session, read from the store on any thread: those of
   * the batches written so far, without the ones this book has not appended yet.
   */
  List<MemoryId> listedObservations(String sessionId) {
    return store.observations(sessionId);
  }

  /** The ids of the session's stored observations, oldest first (a worker-confined view). */
  List<MemoryId> observations(String sessionId) {
    return Collections.unmodifiableList(listed(sessionId).ids);
  }

  /**
   * The session's listed observations: the store's list (read once, then kept) and the ids not
   * appended yet; when the store cannot be read, those ids only, not kept.
   */
  private Listed listed(String sessionId) {
    Listed cached = observations.get(sessionId);
    if (cached != null) {
      return cached;
    }
    Listed listed;
    try {
      listed = new Listed(true);
      store.observations(sessionId).forEach(listed::add);
    } catch (RuntimeException e) {
      listed = new Listed(false);
      failures.report("reading the observation ids of session " + sessionId + " failed", e);
    }
    unappended.getOrDefault(sessionId, List.of()).forEach(listed::add);
    if (listed.complete) {
      observations.put(sessionId, listed);
    }
    return listed;
  }

  /** A session's observation ids in order, each once; complete when the store's list was read. */
  private static final class Listed {
    final List<MemoryId> ids = new ArrayList<>();
    final Set<MemoryId> set = new HashSet<>();
    final boolean complete;

    Listed(boolean complete) {
      this.complete = complete;
    }

    /** Adds {@code id} after the others unless listed; returns whether it was added. */
    boolean add(MemoryId id) {
      if (!set.add(id)) {
        return false;
      }
      ids.add(id);
      return true;
    }
  }

  /** The id of the session's latest stored observation, if any. */
  Optional<MemoryId> lastObservation(String sessionId) {
    List<MemoryId> ids = observations(sessionId);
    return ids.isEmpty() ? Optional.empty() : Optional.of(ids.get(ids.size() - 1));
  }

  /**
   * The session's last turn as context for its next one: empty text when it has none. Empty (no
   * answer) when this book has not seen its last turn and the store is shared: another instance may
   * have, and the caller derives it from the latest stored observation.
   */
  Optional<String> previousTurn(String sessionId) {
    String turn = lastTurn.get(sessionId);
    if (turn != null) {
      return Optional.of(turn);
    }
    return shared && sessions.containsKey(sessionId) ? Optional.empty() : Optional.of("");
  }

  void setPreviousTurn(String sessionId, String turn) {
    lastTurn.put(sessionId, turn);
  }

  /**
   * Whether a {@link CloseEnd} written with {@code through} ends the session now: this book holds
   * it active, and has captured none of its events after {@code through} (one captured after
   * belongs to a segment that close did not see: another instance's, or a later lifetime's).
   */
  boolean endsOnClose(String sessionId, Instant through) {
    Session s = sessions.get(sessionId);
    if (s == null || s.status() != SessionStatus.ACTIVE) {
      return false;
    }
    Instant last = lastCapturedAt.get(sessionId);
    return last == null || !last.isAfter(through);
  }

  /**
   * The session as it will be once ended with {@code status} at {@code at}; not recorded yet, so
   * readers keep seeing it active until {@link #end} records it with its summary.
   */
  Session ending(String sessionId, SessionStatus status, Instant at) {
    Session s = sessions.get(sessionId);
    return SessionChanges.with(s, status, at, s.observationCount(), s.summary());
  }

  /** Records the session ended as {@code ended} says, with {@code summary} (null keeps the old). */
  void end(Session ended, String summary) {
    Session s = sessions.get(ended.id());
    put(
        SessionChanges.with(
            s,
            ended.status(),
            ended.endedAt(),
            s.observationCount(),
            summary != null ? summary : s.summary()));
  }

  /** Clears the session's first prompt, summary and last turn, which may quote a forgotten text. */
  void forgetQuotes(String sessionId) {
    lastTurn.remove(sessionId);
    Session s = sessions.get(sessionId);
    if (s == null) {
      return;
    }
    put(SessionChanges.withoutQuotes(s));
  }

  /**
   * The active sessions with no event captured since {@code cutoff}. With a shared store each is
   * read again first, so one that another instance captured since, or ended, is not idle here; one
   * whose record cannot be read is not idle until it can be.
   */
  List<String> idleSince(Instant cutoff) {
    List<String> idle = idleHere(cutoff);
    if (shared && !idle.isEmpty()) {
      Set<String> unread = refresh(idle);
      List<String> still = idleHere(cutoff);
      still.retainAll(idle);
      still.removeAll(unread);
      return still;
    }
    return idle;
  }

  private List<String> idleHere(Instant cutoff) {
    List<String> idle = new ArrayList<>();
    for (Session s : sessions.values()) {
      Instant last = lastCapturedAt.getOrDefault(s.id(), s.lastEventAt());
      if (s.status() == SessionStatus.ACTIVE && last.isBefore(cutoff)) {
        idle.add(s.id());
      }
    }
    return idle;
  }

  private void put(Session s) {
    sessions.put(s.id(), s);
    dirty.add(s.id());
  }

  /**
   * Writes what is pending: the observation ids not yet appended, then the records changed since
   * they were last written, each in one store call. A call that fails is reported and tried again
   * by the next {@code persist}; a record the store refuses is reported and kept in memory only.
   * Never throws.
   */
  void persist() {
    for (String id : List.copyOf(unappended.keySet())) {
      append(id);
    }
    for (String id : List.copyOf(dirty)) {
      Session s = sessions.get(id);
      try {
        store.save(id, s.scope(), SessionRecordJson.write(s, lastCapturedAt.get(id)));
        dirty.remove(id);
        refused.remove(id);
      } catch (IllegalArgumentException e) {
        dirty.remove(id);
        refused.add(id);
        failures.report(
            "the session store refused the record of session " + id + "; kept in memory only", e);
      } catch (RuntimeException e) {
        failures.report(
            "writing the record of session " + id + " failed; retried with the next batch", e);
      }
    }
  }

  /** Closes the store, after the last {@link #persist()}; a failure is logged. */
  void close() {
    try {
      store.close();
    } catch (RuntimeException e) {
      LOG.warn("memhook: closing the session store failed", e);
    }
  }
}
