package dev.memhook.core.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryStoreException;
import dev.memhook.api.Scope;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** IndexInfo reads a commit without a store, beside a store that holds the directory. */
class IndexInfoTest {
  @TempDir Path dir;

  @Test
  void read_describesTheCommit_andTellsWhetherAWriterHoldsIt() {
    HashingEmbedder embedder = HashingEmbedder.create();
    try (MemoryService memory = Memhook.builder().directory(dir).embedder(embedder).build()) {
      memory.remember(MemoryDraft.of(Scope.DEFAULT, "the gateway timeout is 30 seconds"));
      memory.capture().flush(java.time.Duration.ofSeconds(5));
      IndexInfo open = IndexInfo.read(dir);
      assertTrue(open.writeLocked());
      assertEquals(embedder.space(), open.space());
    }
    IndexInfo closed = IndexInfo.read(dir);
    assertFalse(closed.writeLocked());
    assertEquals(LuceneMemoryStore.INDEX_FORMAT, closed.format());
    assertTrue(closed.formatSupported());
    assertEquals(1, closed.documents());
    assertTrue(closed.segments() >= 1);
    assertTrue(closed.sizeBytes() > 0);
    assertEquals(java.util.List.of(), IndexInfo.damagedSegments(dir));
  }

  @Test
  void damagedSegments_namesATruncatedSegment() throws Exception {
    try (MemoryService memory =
        Memhook.builder().directory(dir).embedder(HashingEmbedder.create()).build()) {
      memory.remember(MemoryDraft.of(Scope.DEFAULT, "the gateway timeout is 30 seconds"));
    }
    DamagedIndexes.truncateLargestFile(dir);
    assertEquals(1, IndexInfo.damagedSegments(dir).size());
  }

  @Test
  void read_ofADirectoryWithoutAnIndex_saysSo() throws Exception {
    MemoryStoreException e = assertThrows(MemoryStoreException.class, () -> IndexInfo.read(dir));
    assertTrue(e.getMessage().contains("no index"), e.getMessage());
    Path missing = dir.resolve("missing");
    assertFalse(Files.exists(missing));
    e = assertThrows(MemoryStoreException.class, () -> IndexInfo.read(missing));
    assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
  }
}
