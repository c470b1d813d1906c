package dev.memhook.core.store;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.IncompatibleStoreException;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.core.internal.index.DerivedText;
import dev.memhook.core.internal.index.SimpleTokens;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A {@link MemoryStore} held in memory: exact BM25 over the text fields and an exact cosine scan
 * over the vectors. Nothing survives the process; use it for tests and small, short-lived
 * applications. Searches cost time linear in the number of memories of the scope.
 *
 * <h2>Design note</h2>
 * Memories live in one map guarded by a read-write lock; each entry keeps its term frequencies, so
 * a text search computes document frequencies and BM25 (k1 = {@value #K1}, b = {@value #B}) over
 * the scope's latest memories at query time. Writes are visible to the next read as soon as
 * {@link #put} returns.
 *
 * <p>Thread-safe; do not synchronize on it. Null arguments are rejected with
 * {@link NullPointerException}; after {@link #close()} every method but {@code close} throws
 * {@link IllegalStateException}.
 */
public final class InMemoryMemoryStore implements MemoryStore {

  static final double K1 = 1.2;
  static final double B = 0.75;

  private final ReadWriteLock lock = new ReentrantReadWriteLock();
  private final Map<MemoryId, Entry> entries = new HashMap<>();
  private final List<ForgetRecord> audit = new ArrayList<>();
  private EmbeddingSpace space;
  private boolean closed;

  private record Entry(Memory memory, Embedding embedding, Map<String, Integer> termFrequencies, int length) {}

  /** A new, empty store. */
  public InMemoryMemoryStore() {}

  @Override
  public void attach(EmbeddingSpace newSpace) {
    Objects.requireNonNull(newSpace, "space");
    lock.writeLock().lock();
    try {
      checkOpen();
      if (space != null && !space.equals(newSpace) && !entries.isEmpty()) {
        throw new IncompatibleStoreException("store holds vectors of " + space + " but the embedder produces "
            + newSpace + "; use the same model or start a new store");
      }
      space = newSpace;
    } finally {
      lock.writeLock().unlock();
    }
  }

  @Override
  public void put(Memory memory, Embedding embedding) {
    Objects.requireNonNull(memory, "memory");
    Objects.requireNonNull(embedding, "embedding");
    Entry entry = entryOf(memory, embedding);
    lock.writeLock().lock();
    try {
      checkOpen();
      checkDimension(embedding);
      entries.put(memory.id(), entry);
    } finally {
      lock.writeLock().unlock();
    }
  }

  @Override
  public void putAll(Map<Memory, Embedding> batch) {
    Objects.requireNonNull(batch, "batch");
    List<Entry> prepared = new ArrayList<>(batch.size());
    batch.forEach((m, e) -> prepared.add(entryOf(Objects.requireNonNull(m, "memory"), Objects.requireNonNull(e, "embedding"))));
    lock.writeLock().lock();
    try {
      checkOpen();
      for (Entry e : prepared) {
        checkDimension(e.embedding());
      }
      for (Entry e : prepared) {
        entries.put(e.memory().id(), e);
      }
    } finally {
      lock.writeLock().unlock();
    }
  }

  private static Entry entryOf(Memory memory, Embedding embedding) {
    Map<String, Integer> tf = new HashMap<>();
    List<String> tokens = SimpleTokens.tokenize(searchableText(memory));
    for (String token : tokens) {
      tf.merge(token, 1, Integer::sum);
    }
    return new Entry(memory, embedding, tf, tokens.size());
  }

  private static String searchableText(Memory m) {
    StringBuilder sb = new StringBuilder();
    if (DerivedText.addsTo(m.title(), m.content())) {
      sb.append(m.title()).append('\n');
    }
    if (DerivedText.addsTo(m.summary(), m.content())) {
      sb.append(m.summary()).append('\n');
    }
    sb.append(m.content());
    if (!m.context().isEmpty()) {
      sb.append('\n').append(m.context());
    }
    m.concepts().forEach(c -> sb.append('\n').append(c));
    m.files().forEach(f -> sb.append('\n').append(f));
    m.origin().optionalName().ifPresent(n -> sb.append('\n').append(n));
    m.attributes().values().forEach(v -> sb.append('\n').append(v));
    return sb.toString();
  }

  private void checkDimension(Embedding embedding) {
    if (space != null && embedding.dimension() != space.dimension()) {
      throw new IllegalArgumentException("embedding has " + embedding.dimension()
          + " dimensions but the store is attached to " + space);
    }
  }

  @Override
  public Optional<Memory> get(MemoryId id) {
    Objects.requireNonNull(id, "id");
    lock.readLock().lock();
    try {
      checkOpen();
      Entry e = entries.get(id);
      return e == null ? Optional.empty() : Optional.of(e.memory());
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public Map<MemoryId, Memory> getAll(Collection<MemoryId> ids) {
    Objects.requireNonNull(ids, "ids");
    lock.readLock().lock();
    try {
      checkOpen();
      Map<MemoryId, Memory> out = new LinkedHashMap<>();
      for (MemoryId id : ids) {
        Entry e = entries.get(id);
        if (e != null) {
          out.put(id, e.memory());
        }
      }
      return out;
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public boolean delete(MemoryId id, ForgetRecord record) {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(record, "audit");
    lock.writeLock().lock();
    try {
      checkOpen();
      Entry removed = entries.remove(id);
      if (removed == null) {
        return false;
      }
      audit.add(record);
      return true;
    } finally {
      lock.writeLock().unlock();
    }
  }

  @Override
  public List<ForgetRecord> forgotten(Scope scope) {
    Objects.requireNonNull(scope, "scope");
    lock.readLock().lock();
    try {
      checkOpen();
      return audit.stream().filter(r -> r.scope().equals(scope)).toList();
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public List<StoreHit> searchText(Scope scope, String query, int k) {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(query, "query");
    checkK(k);
    List<String> terms = SimpleTokens.tokenize(query).stream().distinct().toList();
    lock.readLock().lock();
    try {
      checkOpen();
      List<Entry> docs = latestIn(scope);
      if (terms.isEmpty() || docs.isEmpty()) {
        return List.of();
      }
      double avgLength = docs.stream().mapToInt(Entry::length).average().orElse(1);
      Map<String, Double> idf = idf(terms, docs);
      TopK top = new TopK(k);
      for (Entry doc : docs) {
        double score = 0;
        for (String term : terms) {
          Integer tf = doc.termFrequencies().get(term);
          if (tf != null) {
            double norm = K1 * (1 - B + B * doc.length() / Math.max(avgLength, 1e-9));
            score += idf.get(term) * tf * (K1 + 1) / (tf + norm);
          }
        }
        if (score > 0) {
          top.offer(doc.memory().id(), score);
        }
      }
      return top.result();
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public double textScoreCeiling(Scope scope, String query) {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(query, "query");
    List<String> terms = SimpleTokens.tokenize(query).stream().distinct().toList();
    lock.readLock().lock();
    try {
      checkOpen();
      List<Entry> docs = latestIn(scope);
      Map<String, Double> idf = idf(terms, docs);
      double ceiling = 0;
      for (double value : idf.values()) {
        ceiling += value * (K1 + 1);
      }
      return ceiling;
    } finally {
      lock.readLock().unlock();
    }
  }

  /** BM25 idf per term over {@code docs}; terms that occur in no document are left out. */
  private static Map<String, Double> idf(List<String> terms, List<Entry> docs) {
    Map<String, Double> idf = new HashMap<>();
    for (String term : terms) {
      int df = 0;
      for (Entry doc : docs) {
        if (doc.termFrequencies().containsKey(term)) {
          df++;
        }
      }
      if (df > 0) {
        idf.put(term, Math.log(1 + (docs.size() - df + 0.5) / (df + 0.5)));
      }
    }
    return idf;
  }

  @Override
  public List<StoreHit> searchVector(Scope scope, Embedding query, int k) {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(query, "query");
    checkK(k);
    lock.readLock().lock();
    try {
      checkOpen();
      checkDimension(query);
      TopK top = new TopK(k);
      for (Entry doc : latestIn(scope)) {
        top.offer(doc.memory().id(), doc.embedding().cosine(query));
      }
      return top.result();
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public List<StoreHit> searchRelated(Scope scope, Set<String> concepts, Set<String> files, int k) {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(concepts, "concepts");
    Objects.requireNonNull(files, "files");
    checkK(k);
    lock.readLock().lock();
    try {
      checkOpen();
      TopK top = new TopK(k);
      for (Entry doc : latestIn(scope)) {
        int shared = 0;
        for (String c : doc.memory().concepts()) {
          if (concepts.contains(c)) {
            shared++;
          }
        }
        for (String f : doc.memory().files()) {
          if (files.contains(f)) {
            shared++;
          }
        }
        if (shared > 0) {
          top.offer(doc.memory().id(), shared);
        }
      }
      return top.result();
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public long count(Scope scope) {
    Objects.requireNonNull(scope, "scope");
    lock.readLock().lock();
    try {
      checkOpen();
      return latestIn(scope).size();
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public void close() {
    lock.writeLock().lock();
    try {
      closed = true;
      entries.clear();
    } finally {
      lock.writeLock().unlock();
    }
  }

  private List<Entry> latestIn(Scope scope) {
    List<Entry> out = new ArrayList<>();
    for (Entry e : entries.values()) {
      if (e.memory().latest() && e.memory().scope().equals(scope)) {
        out.add(e);
      }
    }
    return out;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("store is closed");
    }
  }

  private static void checkK(int k) {
    if (k < 1) {
      throw new IllegalArgumentException("k must be positive, got " + k);
    }
  }

  @Override
  public String toString() {
    return "InMemoryMemoryStore[" + space + "]";
  }

  /** Keeps the k best hits; ties broken by id so results are deterministic. */
  private static final class TopK {
    private static final Comparator<StoreHit> WORST_FIRST =
        Comparator.comparingDouble(StoreHit::score).thenComparing(StoreHit::id, Comparator.reverseOrder());
    private final int k;
    private final PriorityQueue<StoreHit> heap;

    TopK(int k) {
      this.k = k;
      this.heap = new PriorityQueue<>(Math.min(k, 1024) + 1, WORST_FIRST);
    }

    void offer(MemoryId id, double score) {
      heap.add(new StoreHit(id, score));
      if (heap.size() > k) {
        heap.poll();
      }
    }

    List<StoreHit> result() {
      List<StoreHit> out = new ArrayList<>(heap);
      out.sort(WORST_FIRST.reversed());
      return out;
    }
  }
}
