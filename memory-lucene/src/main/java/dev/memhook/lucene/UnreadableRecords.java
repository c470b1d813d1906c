package dev.memhook.lucene;

import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryStoreException;
import java.util.Collection;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stored records found unreadable (damaged) since the store opened: each is logged once at
 * WARN, counted, and remembered by id until a write replaces or deletes it, so that reads skip it
 * and {@code get} of its id can say what is wrong.
 *
 * <h2>Design note</h2>
 *
 * One damaged record must cost that record, not every read that reaches it: reads of several
 * records ({@code getAll}, and so every recall) and exports skip it and report it here; a read of
 * that one id ({@code get}) throws {@link #error}. The count only grows: it is what was found, for
 * monitoring, not what is damaged now.
 *
 * <p>Thread-safe.
 */
final class UnreadableRecords {
  private static final Logger LOG = LoggerFactory.getLogger(UnreadableRecords.class);

  private final String location;
  private final Set<String> known = ConcurrentHashMap.newKeySet();
  private final Set<String> logged = ConcurrentHashMap.newKeySet();
  private final Set<String> loggedPassages = ConcurrentHashMap.newKeySet();
  private final AtomicLong found = new AtomicLong();
  private final AtomicLong skipped = new AtomicLong();

  UnreadableRecords(String location) {
    this.location = location;
  }

  /**
   * Reports the record {@code what} (a memory id, or a description of a record without one) as
   * unreadable because of {@code cause}; logs and counts it the first time.
   */
  void report(String what, Throwable cause) {
    known.add(what);
    if (logged.add(what)) {
      found.incrementAndGet();
      LOG.warn(
          "the stored record of {} in the {} is unreadable and is skipped by reads and exports: {};"
              + " put the memory again or forget it, or restore the index from a backup",
          what,
          location,
          cause.toString());
    }
  }

  /**
   * Reports the passage vectors of the memory {@code id} as unreadable (written by a newer Memhook,
   * or damaged): logs it the first time. Not counted: the memory's record is readable, and {@code
   * passageCosines} only leaves the memory out.
   */
  void reportPassages(String id) {
    if (loggedPassages.add(id)) {
      LOG.warn(
          "the passage vectors of {} in the {} are unreadable, so recall ranks it by its whole"
              + " vector: put the memory again, or upgrade Memhook if a newer one wrote them",
          id,
          location);
    }
  }

  /**
   * Reports a segment a read-only open left out because it could not be opened: its {@code
   * documents} (memories and audit records) count as unreadable.
   */
  void skippedSegment(String segment, int documents, Exception cause) {
    skipped.addAndGet(documents);
    found.addAndGet(documents);
    LOG.warn(
        "segment {} of the {} is damaged and was left out: its {} documents are unreadable ({});"
            + " export what is readable and rebuild, or restore the index from a backup",
        segment,
        location,
        documents,
        cause.toString());
  }

  /** The documents in segments left out because they could not be opened. */
  long skippedDocuments() {
    return skipped.get();
  }

  /** Whether the memory {@code id} was found unreadable and not written since. */
  boolean isUnreadable(MemoryId id) {
    return known.contains(id.value());
  }

  /** Forgets what is known of these ids: a write replaced or deleted their records. */
  void written(Collection<MemoryId> ids) {
    for (MemoryId id : ids) {
      known.remove(id.value());
      logged.remove(id.value());
      loggedPassages.remove(id.value());
    }
  }

  /** The number of unreadable records found since the store opened. */
  long count() {
    return found.get();
  }

  /** The error {@code get} of an unreadable memory throws. */
  MemoryStoreException error(MemoryId id) {
    return new MemoryStoreException(
        "the stored record of memory "
            + id
            + " in the "
            + location
            + " is unreadable (damaged);"
            + " other memories are unaffected: put it again or forget it, or restore the index from"
            + " a backup (open the index with readOnly() to export what is readable)");
  }
}
