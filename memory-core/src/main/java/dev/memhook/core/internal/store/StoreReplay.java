package dev.memhook.core.internal.store;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.core.internal.journal.Journal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the store's journal records beyond the checkpoint to a store that may already hold some
 * of them: the idempotent rules of {@link LoggedStore}'s design note, one record at a time in log
 * order. Not thread-safe: runs once, while the service opens.
 */
final class StoreReplay {

  private static final Logger LOG = LoggerFactory.getLogger(StoreReplay.class);

  private final MemoryStore store;

  /** Batches whose parts are not all read yet, by batch number. */
  private final Map<Long, List<StoreRecords.PutPart>> openBatches = new TreeMap<>();

  private final Map<Scope, Set<MemoryId>> forgottenByScope = new HashMap<>();

  private long applied;

  private StoreReplay(MemoryStore store) {
    this.store = store;
  }

  /**
   * Replays the store's records of {@code journal} into {@code store}.
   *
   * @return how many records were applied (parts of a batch count once per part)
   */
  static long apply(Journal journal, MemoryStore store) {
    StoreReplay replay = new StoreReplay(store);
    journal.replay(replay::entry);
    replay.openBatches.forEach(
        (batch, parts) ->
            LOG.warn(
                "memhook: a batch of memories in the journal has {} of its {} parts: it was never"
                    + " acknowledged (the process stopped while logging it) and is not applied",
                parts.size(),
                parts.get(0).parts()));
    return replay.applied;
  }

  private void entry(Journal.Entry entry) {
    byte kind = entry.kind();
    if (kind != StoreRecords.KIND_PUT
        && kind != StoreRecords.KIND_NEW_VERSION
        && kind != StoreRecords.KIND_FORGET) {
      return; // capture's
    }
    try {
      switch (kind) {
        case StoreRecords.KIND_PUT -> putPart(StoreRecords.readPut(entry.payload()));
        case StoreRecords.KIND_NEW_VERSION ->
            newVersion(StoreRecords.readNewVersion(entry.payload()));
        default -> {
          List<ForgetRecord> audits = StoreRecords.readForget(entry.payload());
          store.deleteAll(audits);
          audits.forEach(a -> forgottenByScope.remove(a.scope()));
        }
      }
      applied++;
    } catch (IllegalArgumentException e) {
      // a record the codec cannot read, or a write the store refused when it was made and refuses
      // again now: it was never acknowledged
      LOG.error(
          "memhook: store journal record {} cannot be applied and is skipped: {}",
          entry.seq(),
          e.getMessage());
    }
  }

  private void putPart(StoreRecords.PutPart part) {
    Map<Memory, Embedding> memories;
    Map<MemoryId, List<Embedding>> passages;
    if (part.parts() == 1) {
      memories = part.memories();
      passages = part.passages();
    } else {
      List<StoreRecords.PutPart> parts =
          openBatches.computeIfAbsent(part.batch(), b -> new ArrayList<>());
      parts.add(part);
      if (parts.size() < part.parts()) {
        return;
      }
      openBatches.remove(part.batch());
      memories = new LinkedHashMap<>();
      passages = new HashMap<>();
      for (StoreRecords.PutPart p : parts) {
        memories.putAll(p.memories());
        passages.putAll(p.passages());
      }
    }
    List<MemoryId> ids = memories.keySet().stream().map(Memory::id).toList();
    Map<MemoryId, Memory> held = store.getAll(ids);
    Map<Memory, Embedding> toPut = new LinkedHashMap<>();
    Map<MemoryId, List<Embedding>> theirPassages = new HashMap<>();
    memories.forEach(
        (m, e) -> {
          Memory current = held.get(m.id());
          // a later new version, already committed, superseded it: putting it back as latest
          // would give the memory two latest versions
          boolean superseded = m.latest() && current != null && !current.latest();
          // a later forget, already committed, erased it: putting it back would bring its text
          // back until the forget is replayed, and that forget would then record a second audit
          if (!superseded && (current != null || !forgotten(m).contains(m.id()))) {
            toPut.put(m, e);
            List<Embedding> its = passages.get(m.id());
            if (its != null) {
              theirPassages.put(m.id(), its);
            }
          }
        });
    if (!toPut.isEmpty()) {
      store.putAll(toPut, theirPassages);
    }
  }

  /** The ids the store holds audit records for in {@code m}'s scope, read once per scope. */
  private Set<MemoryId> forgotten(Memory m) {
    return forgottenByScope.computeIfAbsent(
        m.scope(),
        scope -> {
          Set<MemoryId> ids = new HashSet<>();
          store.forgotten(scope).forEach(r -> ids.add(r.id()));
          return ids;
        });
  }

  private void newVersion(StoreRecords.NewVersion v) {
    if (store.get(v.next().id()).isPresent()) {
      return; // committed already
    }
    store.putNewVersion(v.next(), v.embedding(), v.passages());
  }
}
