package dev.memhook.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.spi.StoreCapability;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@link LuceneMemoryStore.Builder} resolves into a {@link LuceneStoreConfig}. */
class LuceneStoreConfigTest {

  @TempDir Path tmp;

  @Test
  void config_ofABuilderLeftAtItsDefaults_holdsEachStatedDefault() {
    LuceneStoreConfig c = LuceneMemoryStore.builder().inMemory().config();

    assertEquals(Optional.empty(), c.directory());
    assertFalse(c.readOnly());
    assertEquals(Optional.empty(), c.groupCommit());
    assertEquals(LuceneMemoryStore.Builder.DEFAULT_CACHE_SIZE, c.cacheSize());
    assertEquals(LuceneMemoryStore.Builder.DEFAULT_HNSW_MAX_CONN, c.hnswMaxConn());
    assertEquals(LuceneMemoryStore.Builder.DEFAULT_HNSW_BEAM_WIDTH, c.hnswBeamWidth());
    assertEquals(LuceneMemoryStore.Builder.DEFAULT_EF_SEARCH, c.efSearch());
    assertFalse(c.scalarQuantization());
    assertEquals(LuceneMemoryStore.Builder.DEFAULT_MAX_SEGMENT_MB, c.maxSegmentMB());
    assertEquals(
        Math.min(
            LuceneMemoryStore.Builder.DEFAULT_MAX_WORKERS,
            Runtime.getRuntime().availableProcessors()),
        c.workers());
    assertEquals(LuceneMemoryStore.Builder.DEFAULT_IDLE_MERGE, c.idleMerge());
    assertFalse(c.mirror());
    assertEquals(LuceneMemoryStore.Builder.DEFAULT_EXACT_WEIGHT, c.exactWeight());
    assertEquals(LuceneMemoryStore.Builder.DEFAULT_PHRASE_WEIGHT, c.phraseWeight());
    assertEquals(LuceneMemoryStore.Builder.DEFAULT_SHA_BOOST, c.shaBoost());
    Map<SearchField, Integer> units = new EnumMap<>(SearchField.class);
    for (SearchField f : SearchField.values()) {
      units.put(f, Math.round(f.defaultBoost() * IndexSchema.WEIGHT_UNITS));
    }
    assertEquals(units, c.weightUnits());
    assertEquals("in-memory index", c.location());
    assertEquals(
        Set.of(StoreCapability.ATOMIC_BATCH, StoreCapability.PASSAGE_VECTORS), c.capabilities());
  }

  @Test
  void config_holdsEachSettingAsSet_andWhatTheStoreDerivesFromThem() {
    Path index = tmp.resolve("index");
    LuceneStoreConfig c =
        LuceneMemoryStore.builder()
            .directory(index)
            .groupCommit(Duration.ofMillis(250))
            .cacheSize(0)
            .hnswMaxConn(32)
            .hnswBeamWidth(200)
            .efSearch(40)
            .scalarQuantization(true)
            .maxSegmentMB(64)
            .workers(3)
            .idleMerge(Duration.ZERO)
            .mirror()
            .exactMatchWeight(0)
            .phraseWeight(0.25f)
            .shaBoost(5)
            .fieldBoost(SearchField.TITLE, 1.1f) // rounds to the nearest 0.25: 1
            .fieldBoost(SearchField.DATE, 0)
            .config();

    assertEquals(Optional.of(index), c.directory());
    assertEquals(Optional.of(Duration.ofMillis(250)), c.groupCommit());
    assertEquals(0, c.cacheSize());
    assertEquals(32, c.hnswMaxConn());
    assertEquals(200, c.hnswBeamWidth());
    assertEquals(40, c.efSearch());
    assertTrue(c.scalarQuantization());
    assertEquals(64, c.maxSegmentMB());
    assertEquals(3, c.workers());
    assertEquals(Duration.ZERO, c.idleMerge());
    assertTrue(c.mirror());
    assertEquals(0f, c.exactWeight());
    assertEquals(0.25f, c.phraseWeight());
    assertEquals(5f, c.shaBoost());
    assertEquals(4, c.weightUnits().get(SearchField.TITLE));
    assertEquals(0, c.weightUnits().get(SearchField.DATE));
    assertEquals(6, c.weightUnits().get(SearchField.SUMMARY)); // default 1.5, untouched
    assertEquals(List.of(SearchField.values()), List.copyOf(c.weightUnits().keySet()));
    assertEquals("index at " + index.toAbsolutePath(), c.location());
    assertEquals(
        Set.of(
            StoreCapability.DURABLE, StoreCapability.ATOMIC_BATCH, StoreCapability.PASSAGE_VECTORS),
        c.capabilities());
  }

  @Test
  void config_opensNothing_andIsNotChangedByTheBuilderAfterwards() {
    Path index = tmp.resolve("not-yet");
    LuceneMemoryStore.Builder b = LuceneMemoryStore.builder().directory(index).readOnly();
    LuceneStoreConfig c = b.config();
    b.efSearch(7).fieldBoost(SearchField.TITLE, 8);

    assertFalse(Files.exists(index), "resolving the settings created " + index);
    assertEquals(LuceneMemoryStore.Builder.DEFAULT_EF_SEARCH, c.efSearch());
    assertEquals(8, c.weightUnits().get(SearchField.TITLE)); // the default 2, not the 8 set later
    assertTrue(c.readOnly());
    assertThrows(
        UnsupportedOperationException.class, () -> c.weightUnits().put(SearchField.TITLE, 1));
  }

  @Test
  void config_checksTheSettingsAgainstEachOther() {
    assertEquals(
        "choose directory(Path) or inMemory()",
        assertThrows(IllegalStateException.class, () -> LuceneMemoryStore.builder().config())
            .getMessage());
    assertEquals(
        "readOnly() opens an index on disk: choose directory(Path)",
        assertThrows(
                IllegalStateException.class,
                () -> LuceneMemoryStore.builder().inMemory().readOnly().config())
            .getMessage());
    LuceneMemoryStore.Builder silent = LuceneMemoryStore.builder().inMemory().shaBoost(0);
    for (SearchField f : SearchField.values()) {
      silent.fieldBoost(f, 0);
    }
    assertEquals(
        "every field boost is 0: text search would find nothing",
        assertThrows(IllegalStateException.class, silent::config).getMessage());
  }

  @Test
  void config_withoutAWeightForEveryField_isRejected() {
    Map<SearchField, Integer> titleOnly = Map.of(SearchField.TITLE, 4);
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new LuceneStoreConfig(
                Optional.empty(),
                false,
                Optional.empty(),
                0,
                16,
                100,
                100,
                false,
                16,
                1,
                Duration.ZERO,
                Duration.ZERO,
                false,
                0,
                0,
                0,
                titleOnly));
  }
}
