package dev.memhook.core.internal.store;

import dev.memhook.api.spi.MemoryStore;
import dev.memhook.core.internal.journal.Journal;
import dev.memhook.core.internal.journal.JournalCursor;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store and journal a service writes through: one journal for the store's writes and capture's
 * events (one order, one recovery, one fsync), and the store behind it when the service logs its
 * writes.
 *
 * @param store what the service reads and writes: the {@link LoggedStore} when there is one
 * @param cursor the journal's cursor; empty when the service neither logs nor captures
 * @param logged the logged store; empty when writes go straight to the store
 */
public record ServiceStorage(
    MemoryStore store, Optional<JournalCursor> cursor, Optional<LoggedStore> logged) {

  private static final Logger LOG = LoggerFactory.getLogger(ServiceStorage.class);

  /**
   * @throws IllegalArgumentException if there is a logged store that is not {@code store} or has no
   *     journal cursor: the service would write past its journal
   */
  public ServiceStorage {
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(cursor, "cursor");
    Objects.requireNonNull(logged, "logged");
    if (logged.isPresent() && (cursor.isEmpty() || logged.get() != store)) {
      throw new IllegalArgumentException(
          "a logged store must be the service's store, over the journal's cursor");
    }
  }

  /**
   * Opens the journal in {@code journalDirectory} (in memory when empty) if {@code logWrites} or
   * {@code capture} needs it, and puts {@code store} behind it if {@code logWrites}.
   *
   * <p>A service that logs its writes but does not capture still owns the journal an earlier,
   * capturing service of the same directory wrote, and may hold events that service accepted and
   * had not stored. Nothing of this service reads them, so they are held pending for its whole
   * lifetime: the checkpoint its own writes move stops below them, and the next service that
   * captures replays them (with the store's writes after them, which replay again harmlessly).
   * Until then the journal cannot drop what is written after them; a warning says so.
   *
   * @throws IllegalArgumentException if {@code logWrites} without a directory
   */
  public static ServiceStorage open(
      MemoryStore store, boolean logWrites, boolean capture, Optional<Path> journalDirectory) {
    if (logWrites && journalDirectory.isEmpty()) {
      throw new IllegalArgumentException("a logged store needs a journal directory");
    }
    if (!logWrites && !capture) {
      return new ServiceStorage(store, Optional.empty(), Optional.empty());
    }
    // held: a checkpoint while the store replays must not pass capture's records, which capture
    // has not read yet (nor the store's own, if the replay is cut short)
    JournalCursor cursor =
        JournalCursor.held(journalDirectory.map(Journal::open).orElseGet(Journal::inMemory));
    if (!logWrites) {
      return new ServiceStorage(store, Optional.of(cursor), Optional.empty());
    }
    if (!capture) {
      try {
        holdOthers(cursor);
      } catch (RuntimeException e) {
        cursor.journal().close();
        throw e;
      }
    }
    LoggedStore logged = LoggedStore.open(store, cursor);
    return new ServiceStorage(logged, Optional.of(cursor), Optional.of(logged));
  }

  /**
   * Marks every record beyond the checkpoint that is not one of the store's writes pending, and
   * warns if there is one: until a service that captures opens, the journal keeps everything
   * written after it.
   */
  private static void holdOthers(JournalCursor cursor) {
    long[] held = {0};
    cursor
        .journal()
        .replay(
            entry -> {
              if (!StoreRecords.isStoreKind(entry.kind())) {
                cursor.replayed(entry.seq());
                held[0]++;
              }
            });
    if (held[0] > 0) {
      LOG.warn(
          "memhook: the journal holds {} captured records an earlier service did not store; they"
              + " are kept for the next service with capture on, and until one opens the journal"
              + " keeps every write made after them",
          held[0]);
    }
  }

  /** Replays the logged store's writes; call after {@code attach}. Nothing to do if not logged. */
  public void replay() {
    logged.ifPresent(LoggedStore::replay);
  }

  /** Every consumer of the journal has replayed: its checkpoint may move from now on. */
  public void replayed() {
    cursor.ifPresent(JournalCursor::release);
  }

  /** Whether capture closes the journal: only when no logged store owns it. */
  public boolean captureOwnsJournal() {
    return logged.isEmpty();
  }

  /**
   * After a failed build: closes the journal (the store is closed by whoever opened it).
   * Idempotent.
   */
  public void abandon() {
    if (logged.isPresent()) {
      logged.get().abandon();
    } else {
      cursor.ifPresent(c -> c.journal().close());
    }
  }
}
