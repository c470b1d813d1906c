package dev.memhook.lucene;

import static dev.memhook.lucene.LuceneStoreFixtures.A;
import static dev.memhook.lucene.LuceneStoreFixtures.SPACE;
import static dev.memhook.lucene.LuceneStoreFixtures.memory;
import static dev.memhook.lucene.LuceneStoreFixtures.open;
import static dev.memhook.lucene.LuceneStoreFixtures.vector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.MemoryStoreException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** IndexInfo reads a commit without a store, beside a store that holds the directory. */
class IndexInfoTest {
  @TempDir Path dir;

  @Test
  void read_describesTheCommit_andTellsWhetherAWriterHoldsIt() {
    try (LuceneMemoryStore store = open(dir)) {
      store.put(memory("m1", A, "the gateway timeout is 30 seconds"), vector(0));
      store.flush();
      IndexInfo open = IndexInfo.read(dir);
      assertTrue(open.writeLocked());
      assertEquals(SPACE, open.space());
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
    try (LuceneMemoryStore store = open(dir)) {
      store.put(memory("m1", A, "the gateway timeout is 30 seconds"), vector(0));
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

  @Test
  void read_besideAStoreThatCommitsAndMerges_neverFailsOnFilesItsCommitLost() throws Exception {
    // Each flush commits, and merges delete the files of older commits: a reader that measured a
    // commit's files after a newer commit replaced it met a missing file.
    try (LuceneMemoryStore store = open(dir)) {
      store.put(memory("m0", A, "the first memory"), vector(0));
      store.flush();
      java.util.concurrent.atomic.AtomicBoolean stop =
          new java.util.concurrent.atomic.AtomicBoolean();
      java.util.concurrent.atomic.AtomicReference<Throwable> writerFailed =
          new java.util.concurrent.atomic.AtomicReference<>();
      Thread writer =
          new Thread(
              () -> {
                try {
                  for (int i = 1; !stop.get() && i < 5_000; i++) {
                    store.put(memory("m" + i, A, "memory number " + i), vector(i % 8));
                    store.flush();
                  }
                } catch (Throwable t) {
                  writerFailed.set(t);
                }
              });
      writer.start();
      try {
        for (int i = 0; i < 300 && writer.isAlive(); i++) {
          IndexInfo info = IndexInfo.read(dir);
          assertTrue(info.documents() >= 1, "documents: " + info.documents());
          assertTrue(info.sizeBytes() > 0);
        }
      } finally {
        stop.set(true);
        writer.join();
      }
      assertEquals(null, writerFailed.get());
    }
  }
}
