package dev.memhook.core.internal;

import static com.google.common.base.Preconditions.checkArgument;

import com.google.common.collect.Lists;
import dev.memhook.api.ForgetMode;
import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.core.internal.capture.QuotedTurns;
import dev.memhook.core.internal.capture.ServiceWrites;
import dev.memhook.core.internal.capture.SourceObservations;
import dev.memhook.core.internal.observe.DocumentEmbedder;
import dev.memhook.core.internal.observe.MemoryIntake;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The service's write path: a draft goes through {@link MemoryIntake} (validate, sanitize,
 * complete), is embedded as a document and put in the store; a forget erases a memory, every
 * version it supersedes and, unless asked to keep them, the observations they were consolidated
 * from, in one store write. Used by the host's calls and by capture's consolidation alike, so both
 * are sanitized and versioned the same way.
 *
 * <p>Thread-safe: an update and a forget run one at a time (one writer lock), so two updates of one
 * version cannot both succeed and a forget never races the version it follows back.
 */
final class ServiceWriter implements ServiceWrites {

  /** Versions one forget follows back at most: a guard against a cycle in a damaged store. */
  private static final int MAX_VERSIONS_FORGOTTEN = 10_000;

  private final MemoryStore store;
  private final DocumentEmbedder documents;
  private final MemoryIntake intake;
  private final Object writeLock = new Object();

  ServiceWriter(MemoryStore store, DocumentEmbedder documents, MemoryIntake intake) {
    this.store = store;
    this.documents = documents;
    this.intake = intake;
  }

  @Override
  public Memory remember(MemoryDraft draft) {
    Memory memory = intake.newMemory(draft);
    // the document side of an asymmetric embedder; recall queries use embedQuery
    DocumentEmbedder.Vectors vectors = documents.embed(memory);
    store.put(memory, vectors.memory(), vectors.passages());
    return memory;
  }

  @Override
  public Memory update(MemoryId id, MemoryDraft draft) {
    synchronized (writeLock) {
      Memory previous =
          store.get(id).orElseThrow(() -> new IllegalArgumentException("no memory with id " + id));
      checkArgument(previous.latest(), "%s is not the latest version; update the latest one", id);
      Memory next = intake.nextVersion(previous, draft);
      DocumentEmbedder.Vectors vectors = documents.embed(next);
      store.putNewVersion(next, vectors.memory(), vectors.passages());
      return next;
    }
  }

  /** The actor of the audit records of a memory capture retired ({@link #retire}). */
  static final String RETIRING_ACTOR = "memhook capture";

  @Override
  public boolean retire(MemoryId id, String reason) {
    Optional<Forgotten> forgotten =
        forget(id, intake.forgetRequest(RETIRING_ACTOR, reason), ForgetMode.MEMORY_ONLY);
    // a consolidated memory and its versions are never captured observations: no captured turn
    // quotes them, so there is no capture session to clear (which would wait for capture itself)
    return forgotten.isPresent();
  }

  /**
   * What a forget removed: its audit records, one per removed id in the order of {@link
   * dev.memhook.api.MemoryService#forget(MemoryId, String, String, ForgetMode)}, and the capture
   * sessions of the captured observations among them (whose records and journal capture must still
   * clear), possibly none.
   */
  record Forgotten(List<ForgetRecord> records, Set<String> capturedSessions) {}

  /**
   * Erases {@code id}, every older version it supersedes and, with {@link ForgetMode#WITH_SOURCES},
   * the observations they were consolidated from ({@link SourceObservations}), and takes the text
   * of each captured observation among them out of the captured turns that quote it as context.
   *
   * @return empty when nothing was forgotten (no such memory)
   */
  Optional<Forgotten> forget(MemoryId id, MemoryIntake.ForgetRequest request, ForgetMode mode) {
    synchronized (writeLock) {
      List<Memory> versions = versions(id);
      if (versions.isEmpty()) {
        return Optional.empty();
      }
      List<Memory> removed = new ArrayList<>(versions);
      if (mode == ForgetMode.WITH_SOURCES) {
        removed.addAll(SourceObservations.stored(store, versions));
      }
      List<MemoryId> removedIds = removed.stream().map(Memory::id).toList();
      // the turn after a captured one quotes it as context: put it back without, so the store's
      // erase (which rewrites every segment holding a replaced or deleted document) takes both
      Set<String> capturedSessions = new LinkedHashSet<>();
      for (Memory m : removed) {
        if (QuotedTurns.captured(m) && m.sourceSession() != null) {
          capturedSessions.add(m.sourceSession());
          for (Memory cleared : QuotedTurns.quoting(store, m, removedIds)) {
            DocumentEmbedder.Vectors vectors = documents.embed(cleared);
            store.put(cleared, vectors.memory(), vectors.passages());
          }
        }
      }
      List<List<Memory>> parts = Lists.partition(removed, ForgetRecord.MAX_REMOVED);
      List<List<ForgetRecord>> audits = new ArrayList<>(parts.size());
      parts.forEach(part -> audits.add(request.recordsFor(part)));
      // the part holding the memory asked for goes last: a forget cut short by a failure, asked
      // again, still finds the memory and from it the versions and sources left
      int deleted = 0;
      for (List<ForgetRecord> part : Lists.reverse(audits)) {
        deleted += store.deleteAll(part);
      }
      if (deleted == 0) {
        return Optional.empty();
      }
      List<ForgetRecord> records = audits.stream().flatMap(List::stream).toList();
      return Optional.of(new Forgotten(records, capturedSessions));
    }
  }

  /** The ids a forget of {@code id} with its sources removes besides its versions. */
  List<MemoryId> sources(MemoryId id) {
    return SourceObservations.stored(store, versions(id)).stream().map(Memory::id).toList();
  }

  /** {@code id} and every older version it supersedes, newest first; empty if it is unknown. */
  private List<Memory> versions(MemoryId id) {
    List<Memory> versions = new ArrayList<>();
    MemoryId next = id;
    while (next != null && versions.size() < MAX_VERSIONS_FORGOTTEN) {
      Optional<Memory> memory = store.get(next);
      if (memory.isEmpty()) {
        break;
      }
      versions.add(memory.get());
      next = memory.get().supersedes();
    }
    return versions;
  }
}
