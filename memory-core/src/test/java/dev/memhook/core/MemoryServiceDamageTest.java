package dev.memhook.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.ExportResult;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryStoreException;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.Scope;
import dev.memhook.lucene.DamagedIndexes;
import dev.memhook.lucene.LuceneMemoryStore;
import dev.memhook.testkit.ForwardingMemoryStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Damage is contained at the service as in the store: one unreadable stored record costs that
 * memory only. Recall returns the others, {@code get} of it says what is wrong and what to do, and
 * the host reads how many were found from the service, without reaching for the store.
 */
class MemoryServiceDamageTest {
  @TempDir Path dir;

  private static final Scope SCOPE = Scope.of("acme", "alice");
  private static final MemoryId BROKEN = MemoryId.of("broken");
  private static final String QUERY = "kafka consumer lag";

  /** How the service gets its store: the count must reach the host through either. */
  enum Opening {
    /** {@code Memhook.builder().directory(dir)}: the embedded default. */
    DIRECTORY,
    /** The same store passed in behind a {@link ForwardingMemoryStore}, as a host decorates one. */
    FORWARDED_STORE
  }

  private MemoryService open(Opening opening) {
    Memhook.Builder builder = Memhook.builder().embedder(HashingEmbedder.create());
    return opening == Opening.DIRECTORY
        ? builder.directory(dir).build()
        : builder
            .store(new ForwardingMemoryStore(LuceneMemoryStore.builder().directory(dir).build()) {})
            .build();
  }

  @ParameterizedTest
  @EnumSource(Opening.class)
  void anUnreadableRecord_isSkippedByRecall_getOfItSaysWhatToDo_andTheServiceCountsIt(
      Opening opening) throws IOException {
    List<Memory> good = new ArrayList<>();
    try (MemoryService memory = open(opening)) {
      good.add(memory.remember(MemoryDraft.of(SCOPE, "kafka consumer lag pages the on-call")));
      good.add(memory.remember(MemoryDraft.of(SCOPE, "kafka consumer lag is graphed per topic")));
      good.add(memory.remember(MemoryDraft.of(SCOPE, "kafka consumer lag over 1000 means scale")));
      assertEquals(0, memory.maintenance().unreadableRecords(), "a healthy store");
    }
    float[] vector = HashingEmbedder.create().embed(QUERY).toArray();
    DamagedIndexes.addUnreadableMemory(dir, BROKEN.value(), SCOPE, QUERY + " broken", vector);

    try (MemoryService memory = open(opening)) {
      assertEquals(
          0, memory.maintenance().unreadableRecords(), "nothing is found before it is read");

      assertEquals(ids(good), Set.copyOf(memory.recall(RecallQuery.of(SCOPE, QUERY)).ids()));
      assertEquals(
          1, memory.maintenance().unreadableRecords(), "the recall met the damaged record");

      MemoryStoreException e = assertThrows(MemoryStoreException.class, () -> memory.get(BROKEN));
      assertTrue(e.getMessage().contains("memory broken"), e.getMessage());
      assertTrue(e.getMessage().contains("is unreadable (damaged)"), e.getMessage());
      assertTrue(e.getMessage().contains("other memories are unaffected"), e.getMessage());
      assertTrue(e.getMessage().contains("readOnly()"), e.getMessage());
      for (Memory m : good) {
        assertEquals(m, memory.get(m.id()).orElseThrow());
      }

      assertEquals(ids(good), Set.copyOf(memory.recall(RecallQuery.of(SCOPE, QUERY)).ids()));
      List<Memory> exported = new ArrayList<>();
      assertEquals(new ExportResult(3, 1), memory.maintenance().export(exported::add));
      assertEquals(ids(good), ids(exported));
      assertEquals(
          1, memory.maintenance().unreadableRecords(), "counted once, however often it is met");
    }
  }

  @Test
  void unreadableRecords_afterClose_isRefused() {
    MemoryService memory = open(Opening.DIRECTORY);
    memory.close();
    assertThrows(IllegalStateException.class, memory.maintenance()::unreadableRecords);
  }

  private static Set<MemoryId> ids(List<Memory> memories) {
    Set<MemoryId> out = new HashSet<>();
    memories.forEach(m -> out.add(m.id()));
    return out;
  }
}
