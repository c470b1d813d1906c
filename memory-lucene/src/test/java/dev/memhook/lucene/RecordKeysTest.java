package dev.memhook.lucene;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.MemoryId;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecordKeysTest {
  @TempDir Path index;

  @Test
  void aKey_isTheSameForItsMemory_andSurvivesReopening_onceSynced() throws IOException {
    byte[] key;
    try (RecordKeys keys = RecordKeys.open(index, false)) {
      key = keys.keyFor(MemoryId.of("m1"));
      assertArrayEquals(key, keys.keyFor(MemoryId.of("m1")), "one key per memory");
      assertFalse(Arrays.equals(key, keys.keyFor(MemoryId.of("m2"))), "another memory's differs");
      keys.sync();
    }
    try (RecordKeys keys = RecordKeys.open(index, true)) {
      assertArrayEquals(key, keys.existing(MemoryId.of("m1")).orElseThrow());
      assertEquals(2, keys.size());
    }
  }

  @Test
  void destroy_removesTheKeyFromEveryFile_andKeepsTheOthers() throws IOException {
    List<MemoryId> ids = new ArrayList<>();
    byte[] gone;
    try (RecordKeys keys = RecordKeys.open(index, false)) {
      for (int i = 0; i < 500; i++) {
        ids.add(MemoryId.of("m" + i));
        keys.keyFor(ids.get(i));
      }
      gone = keys.existing(ids.get(7)).orElseThrow();
      keys.sync();
      assertFalse(filesContaining(gone).isEmpty(), "the key is on disk before");

      assertEquals(1, keys.destroy(List.of(ids.get(7), MemoryId.of("never-had-one"))));

      assertEquals(List.of(), filesContaining(gone), "no file holds the destroyed key");
      assertTrue(keys.existing(ids.get(7)).isEmpty());
      assertTrue(keys.destroyed(ids.get(7)));
      assertFalse(keys.destroyed(ids.get(8)));
      assertEquals(0, keys.destroy(List.of(ids.get(7))), "idempotent");
    }
    try (RecordKeys keys = RecordKeys.open(index, false)) {
      assertEquals(499, keys.size());
      assertTrue(keys.existing(ids.get(7)).isEmpty());
      assertFalse(keys.destroyed(ids.get(7)), "a new instance knows only its own");
      byte[] again = keys.keyFor(ids.get(7));
      assertFalse(Arrays.equals(gone, again), "a memory stored again gets a new key");
    }
  }

  @Test
  void aTornLastEntry_isDropped_butADamagedEarlierOne_failsAWritableOpen_andIsSkippedReadOnly()
      throws IOException {
    try (RecordKeys keys = RecordKeys.open(index, false)) {
      for (int i = 0; i < 200; i++) {
        keys.keyFor(MemoryId.of("m" + i));
      }
      keys.sync();
    }
    Path shard = largestShard();
    byte[] bytes = Files.readAllBytes(shard);
    int entries = (bytes.length - 8) / 36;
    assertTrue(entries >= 3, "a shard with a few keys");

    Files.write(shard, Arrays.copyOf(bytes, bytes.length - 5)); // a torn append
    try (RecordKeys keys = RecordKeys.open(index, false)) {
      assertEquals(199, keys.size(), "the torn entry is dropped");
    }

    byte[] damaged = bytes.clone();
    damaged[8 + 36 + 3] ^= 0x40; // inside the second entry
    Files.write(shard, damaged);
    IOException e = assertThrows(IOException.class, () -> RecordKeys.open(index, false));
    assertTrue(e.getMessage().contains("damaged"), e.getMessage());
    try (RecordKeys keys = RecordKeys.open(index, true)) {
      assertEquals(200 - (entries - 1), keys.size(), "read-only keeps the keys before the damage");
    }
  }

  @Test
  void aRewriteCutShortByACrash_leavesTheOldShard_andItsTemporaryFileIsDeleted()
      throws IOException {
    try (RecordKeys keys = RecordKeys.open(index, false)) {
      keys.keyFor(MemoryId.of("m1"));
      keys.sync();
    }
    Path shard = largestShard();
    Path temp = shard.resolveSibling(shard.getFileName() + ".tmp");
    Files.write(temp, new byte[] {1, 2, 3});
    try (RecordKeys keys = RecordKeys.open(index, false)) {
      assertTrue(keys.existing(MemoryId.of("m1")).isPresent());
    }
    assertFalse(Files.exists(temp));
  }

  @Test
  void readOnlyKeys_refuseToMakeOrDestroyKeys() throws IOException {
    try (RecordKeys keys = RecordKeys.open(index, true)) {
      assertThrows(IllegalStateException.class, () -> keys.keyFor(MemoryId.of("m1")));
      assertThrows(IllegalStateException.class, () -> keys.destroy(List.of(MemoryId.of("m1"))));
    }
    assertFalse(Files.exists(index.resolve(RecordKeys.DIRECTORY)), "nothing created");
  }

  private Path largestShard() throws IOException {
    try (Stream<Path> files = Files.list(index.resolve(RecordKeys.DIRECTORY))) {
      return files
          .max(
              (a, b) -> {
                try {
                  return Long.compare(Files.size(a), Files.size(b));
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              })
          .orElseThrow();
    }
  }

  private List<Path> filesContaining(byte[] needle) throws IOException {
    List<Path> out = new ArrayList<>();
    try (Stream<Path> files = Files.walk(index)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        byte[] hay = Files.readAllBytes(f);
        for (int i = 0; i + needle.length <= hay.length; i++) {
          if (Arrays.equals(hay, i, i + needle.length, needle, 0, needle.length)) {
            out.add(f);
            break;
          }
        }
      }
    }
    return out;
  }
}
