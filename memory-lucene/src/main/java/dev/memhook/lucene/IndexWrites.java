package dev.memhook.lucene;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.spi.Embedding;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.search.TermQuery;

/**
 * The store's writes, each one atomic Lucene update through the {@link WritePath}: an upsert, a
 * batch, a new version together with the superseded old one, and a forget together with its audit
 * record. A memory's passage vectors are on its document ({@link PassageVectors}), so they are
 * written, replaced and deleted with it, by the same update. Each builds the documents it can
 * before it takes the write lock, so that the lock is held only to apply them. What a write must
 * read first (the version it supersedes, whether the memory to forget exists) it reads under the
 * lock: no write is in flight then, and the searchers refresh to every applied one, so what it
 * reads is current.
 *
 * <p>Thread-safe. The store checks the arguments; these check that the store is open.
 */
final class IndexWrites {
  /** The fewest memories a part of a batch added by its own thread holds. */
  static final int MIN_PART = 64;

  private final WritePath writes;
  private final MemoryDocuments documents;
  private final FreshSearchers searchers;
  private final UnreadableRecords unreadable;
  private final boolean mirror;
  private final VectorGraphs graphs;
  private final StoreWorkers workers;

  IndexWrites(
      WritePath writes,
      MemoryDocuments documents,
      FreshSearchers searchers,
      UnreadableRecords unreadable,
      boolean mirror,
      VectorGraphs graphs,
      StoreWorkers workers) {
    this.workers = workers;
    this.mirror = mirror;
    this.graphs = graphs;
    this.writes = writes;
    this.documents = documents;
    this.searchers = searchers;
    this.unreadable = unreadable;
  }

  /**
   * Stores or replaces {@code memory} with its {@code passages} (checked; none if empty): a delete
   * by its id and an add, as one update.
   */
  void put(Memory memory, Embedding embedding, List<Embedding> passages) {
    writes.ensureOpen();
    Document doc = documents.memory(memory, embedding, passages);
    writes.write(
        List.of(memory.id()),
        w -> {
          w.updateDocument(IndexSchema.idTerm(memory.id()), documents.sealed(doc, memory));
          return true;
        });
    unreadable.written(List.of(memory.id()));
  }

  /**
   * Stores or replaces every memory of {@code batch}, each with its {@code passages} (checked) if
   * any: a delete by their ids and a block add; a batch of at least two {@link #MIN_PART parts} in
   * parts that the store's workers add at once ({@link #addInParts}), with the searchers' refreshes
   * held off until every part is in, so that no read sees half of the batch.
   */
  void putAll(Map<Memory, Embedding> batch, Map<MemoryId, List<Embedding>> passages) {
    writes.ensureOpen();
    if (batch.isEmpty()) {
      return;
    }
    MemoryDocuments.Batch docs = documents.batch(batch, passages);
    graphs.bulkWrite(batch.size()); // a bulk load: its graph is built once, when it is over
    int parts = parts(docs.ids().size(), workers.workers());
    writes.write(
        docs.ids(),
        w -> {
          if (parts == 1) {
            addPart(w, docs, 0, docs.ids().size());
            return true;
          }
          searchers.holdingRefreshes(() -> addInParts(w, docs, parts));
          return true;
        });
    unreadable.written(docs.ids());
  }

  /**
   * How many parts a batch of {@code size} memories is added in: one per worker, each of at least
   * {@link #MIN_PART} memories; one for a small batch, which would gain less than the hand-off
   * costs.
   */
  static int parts(int size, int workers) {
    return Math.max(1, Math.min(workers, size / MIN_PART));
  }

  /**
   * Adds {@code docs} in {@code parts} consecutive parts on the store's workers, each part one
   * update that replaces the earlier versions of its own ids (the ids of a batch are distinct, so
   * no part replaces another's). Lucene's writer is built for adds from several threads: each
   * thread fills a segment of its own. A part that fails leaves the others added but not committed;
   * the failure is reported as an {@link IOException}, so that the write path refuses further
   * writes and close rolls back (the whole batch, never half of it, is lost).
   */
  private void addInParts(IndexWriter w, MemoryDocuments.Batch docs, int parts) throws IOException {
    int size = docs.ids().size();
    List<StoreWorkers.Part> work = new ArrayList<>(parts);
    for (int p = 0; p < parts; p++) {
      int from = (int) ((long) size * p / parts);
      int to = (int) ((long) size * (p + 1) / parts);
      work.add(() -> addPart(w, docs, from, to));
    }
    try {
      workers.runAll(work);
    } catch (RuntimeException e) {
      throw new IOException("a part of the batch failed: " + e, e);
    }
  }

  /** Seals the documents {@code from} to {@code to} of {@code docs} and adds them in one update. */
  private void addPart(IndexWriter w, MemoryDocuments.Batch docs, int from, int to)
      throws IOException {
    for (int i = from; i < to; i++) {
      documents.sealed(docs.documents().get(i), docs.memories().get(i));
    }
    List<MemoryId> ids = docs.ids().subList(from, to);
    w.updateDocuments(IndexSchema.idsQuery(ids), docs.documents().subList(from, to));
  }

  /**
   * Stores {@code next}, a latest version, with its {@code passages} (checked; none if empty), and
   * rewrites the version it supersedes as not latest: a delete of both ids and a block add of both
   * documents.
   *
   * @throws IllegalArgumentException if the superseded version is not a latest memory of {@code
   *     next}'s scope; nothing is written then
   */
  void putNewVersion(Memory next, Embedding embedding, List<Embedding> passages) {
    writes.ensureOpen();
    MemoryId previousId = next.supersedes();
    Document nextDoc = documents.memory(next, embedding, passages);
    List<MemoryId> ids = List.of(next.id(), previousId);
    writes.write(
        ids,
        w -> {
          Document previousDoc =
              searchers.withSearcher(s -> documents.superseded(s, previousId, next.scope()));
          w.updateDocuments(
              IndexSchema.idsQuery(ids), List.of(documents.sealed(nextDoc, next), previousDoc));
          return true;
        });
    unreadable.written(ids);
  }

  /**
   * Replaces the memory {@code id} with the audit document of {@code audit}, if the memory exists,
   * and erases it: when this returns no file of the index holds its record or its terms ({@link
   * WritePath#erase}).
   *
   * @return whether it existed (if not, nothing is written)
   */
  boolean delete(MemoryId id, ForgetRecord audit) {
    return deleteAll(List.of(audit)) == 1;
  }

  /**
   * Deletes the memory each record names and stores the records of those that existed, in one
   * atomic update, and erases them all with one rewrite of the affected segments ({@link
   * WritePath#erase}).
   *
   * @return how many existed (if none, nothing is written)
   */
  int deleteAll(List<ForgetRecord> audits) {
    writes.ensureOpen();
    List<MemoryId> ids = new ArrayList<>(audits.size());
    List<Document> auditDocs = new ArrayList<>(audits.size());
    for (ForgetRecord audit : audits) {
      ids.add(audit.id());
      auditDocs.add(documents.audit(audit));
    }
    int[] existed = new int[1];
    WritePath.IndexAction delete =
        w -> {
          // which exist, read on one searcher (the write lock keeps them from changing meanwhile)
          boolean[] exists =
              searchers.withSearcher(
                  s -> {
                    boolean[] found = new boolean[ids.size()];
                    for (int i = 0; i < found.length; i++) {
                      found[i] = s.count(new TermQuery(IndexSchema.idTerm(ids.get(i)))) > 0;
                    }
                    return found;
                  });
          for (int i = 0; i < ids.size(); i++) {
            if (exists[i]) {
              if (mirror) { // Builder#mirror: the store it copies erases and audits
                w.deleteDocuments(IndexSchema.idTerm(ids.get(i)));
              } else {
                w.updateDocuments(IndexSchema.idTerm(ids.get(i)), List.of(auditDocs.get(i)));
              }
              existed[0]++;
            }
          }
          return existed[0] > 0;
        };
    if (mirror) {
      writes.write(ids, delete);
    } else {
      writes.erase(ids, delete);
    }
    unreadable.written(ids);
    return existed[0];
  }
}
