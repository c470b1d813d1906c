package dev.memhook.core.internal.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.core.internal.journal.Journal;
import dev.memhook.testkit.Seeds;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The codec of the store's journal records with passage vectors: what the format written now reads
 * back, that the records an earlier version wrote are still read (as memories without passages),
 * and that bytes it did not write are refused with an {@link IllegalArgumentException}, never an
 * allocation their counts ask for.
 */
class StoreRecordsTest {

  private static final Scope SCOPE = Scope.of("wal");
  private static final Instant T = Instant.parse("2026-11-30T10:15:30.123456789Z");

  /**
   * A put of format 1, as the codec before passage vectors (commit c5377200) wrote it: batch 7,
   * part 0 of 1, {@code mem_old1} with (1, 0, 0) and {@code mem_old2} with (0, 1, 0), both as
   * {@link #memory} makes them.
   */
  private static final byte[] PUT_OF_FORMAT_1 =
      HexFormat.of()
          .parseHex(
              "010000000000000007000000000000000100000002000000086d656d5f6f6c64"
                  + "310000000b4f42534552564154494f4e0000000000000000000000166c6f6767"
                  + "6564206265666f72652070617373616765730000000000000000000000000000"
                  + "000377616c00000000045553455200000000003fe00000000000000000000100"
                  + "01000000006b0d4cc2075bcd15000000006b0d4cc2075bcd1500000000000000"
                  + "033f8000000000000000000000000000086d656d5f6f6c64320000000b4f4253"
                  + "4552564154494f4e00000000000000000000000b616c736f206265666f726500"
                  + "00000000000000000000000000000377616c0000000004555345520000000000"
                  + "3fe0000000000000000000010001000000006b0d4cc2075bcd15000000006b0d"
                  + "4cc2075bcd150000000000000003000000003f80000000000000");

  /**
   * A new version of format 1 from the same codec: {@code mem_old1b}, version 2 of {@code
   * mem_old1}, with (0, 0, 1).
   */
  private static final byte[] NEW_VERSION_OF_FORMAT_1 =
      HexFormat.of()
          .parseHex(
              "01000000096d656d5f6f6c6431620000000b4f42534552564154494f4e000000"
                  + "000000000000000012697473207365636f6e642076657273696f6e0000000000"
                  + "000000000000000000000377616c00000000045553455200000000003fe00000"
                  + "000000000000000201000000086d656d5f6f6c643101000000006b0d4cc2075b"
                  + "cd15000000006b0d4cc2075bcd15000000000000000300000000000000003f80"
                  + "0000");

  @TempDir Path dir;

  private static Memory memory(String id, String content) {
    return Memory.builder()
        .id(MemoryId.of(id))
        .scope(SCOPE)
        .content(content)
        .occurredAt(T)
        .createdAt(T)
        .build();
  }

  private static Memory secondVersionOfOld1() {
    return memory("mem_old1b", "its second version").toBuilder()
        .version(2)
        .supersedes(MemoryId.of("mem_old1"))
        .build();
  }

  @Test
  void putRecord_roundTripsEachMemorysPassages_andNoneForAMemoryWithout() {
    Memory a = memory("mem_a", "two sentences. two passages");
    Memory b = memory("mem_b", "no passages");
    Memory c = memory("mem_c", "one passage");
    List<Embedding> ofA = List.of(Embedding.of(0.5f, -0.25f, 0f), Embedding.of(0f, 0f, 1f));
    List<Embedding> ofC = List.of(Embedding.of(Float.MIN_VALUE, 1f, -1f));
    byte[] record =
        StoreRecords.put(
            41,
            1,
            3,
            List.of(
                StoreRecords.entry(a, Embedding.of(1f, 0f, 0f), ofA),
                StoreRecords.entry(b, Embedding.of(0f, 1f, 0f), List.of()),
                StoreRecords.entry(c, Embedding.of(0f, 0f, 1f), ofC)));

    StoreRecords.PutPart part = StoreRecords.readPut(record);

    assertEquals(StoreRecords.PUT_FORMAT, record[0]);
    assertEquals(41, part.batch());
    assertEquals(1, part.part());
    assertEquals(3, part.parts());
    Map<Memory, Embedding> memories = new LinkedHashMap<>();
    memories.put(a, Embedding.of(1f, 0f, 0f));
    memories.put(b, Embedding.of(0f, 1f, 0f));
    memories.put(c, Embedding.of(0f, 0f, 1f));
    assertEquals(memories, part.memories());
    assertEquals(List.of(a, b, c), new ArrayList<>(part.memories().keySet()), "in the batch order");
    assertEquals(Map.of(a.id(), ofA, c.id(), ofC), part.passages(), "b has none: not a key");
  }

  @Test
  void newVersionRecord_roundTripsItsPassages_theMostAMemoryHas_orNone() {
    Memory next = secondVersionOfOld1();
    Embedding embedding = Embedding.of(0f, 0f, 1f);
    List<Embedding> most = new ArrayList<>();
    for (int i = 0; i < MemoryStore.MAX_PASSAGES; i++) {
      most.add(Embedding.of(i, -i, 0.5f));
    }

    StoreRecords.NewVersion withMost =
        StoreRecords.readNewVersion(StoreRecords.newVersion(next, embedding, most));
    StoreRecords.NewVersion withNone =
        StoreRecords.readNewVersion(StoreRecords.newVersion(next, embedding, List.of()));

    assertEquals(new StoreRecords.NewVersion(next, embedding, most), withMost);
    assertEquals(new StoreRecords.NewVersion(next, embedding, List.of()), withNone);
  }

  @Test
  void aPutOfFormat1_decodesAsItsMemoriesWithoutPassages() {
    StoreRecords.PutPart part = StoreRecords.readPut(PUT_OF_FORMAT_1);

    Map<Memory, Embedding> memories = new LinkedHashMap<>();
    memories.put(memory("mem_old1", "logged before passages"), Embedding.of(1f, 0f, 0f));
    memories.put(memory("mem_old2", "also before"), Embedding.of(0f, 1f, 0f));
    assertEquals(new StoreRecords.PutPart(7, 0, 1, memories, Map.of()), part);
  }

  @Test
  void aNewVersionOfFormat1_decodesWithoutPassages() {
    assertEquals(
        new StoreRecords.NewVersion(secondVersionOfOld1(), Embedding.of(0f, 0f, 1f), List.of()),
        StoreRecords.readNewVersion(NEW_VERSION_OF_FORMAT_1));
  }

  @Test
  void aJournalOfFormat1Records_isReplayedIntoAStoreThatKeepsPassages_withNone() {
    try (Journal journal = Journal.open(dir)) {
      journal.append(StoreRecords.KIND_PUT, PUT_OF_FORMAT_1);
      journal.append(StoreRecords.KIND_NEW_VERSION, NEW_VERSION_OF_FORMAT_1);
    }
    PassageKeepingStore store = PassageKeepingStore.inMemory();
    store.attach(new EmbeddingSpace("format-1-model", 3));
    try (Journal journal = Journal.open(dir)) {
      assertEquals(2, StoreReplay.apply(journal, store));
    }

    List<MemoryId> ids = List.of(MemoryId.of("mem_old2"), MemoryId.of("mem_old1b"));
    assertEquals(List.of("also before", "its second version"), contents(store, ids));
    assertFalse(store.get(MemoryId.of("mem_old1")).orElseThrow().latest(), "superseded");
    assertEquals(Map.of(), store.passageCosines(SCOPE, ids, Embedding.of(0f, 1f, 0f)));
    store.close();
  }

  @Test
  void morePassagesThanAMemoryHas_orANegativeCount_isRefused() {
    for (int count : new int[] {MemoryStore.MAX_PASSAGES + 1, Integer.MAX_VALUE, -1}) {
      byte[] record = newVersionWithOnePassage();
      // the passage count is the int before the last passage: dimension 3, three floats
      ByteBuffer.wrap(record).putInt(record.length - 20, count);

      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> StoreRecords.readNewVersion(record));
      assertTrue(e.getMessage().contains(count + " passages"), e.getMessage());
    }
  }

  @Test
  void aPassageOfAHugeOrNegativeDimension_isRefused_beforeAnyAllocation() {
    for (int dimension : new int[] {Integer.MAX_VALUE, 1 << 28, -1}) {
      byte[] record = newVersionWithOnePassage();
      ByteBuffer.wrap(record).putInt(record.length - 16, dimension);

      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> StoreRecords.readNewVersion(record));
      assertTrue(e.getMessage().contains("dimension " + dimension), e.getMessage());
    }
  }

  @Test
  void aPassageOfAnotherDimensionThanItsMemory_isRefused() {
    byte[] record = newVersionWithOnePassage();
    ByteBuffer.wrap(record).putInt(record.length - 16, 2); // and four bytes left over

    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> StoreRecords.readNewVersion(record));
    assertTrue(e.getMessage().contains("a passage of dimension 2, its memory 3"), e.getMessage());
  }

  @Test
  void aRecordCutAnywhereInItsPassages_isRefused() {
    Memory a = memory("mem_a", "cut short");
    byte[] put =
        StoreRecords.put(
            1,
            0,
            1,
            List.of(
                StoreRecords.entry(
                    a,
                    Embedding.of(1f, 0f, 0f),
                    List.of(Embedding.of(0f, 1f, 0f), Embedding.of(0f, 0f, 1f)))));
    byte[] newVersion = newVersionWithOnePassage();
    // the passages are the last 4 + 2 * (4 + 12) bytes of the put, 4 + 16 of the new version
    for (int cut = put.length - 36; cut < put.length; cut++) {
      byte[] shorter = Arrays.copyOf(put, cut);
      assertThrows(IllegalArgumentException.class, () -> StoreRecords.readPut(shorter), "" + cut);
    }
    for (int cut = newVersion.length - 20; cut < newVersion.length; cut++) {
      byte[] shorter = Arrays.copyOf(newVersion, cut);
      assertThrows(
          IllegalArgumentException.class, () -> StoreRecords.readNewVersion(shorter), "" + cut);
    }
  }

  @Test
  void aPutOfOneIdTwice_isRefused() {
    Memory a = memory("mem_a", "once");
    byte[] entry = StoreRecords.entry(a, Embedding.of(1f, 0f, 0f), List.of());

    assertThrows(
        IllegalArgumentException.class,
        () -> StoreRecords.readPut(StoreRecords.put(1, 0, 1, List.of(entry, entry))));
  }

  @Test
  void aRecordOfAFormatFromANewerVersion_isRefused_namingTheFormatsRead() {
    byte[] record = newVersionWithOnePassage();
    record[0] = 3;

    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> StoreRecords.readNewVersion(record));
    assertEquals("store log record of format 3; this version reads formats 1 to 2", e.getMessage());
  }

  @Test
  void hostileBytesInARecordWithPassages_failWithIllegalArgument_neverAnotherError() {
    long seed = Seeds.seed();
    Random random = new Random(seed);
    Memory m = memory("mem_h", "hostile");
    List<Embedding> passages = List.of(Embedding.of(0f, 1f, 0f), Embedding.of(0f, 0f, 1f));
    byte[] put =
        StoreRecords.put(
            1, 0, 1, List.of(StoreRecords.entry(m, Embedding.of(1f, 0f, 0f), passages)));
    byte[] newVersion = StoreRecords.newVersion(m, Embedding.of(1f, 0f, 0f), passages);
    for (int i = 0; i < 4_000; i++) {
      boolean isPut = i % 2 == 0;
      byte[] bytes = (isPut ? put : newVersion).clone();
      // mostly in the passages, at the end, where a flip is least likely to break a string first
      for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
        int at =
            random.nextBoolean()
                ? bytes.length - 1 - random.nextInt(40)
                : random.nextInt(bytes.length);
        bytes[at] = (byte) random.nextInt(256);
      }
      try {
        if (isPut) {
          StoreRecords.readPut(bytes);
        } else {
          StoreRecords.readNewVersion(bytes);
        }
      } catch (IllegalArgumentException expected) {
        // refused: fine
      } catch (RuntimeException | Error e) {
        throw new AssertionError("case " + i + " threw " + e + Seeds.replay(seed), e);
      }
    }
  }

  /** A new version of dimension 3 whose one passage (count, dimension, floats) ends the record. */
  private static byte[] newVersionWithOnePassage() {
    return StoreRecords.newVersion(
        memory("mem_p", "one passage"),
        Embedding.of(1f, 0f, 0f),
        List.of(Embedding.of(0f, 1f, 0f)));
  }

  private static List<String> contents(MemoryStore store, List<MemoryId> ids) {
    return store.getAll(ids).values().stream().map(Memory::content).toList();
  }
}
