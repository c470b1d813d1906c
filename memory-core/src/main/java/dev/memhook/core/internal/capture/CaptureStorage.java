package dev.memhook.core.internal.capture;

import dev.memhook.api.spi.SessionStore;
import dev.memhook.core.internal.journal.JournalCursor;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Where capture keeps its own records, and which of them it closes: the journal it appends accepted
 * events to, and the store of the sessions it tracks.
 *
 * @param cursor the journal's cursor, shared with the store when the service logs its writes to the
 *     same journal
 * @param journalOwner who closes the journal
 * @param journalDirectory the journal's directory, where the session records go unless {@code
 *     sessionStore} is given; empty: the journal is in memory, and so are the sessions
 * @param sessionStore the host's store for session records, if it gave one; the pipeline closes it
 *     once started, but not when starting fails (it is the host's then)
 */
public record CaptureStorage(
    JournalCursor cursor,
    JournalOwner journalOwner,
    Optional<Path> journalDirectory,
    Optional<SessionStore> sessionStore) {

  public CaptureStorage {
    Objects.requireNonNull(cursor, "cursor");
    Objects.requireNonNull(journalOwner, "journalOwner");
    Objects.requireNonNull(journalDirectory, "journalDirectory");
    Objects.requireNonNull(sessionStore, "sessionStore");
  }

  /** Who closes the capture journal. */
  public enum JournalOwner {
    /** Capture: it closes the journal when it closes, and when starting it fails. */
    CAPTURE,
    /**
     * The service's logged store, which writes to the same journal and outlives capture: capture
     * only forces the journal to the disk when it closes.
     */
    LOGGED_STORE
  }

  /** Whether capture closes the journal. */
  boolean ownsJournal() {
    return journalOwner == JournalOwner.CAPTURE;
  }

  /**
   * The store of the session records: the host's, else a {@code sessions} directory beside the
   * journal, else one in memory.
   */
  SessionStore openSessions() {
    return sessionStore.orElseGet(
        () ->
            journalDirectory
                .<SessionStore>map(d -> FileSessionStore.open(d.resolve("sessions")))
                .orElseGet(InMemorySessionStore::new));
  }
}
