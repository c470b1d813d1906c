package dev.memhook.core.internal.store;

import dev.memhook.api.ExportResult;
import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.SessionWindow;
import dev.memhook.api.spi.StoreCapability;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.api.spi.TextHits;
import dev.memhook.api.spi.TypeListing;
import dev.memhook.core.internal.journal.Journal;
import dev.memhook.core.internal.journal.JournalCursor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A store whose writes are acknowledged through the journal: the write-ahead log in front of a
 * store that commits in the background (the embedded Lucene store, opened with group commit).
 *
 * <h2>Design note</h2>
 *
 * <p><b>A write.</b> Under one lock, the write is appended to the journal (the same journal capture
 * appends its events to: one log, one recovery, one place where fsyncs are shared) and applied to
 * the store, which makes it visible without committing; so the log's order is the order in which
 * writes reach the store. Outside the lock the journal is forced ({@link Journal#sync()}: writers
 * waiting at the same time share one fsync) and the write returns. From then on it survives a
 * SIGKILL and a power loss: it is in the log, and the log is replayed on open. A put or a new
 * version is logged with its passage vectors when the store keeps them ({@link
 * StoreCapability#PASSAGE_VECTORS}), and the store is given them with the write either way; the
 * two-argument writes are these with no passages.
 *
 * <p><b>The checkpoint.</b> A daemon thread ({@code memhook-store-checkpoint}) commits the store
 * every {@link #CHECKPOINT_INTERVAL}, sooner when {@link #CHECKPOINT_BYTES} of writes are waiting;
 * after a commit, the writes applied before it began are marked applied in the journal, whose
 * checkpoint moves past them once capture has applied its own records too, and whose segments are
 * then deleted. A forget commits at once (it must erase), so it checkpoints at once and drops the
 * forgotten text from the journal's files ({@link Journal#eraseApplied()}; a segment that also
 * holds a capture event not yet processed goes once that event is).
 *
 * <p><b>Replay.</b> The store's commit may be ahead of the journal's checkpoint (the store also
 * commits on its own: a forget, its group-commit interval, close), so replay applies the records
 * beyond the checkpoint to a store that may hold some of them already, and every record is
 * idempotent on such a store: a put is an upsert, except that a latest memory the store holds as
 * superseded is left alone (a later new version, already committed, superseded it), and so is a
 * memory the store holds an audit record for (a later forget, already committed, erased it); a new
 * version whose id the store holds is skipped; a forget of a memory that is gone forgets nothing.
 * Records are replayed in log order; a batch split over several records is applied only whole.
 *
 * <p>Thread-safe. Reads and searches, {@link #passageCosines} among them, go straight to the store:
 * every write is applied to it before it returns, so it holds every acknowledged write. Owns the
 * store and the journal from {@link #open} to {@link #close()}.
 */
public final class LoggedStore implements MemoryStore {

  private static final Logger LOG = LoggerFactory.getLogger(LoggedStore.class);

  /** The longest a write waits in the log before the store commits it. */
  static final Duration CHECKPOINT_INTERVAL = Duration.ofSeconds(1);

  /** Bytes of writes after which the store commits without waiting for the interval. */
  static final long CHECKPOINT_BYTES = 64L << 20;

  /** The largest record a put batch is split into; well below the journal's frame limit. */
  static final int PART_BYTES = 16 << 20;

  private final MemoryStore store;
  private final JournalCursor cursor;
  private final Journal journal;
  private final ReentrantLock writeLock = new ReentrantLock();
  private final StoreCheckpoints checkpoints;

  /**
   * Whether the store declares {@link StoreCapability#PASSAGE_VECTORS}: only then does the journal
   * hold the passages a write is given, since a store that keeps none would drop them on replay.
   */
  private final boolean keepsPassages;

  private volatile boolean closed;

  private LoggedStore(MemoryStore store, JournalCursor cursor, Duration interval) {
    this.store = store;
    this.cursor = cursor;
    this.journal = cursor.journal();
    this.checkpoints = new StoreCheckpoints(store, cursor, interval, CHECKPOINT_BYTES);
    this.keepsPassages = store.capabilities().contains(StoreCapability.PASSAGE_VECTORS);
  }

  /**
   * Puts {@code store} behind the journal of {@code cursor}; the checkpoints start at once. Call
   * {@link #replay()} after {@link #attach} and before the first write.
   */
  public static LoggedStore open(MemoryStore store, JournalCursor cursor) {
    return open(store, cursor, CHECKPOINT_INTERVAL);
  }

  /** As {@link #open(MemoryStore, JournalCursor)}, checkpointing every {@code interval}. */
  static LoggedStore open(MemoryStore store, JournalCursor cursor, Duration interval) {
    return new LoggedStore(
        Objects.requireNonNull(store, "store"), Objects.requireNonNull(cursor), interval);
  }

  /**
   * Applies the store's records beyond the journal's checkpoint (see the design note) and commits
   * the store. A record that cannot be read or applied is logged at ERROR and skipped.
   *
   * @return how many records were applied
   * @throws dev.memhook.api.MemoryStoreException if the journal cannot be read or the store fails
   */
  public long replay() {
    long applied = StoreReplay.apply(journal, store);
    if (applied > 0) {
      store.flush();
      LOG.info("memhook: replayed {} store writes from the journal", applied);
    }
    return applied;
  }

  /**
   * The store's, {@link StoreCapability#PASSAGE_VECTORS} among them exactly when the store declares
   * it: the journal carries the passages the store keeps and none that it would drop.
   */
  @Override
  public Set<StoreCapability> capabilities() {
    return store.capabilities();
  }

  @Override
  public void attach(EmbeddingSpace space) {
    store.attach(space);
  }

  @Override
  public void put(Memory memory, Embedding embedding) {
    put(memory, embedding, List.of());
  }

  @Override
  public void put(Memory memory, Embedding embedding, List<Embedding> passages) {
    Objects.requireNonNull(memory, "memory");
    Objects.requireNonNull(embedding, "embedding");
    Objects.requireNonNull(passages, "passages");
    putAll(
        Map.of(memory, embedding), passages.isEmpty() ? Map.of() : Map.of(memory.id(), passages));
  }

  @Override
  public void putAll(Map<Memory, Embedding> batch) {
    putAll(batch, Map.of());
  }

  @Override
  public void putAll(Map<Memory, Embedding> batch, Map<MemoryId, List<Embedding>> passages) {
    MemoryStore.checkPassages(batch, passages);
    if (batch.isEmpty()) {
      return;
    }
    Map<MemoryId, List<Embedding>> journaled = keepsPassages ? passages : Map.of();
    Set<MemoryId> ids = new HashSet<>();
    List<List<byte[]>> parts = new ArrayList<>();
    List<byte[]> part = new ArrayList<>();
    long partBytes = 0;
    for (Map.Entry<Memory, Embedding> e : batch.entrySet()) {
      Objects.requireNonNull(e.getKey(), "memory");
      Objects.requireNonNull(e.getValue(), "embedding");
      MemoryId id = e.getKey().id();
      if (!ids.add(id)) {
        throw new IllegalArgumentException("batch holds two memories with id " + id);
      }
      byte[] entry =
          StoreRecords.entry(e.getKey(), e.getValue(), journaled.getOrDefault(id, List.of()));
      if (!part.isEmpty() && partBytes + entry.length > PART_BYTES) {
        parts.add(part);
        part = new ArrayList<>();
        partBytes = 0;
      }
      part.add(entry);
      partBytes += entry.length;
    }
    parts.add(part);
    logged(
        StoreRecords.KIND_PUT,
        batchId -> {
          List<byte[]> payloads = new ArrayList<>(parts.size());
          for (int i = 0; i < parts.size(); i++) {
            payloads.add(StoreRecords.put(batchId, i, parts.size(), parts.get(i)));
          }
          return payloads;
        },
        () -> {
          store.putAll(batch, passages);
          return null;
        });
  }

  @Override
  public void putNewVersion(Memory next, Embedding embedding) {
    putNewVersion(next, embedding, List.of());
  }

  @Override
  public void putNewVersion(Memory next, Embedding embedding, List<Embedding> passages) {
    Objects.requireNonNull(next, "next");
    MemoryStore.checkPassages(embedding, passages);
    byte[] payload = StoreRecords.newVersion(next, embedding, keepsPassages ? passages : List.of());
    logged(
        StoreRecords.KIND_NEW_VERSION,
        batchId -> List.of(payload),
        () -> {
          store.putNewVersion(next, embedding, passages);
          return null;
        });
  }

  @Override
  public boolean delete(MemoryId id, ForgetRecord audit) {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(audit, "audit");
    if (!audit.id().equals(id)) {
      throw new IllegalArgumentException("the audit record is for " + audit.id() + ", not " + id);
    }
    return deleteAll(List.of(audit)) == 1;
  }

  /**
   * As the store's, and then, because the store committed to erase: checkpoints and drops applied
   * records, the forgotten memories' puts among them, from the journal's files.
   */
  @Override
  public int deleteAll(List<ForgetRecord> audits) {
    Objects.requireNonNull(audits, "audits");
    if (audits.isEmpty()) {
      return 0;
    }
    audits.forEach(a -> Objects.requireNonNull(a, "audit"));
    byte[] payload = StoreRecords.forget(audits);
    int forgotten =
        logged(
            StoreRecords.KIND_FORGET, batchId -> List.of(payload), () -> store.deleteAll(audits));
    checkpoints.now();
    journal.eraseApplied();
    return forgotten;
  }

  @Override
  public Optional<Memory> get(MemoryId id) {
    return store.get(id);
  }

  @Override
  public Map<MemoryId, Memory> getAll(Collection<MemoryId> ids) {
    return store.getAll(ids);
  }

  @Override
  public List<ForgetRecord> forgotten(Scope scope) {
    return store.forgotten(scope);
  }

  @Override
  public TextHits searchText(Scope scope, String query, int k) {
    return store.searchText(scope, query, k);
  }

  @Override
  public List<StoreHit> searchVector(Scope scope, Embedding query, int k) {
    return store.searchVector(scope, query, k);
  }

  /** The store's own: a write is applied to the store before it returns, so it has them all. */
  @Override
  public Map<MemoryId, Double> passageCosines(
      Scope scope, Collection<MemoryId> ids, Embedding query) {
    return store.passageCosines(scope, ids, query);
  }

  @Override
  public Map<MemoryId, SessionWindow> sessionWindows(
      Scope scope, Collection<MemoryId> ids, int span) {
    return store.sessionWindows(scope, ids, span);
  }

  @Override
  public List<StoreHit> searchRelated(Scope scope, Set<String> concepts, Set<String> files, int k) {
    return store.searchRelated(scope, concepts, files, k);
  }

  @Override
  public long count(Scope scope) {
    return store.count(scope);
  }

  @Override
  public TypeListing listByType(Scope scope, List<MemoryType> types, int limit) {
    return store.listByType(scope, types, limit);
  }

  @Override
  public ExportResult export(Consumer<? super Memory> sink) {
    return store.export(sink);
  }

  @Override
  public ExportResult exportWithVectors(
      BiConsumer<? super Memory, ? super Optional<Embedding>> sink) {
    return store.exportWithVectors(sink);
  }

  @Override
  public long exportForgotten(Consumer<? super ForgetRecord> sink) {
    return store.exportForgotten(sink);
  }

  @Override
  public long unreadableRecords() {
    return store.unreadableRecords();
  }

  /** The store's own: a purge changes no memory, so nothing is logged. */
  @Override
  public void purge() {
    checkOpen();
    store.purge();
  }

  /** The store's own: merging changes no memory, so nothing is logged. */
  @Override
  public void compact() {
    checkOpen();
    store.compact();
  }

  /** Commits the store and checkpoints the journal now. */
  @Override
  public void flush() {
    checkOpen();
    checkpoints.now();
  }

  /**
   * Stops the checkpoints, commits and checkpoints what is left, closes the journal and then the
   * store. Idempotent.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    RuntimeException failure = null;
    try {
      checkpoints.stop();
      checkpoints.now();
    } catch (RuntimeException e) {
      // the writes stay in the journal and are replayed on the next open
      LOG.warn("memhook: the last checkpoint before close failed; the journal keeps the writes", e);
    }
    try {
      journal.close();
    } catch (RuntimeException e) {
      failure = e;
    }
    try {
      store.close();
    } catch (RuntimeException e) {
      if (failure != null) {
        e.addSuppressed(failure);
      }
      failure = e;
    }
    if (failure != null) {
      throw failure;
    }
  }

  /**
   * Closes the journal only, for a service whose build failed after this was opened: the store is
   * closed by whoever opened it.
   */
  public void abandon() {
    closed = true;
    checkpoints.stop();
    journal.close();
  }

  /** The journal, for tests. */
  Journal journalForTests() {
    return journal;
  }

  @Override
  public String toString() {
    return "LoggedStore[" + store + "]";
  }

  /**
   * Builds the payloads of one write from a number above every earlier write's: the journal's last
   * sequence number when the write takes the lock (a batch's parts carry it, to be told apart).
   */
  @FunctionalInterface
  private interface Payloads {
    List<byte[]> of(long firstSeq);
  }

  /**
   * Appends the write's records and applies it under the write lock, then forces the journal. A
   * write the store refuses is finished at once (its records stay in the journal until the
   * checkpoint passes them, and replay refuses them again, logged).
   */
  private <T> T logged(byte kind, Payloads payloads, Supplier<T> apply) {
    List<Long> seqs = new ArrayList<>(1);
    long bytes = 0;
    T result;
    writeLock.lock();
    try {
      checkOpen();
      List<byte[]> records = payloads.of(journal.lastSequence() + 1);
      try {
        for (byte[] record : records) {
          seqs.add(cursor.append(kind, record));
          bytes += record.length;
        }
        result = apply.get();
      } catch (RuntimeException | Error e) {
        seqs.forEach(cursor::finished);
        throw e;
      }
      checkpoints.applied(seqs, bytes);
    } finally {
      writeLock.unlock();
    }
    journal.sync();
    return result;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("the memory store is closed");
    }
  }
}
