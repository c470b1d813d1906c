package dev.memhook.lucene;

import static dev.memhook.lucene.LuceneStoreFixtures.A;
import static dev.memhook.lucene.LuceneStoreFixtures.B;
import static dev.memhook.lucene.LuceneStoreFixtures.SPACE;
import static dev.memhook.lucene.LuceneStoreFixtures.T0;
import static dev.memhook.lucene.LuceneStoreFixtures.ids;
import static dev.memhook.lucene.LuceneStoreFixtures.memory;
import static dev.memhook.lucene.LuceneStoreFixtures.open;
import static dev.memhook.lucene.LuceneStoreFixtures.vector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.ExportResult;
import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryStoreException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Damage is contained: an unreadable record costs that record only, a damaged index opens read-only
 * to export what is readable, and each failure to open says what is wrong and what to do.
 */
class LuceneMemoryStoreDamageTest {
  @TempDir Path dir;

  private static final List<MemoryId> GOOD =
      List.of(MemoryId.of("m1"), MemoryId.of("m2"), MemoryId.of("m3"));
  private static final MemoryId BROKEN = MemoryId.of("broken");

  /** Three good memories about kafka in scope A and one whose stored record is not JSON. */
  private Path damagedIndex() throws IOException {
    Path index = dir.resolve("index");
    try (LuceneMemoryStore store = open(index)) {
      for (int i = 0; i < GOOD.size(); i++) {
        store.put(memory(GOOD.get(i).value(), A, "kafka consumer lag " + i), vector(i));
      }
      store.put(memory("other", B, "kafka in another scope"), vector(5));
    }
    DamagedIndexes.addUnreadableMemory(
        index, BROKEN.value(), A, "kafka broken", vector(0).normalized().toArray());
    return index;
  }

  @Test
  void anUnreadableRecord_isSkippedByReadsOfSeveral_countedOnce_andGetOfItSaysWhatToDo()
      throws IOException {
    Path index = damagedIndex();
    try (LuceneMemoryStore store = open(index)) {
      assertTrue(ids(store.searchText(A, "kafka", 10)).contains(BROKEN.value()));
      assertTrue(ids(store.searchVector(A, vector(0), 10)).contains(BROKEN.value()));

      List<MemoryId> asked = List.of(GOOD.get(0), BROKEN, GOOD.get(1), GOOD.get(2));
      Map<MemoryId, Memory> read = store.getAll(asked);
      assertEquals(GOOD, List.copyOf(read.keySet()), "the readable ones, in the order asked");
      assertEquals(1, store.unreadableRecords());
      store.getAll(asked);
      assertEquals(1, store.unreadableRecords(), "counted once per record");

      MemoryStoreException e = assertThrows(MemoryStoreException.class, () -> store.get(BROKEN));
      assertTrue(e.getMessage().contains("broken"), e.getMessage());
      assertTrue(e.getMessage().contains("readOnly()"), e.getMessage());
      assertEquals(new ExportResult(4, 1), store.export(m -> {}));

      // a write replaces the damaged record, and it is readable again
      store.put(memory(BROKEN.value(), A, "kafka repaired"), vector(0));
      assertEquals("kafka repaired", store.get(BROKEN).orElseThrow().content());
    }
  }

  @Test
  void aDamagedIndex_openedReadOnly_exportsEveryReadableMemory_andRefusesWrites()
      throws IOException {
    Path index = damagedIndex();
    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder().directory(index).readOnly().build()) {
      store.attach(SPACE);
      Map<MemoryId, Memory> exported = new HashMap<>();
      ExportResult result = store.export(m -> exported.put(m.id(), m));
      assertEquals(new ExportResult(4, 1), result);
      assertEquals(
          List.of("m1", "m2", "m3", "other"),
          exported.keySet().stream().map(MemoryId::value).sorted().toList());
      assertEquals(3, ids(store.searchText(A, "kafka", 10)).size() - 1, "searches work");

      IllegalStateException put =
          assertThrows(
              IllegalStateException.class, () -> store.put(memory("new", A, "x"), vector(1)));
      assertTrue(put.getMessage().contains("read-only"), put.getMessage());
      assertThrows(
          IllegalStateException.class,
          () -> store.delete(GOOD.get(0), new ForgetRecord(GOOD.get(0), A, "a", "r", T0)));
      assertThrows(IllegalStateException.class, () -> store.forceMerge(1));
    }
  }

  @Test
  void readOnly_takesNoLock_soItOpensBesideAWriter() {
    Path index = dir.resolve("index");
    try (LuceneMemoryStore writer = open(index)) {
      writer.put(memory("m1", A, "kafka"), vector(1));
      try (LuceneMemoryStore reader =
          LuceneMemoryStore.builder().directory(index).readOnly().build()) {
        assertEquals(1, reader.count(A));
      }
    }
  }

  /** A closed index holding memory m1, "kafka", in scope A. */
  private Path indexWithOneMemory() {
    Path index = dir.resolve("index");
    try (LuceneMemoryStore store = open(index)) {
      store.put(memory("m1", A, "kafka"), vector(1));
    }
    return index;
  }

  /**
   * Each way a directory shows that it cannot be written, simulated by a file system view so that
   * it holds when the tests run as root (as in CI), where permissions do not stop writes.
   */
  @ParameterizedTest
  @EnumSource(UnwritableFileSystem.Refusal.class)
  void aDirectoryThatCannotBeWritten_isReportedAsReadOnlyWithWhatToDo_andOpensReadOnly(
      UnwritableFileSystem.Refusal refusal) {
    Path index = indexWithOneMemory();
    Path unwritable = UnwritableFileSystem.view(index, refusal);

    MemoryStoreException e =
        assertThrows(
            MemoryStoreException.class,
            () -> LuceneMemoryStore.builder().directory(unwritable).build());
    assertReadOnlyError(
        e,
        index,
        refusal.readOnlyFileSystem
            ? "remount the file system read-write"
            : "give the user this process runs as write permission");

    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder().directory(unwritable).readOnly().build()) {
      assertEquals("kafka", store.get(MemoryId.of("m1")).orElseThrow().content());
    }
    try (LuceneMemoryStore store = open(index)) {
      assertEquals(1, store.count(A), "the failed open left no lock and changed nothing");
    }
  }

  /** The same as {@link UnwritableFileSystem.Refusal#NO_WRITE_PERMISSION}, by the real OS. */
  @Test
  void aDirectoryWithoutWritePermission_isReportedAsReadOnly_whenNotRunAsRoot() throws IOException {
    Assumptions.assumeFalse(
        "root".equals(System.getProperty("user.name")), "root ignores directory permissions");
    Path index = indexWithOneMemory();
    Files.setPosixFilePermissions(index, PosixFilePermissions.fromString("r-xr-xr-x"));
    try {
      Assumptions.assumeFalse(Files.isWritable(index), "the file system ignores permissions");
      MemoryStoreException e =
          assertThrows(
              MemoryStoreException.class,
              () -> LuceneMemoryStore.builder().directory(index).build());
      assertReadOnlyError(e, index, "give the user this process runs as write permission");
      try (LuceneMemoryStore store =
          LuceneMemoryStore.builder().directory(index).readOnly().build()) {
        assertEquals("kafka", store.get(MemoryId.of("m1")).orElseThrow().content());
      }
    } finally {
      Files.setPosixFilePermissions(index, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
  }

  /** Says which index is read-only, the remedy for its cause, and the read-only way to open it. */
  private static void assertReadOnlyError(MemoryStoreException e, Path index, String remedy) {
    String message = e.getMessage();
    assertTrue(
        message.startsWith("the index at " + index.toAbsolutePath() + " is read-only"), message);
    assertTrue(message.contains(remedy), message);
    assertTrue(message.contains("or open it with readOnly() to read and export it"), message);
  }

  @Test
  void aPathThatIsAFile_isReportedAsSuch() throws IOException {
    Path file = Files.writeString(dir.resolve("not-a-dir"), "x");
    MemoryStoreException e =
        assertThrows(
            MemoryStoreException.class, () -> LuceneMemoryStore.builder().directory(file).build());
    assertTrue(e.getMessage().contains("is a file, not a directory"), e.getMessage());
  }

  @Test
  void aDirectoryThatCannotBeCreated_isReportedAsSuch_notAsDamage() throws IOException {
    Path file = Files.writeString(dir.resolve("a-file"), "x");
    Path index = file.resolve("index"); // its parent is a file: no directory can be made there
    MemoryStoreException e =
        assertThrows(
            MemoryStoreException.class, () -> LuceneMemoryStore.builder().directory(index).build());
    assertTrue(
        e.getMessage().startsWith("could not create the index directory " + index.toAbsolutePath()),
        e.getMessage());
    assertFalse(e.getMessage().contains("damaged"), e.getMessage());
    assertEquals("x", Files.readString(file), "the file in the way is left as it was");
  }

  @Test
  void aTruncatedSegment_isReportedAsDamaged_andReadOnlyOpenSalvagesTheOtherSegments()
      throws IOException {
    Path index = dir.resolve("index");
    try (LuceneMemoryStore store = open(index)) {
      store.put(memory("m1", A, "kafka one"), vector(1));
      store.forceMerge(1);
      store.put(memory("m2", A, "kafka two"), vector(2)); // a second, small segment
    }
    Path truncated = DamagedIndexes.truncateLargestFile(index);
    MemoryStoreException e =
        assertThrows(
            MemoryStoreException.class, () -> LuceneMemoryStore.builder().directory(index).build());
    assertTrue(e.getMessage().contains("is damaged"), e.getMessage());
    assertTrue(e.getMessage().contains("readOnly()"), e.getMessage());
    assertTrue(e.getMessage().contains("backup"), e.getMessage());
    assertTrue(
        e.getMessage().contains(truncated.getFileName().toString().substring(0, 3)),
        "names the file: " + e.getMessage());

    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder().directory(index).readOnly().build()) {
      ExportResult result = store.export(m -> {});
      assertEquals(1, result.exported(), "the intact segment's memory");
      assertTrue(result.unreadable() >= 1, "the damaged segment is counted: " + result);
    }
  }

  @Test
  void aRecordChangedOnDiskWhileOpen_isReportedUnreadable_neverReadAsAnotherMemory()
      throws IOException {
    Path index = dir.resolve("index");
    MemoryId changed = MemoryId.of("m1");
    MemoryId intact = MemoryId.of("m2");
    try (LuceneMemoryStore store = open(index)) {
      store.put(memory("m1", A, "the deploy token is zqxjkvbwpf"), vector(1));
      store.put(memory("m2", A, "kafka consumer lag"), vector(2));
    }
    try (LuceneMemoryStore store = open(index)) {
      DamagedIndexes.flipInSealedRecord(index, changed);

      MemoryStoreException e = assertThrows(MemoryStoreException.class, () -> store.get(changed));
      assertTrue(e.getMessage().contains("unreadable"), e.getMessage());
      assertEquals(
          List.of(intact),
          List.copyOf(store.getAll(List.of(changed, intact)).keySet()),
          "the other memory is unaffected");
      assertEquals(new ExportResult(1, 1), store.export(m -> {}));
    }
  }

  @Test
  void anIndexChangedOnDisk_failsToOpenForWriting_andOpensReadOnlyWithoutTheDamagedSegment()
      throws IOException {
    Path index = dir.resolve("index");
    try (LuceneMemoryStore store = open(index)) {
      store.put(memory("m1", A, "the deploy token is zqxjkvbwpf"), vector(1));
      store.put(memory("m2", A, "kafka consumer lag"), vector(2)); // a second segment
    }
    DamagedIndexes.flipInSealedRecord(index, MemoryId.of("m1"));

    MemoryStoreException e =
        assertThrows(
            MemoryStoreException.class, () -> LuceneMemoryStore.builder().directory(index).build());
    assertTrue(e.getMessage().contains("is damaged"), e.getMessage());
    assertTrue(e.getMessage().contains("readOnly()"), e.getMessage());

    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder().directory(index).readOnly().build()) {
      assertTrue(store.get(MemoryId.of("m1")).isEmpty(), "its segment is left out");
      assertEquals("kafka consumer lag", store.get(MemoryId.of("m2")).orElseThrow().content());
      assertEquals(1, store.unreadableRecords(), "the left-out segment's one memory");
      assertEquals(new ExportResult(1, 1), store.export(m -> {}), "the left-out one counted");
    }
  }

  @Test
  void anIndexThatLostItsCommitPoint_failsToOpenAsDamaged_andKeepsItsFiles() throws IOException {
    Path index = dir.resolve("index");
    try (LuceneMemoryStore store = open(index)) {
      store.put(memory("m1", A, "kafka"), vector(1));
    }
    try (Stream<Path> files = Files.list(index)) {
      for (Path f : files.filter(f -> f.getFileName().toString().startsWith("segments")).toList()) {
        Files.delete(f);
      }
    }
    List<String> before = fileNames(index);

    for (boolean readOnly : new boolean[] {false, true}) {
      LuceneMemoryStore.Builder b = LuceneMemoryStore.builder().directory(index);
      MemoryStoreException e =
          assertThrows(MemoryStoreException.class, () -> (readOnly ? b.readOnly() : b).build());
      assertTrue(e.getMessage().contains("is damaged"), e.getMessage());
      assertTrue(e.getMessage().contains("no commit point"), e.getMessage());
      assertTrue(e.getMessage().contains("backup"), e.getMessage());
    }
    assertEquals(before, fileNames(index), "no new, empty index replaced the old files");
  }

  private static List<String> fileNames(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(f -> f.getFileName().toString()).sorted().toList();
    }
  }
}
