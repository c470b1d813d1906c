package dev.memhook.core.lucene;

import static dev.memhook.core.lucene.LuceneStoreFixtures.A;
import static dev.memhook.core.lucene.LuceneStoreFixtures.T0;
import static dev.memhook.core.lucene.LuceneStoreFixtures.memory;
import static dev.memhook.core.lucene.LuceneStoreFixtures.open;
import static dev.memhook.core.lucene.LuceneStoreFixtures.vector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.spi.Embedding;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the store acknowledges it can read back: a record it could not read, or a document Lucene
 * would refuse, is refused before anything is written.
 */
class LuceneMemoryStoreRecordLimitsTest {
  @TempDir Path dir;

  /**
   * A memory with a field too large for this store. Memory's own limits may refuse it first, which
   * leaves nothing for the store to check: then the test is skipped, saying so.
   */
  private static Memory tooLarge(Supplier<Memory> build) {
    try {
      return build.get();
    } catch (IllegalArgumentException e) {
      Assumptions.abort("Memory itself now refuses the value: " + e.getMessage());
      throw e;
    }
  }

  private static String text(int length) {
    StringBuilder sb = new StringBuilder(length);
    while (sb.length() < length) {
      sb.append(sb.length() % 64 == 63 ? ' ' : 'z');
    }
    return sb.toString();
  }

  @Test
  void aRecordOverTheMaximum_isRefusedNamingTheField_andNothingIsStored() {
    Memory big =
        tooLarge(
            () ->
                memory("big", A, "small content").toBuilder()
                    .sourceSession(text(RecordLimits.MAX_RECORD_CHARS + 1))
                    .build());
    try (LuceneMemoryStore store = open(dir.resolve("index"))) {
      store.put(memory("kept", A, "kept"), vector(1));
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> store.put(big, vector(2)));
      assertTrue(e.getMessage().contains("sourceSession"), e.getMessage());
      assertTrue(
          e.getMessage().contains(Integer.toString(RecordLimits.MAX_RECORD_CHARS)), e.getMessage());
      Map<Memory, Embedding> batch = new LinkedHashMap<>();
      batch.put(memory("fine", A, "fine"), vector(3));
      batch.put(big, vector(2));
      assertThrows(IllegalArgumentException.class, () -> store.putAll(batch));
      assertTrue(store.get(MemoryId.of("big")).isEmpty());
      assertTrue(store.get(MemoryId.of("fine")).isEmpty(), "a batch is refused whole");
      assertEquals(1, store.count(A));
    }
  }

  @Test
  void aKeywordOverLucenesTermLimit_isRefusedNamingIt_andNothingIsStored() {
    Memory longFile =
        tooLarge(
            () ->
                memory("long-file", A, "x").toBuilder()
                    .files(List.of("src/" + text(RecordLimits.MAX_TERM_BYTES)))
                    .build());
    Memory longConcept =
        tooLarge(
            () ->
                memory("long-concept", A, "x").toBuilder()
                    .concepts(List.of("\u00e9".repeat(RecordLimits.MAX_TERM_BYTES / 2 + 1)))
                    .build());
    try (LuceneMemoryStore store = open(dir.resolve("index"))) {
      IllegalArgumentException file =
          assertThrows(IllegalArgumentException.class, () -> store.put(longFile, vector(1)));
      assertTrue(file.getMessage().contains("a file"), file.getMessage());
      assertTrue(
          file.getMessage().contains(Integer.toString(RecordLimits.MAX_TERM_BYTES)),
          file.getMessage());
      IllegalArgumentException concept =
          assertThrows(IllegalArgumentException.class, () -> store.put(longConcept, vector(1)));
      assertTrue(concept.getMessage().contains("a concept"), concept.getMessage());
      assertEquals(0, store.count(A));
      // the store still writes: nothing half-applied was latched
      store.put(memory("after", A, "after"), vector(2));
      assertEquals(1, store.count(A));
    }
  }

  @Test
  void aRecordJustUnderTheMaximum_andAKeywordAtTheTermLimit_roundTripEqual() {
    Memory shell =
        memory("near", A, "content").toBuilder()
            .attributes(Map.of(text(60_000), "a key over Jackson's default name limit"))
            .files(List.of(text(RecordLimits.MAX_TERM_BYTES - 10)))
            .build();
    int room = RecordLimits.MAX_RECORD_CHARS - new MemoryJson().write(shell).length();
    // the session fills the record up to one character under the maximum
    Memory near =
        tooLarge(
            () ->
                shell.toBuilder()
                    .sourceSession(text(room - "\"sourceSession\":\"\",".length() - 1))
                    .build());
    assertEquals(RecordLimits.MAX_RECORD_CHARS - 1, new MemoryJson().write(near).length());
    Path index = dir.resolve("index");
    try (LuceneMemoryStore store = open(index)) {
      store.put(near, vector(1));
      assertEquals(near, store.get(near.id()).orElseThrow());
    }
    try (LuceneMemoryStore store = open(index)) {
      assertEquals(near, store.get(near.id()).orElseThrow(), "after reopening");
    }
  }

  @Test
  void aForgetRecordOverTheMaximum_isRefused_andTheMemoryStays() {
    String reason = text(RecordLimits.MAX_RECORD_CHARS + 1);
    ForgetRecord audit = new ForgetRecord(MemoryId.of("m"), A, "alice", reason, T0);
    try (LuceneMemoryStore store = open(dir.resolve("index"))) {
      store.put(memory("m", A, "content"), vector(1));
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> store.delete(MemoryId.of("m"), audit));
      assertTrue(e.getMessage().contains("reason"), e.getMessage());
      assertTrue(store.get(MemoryId.of("m")).isPresent());
      assertTrue(store.forgotten(A).isEmpty());
    }
  }
}
