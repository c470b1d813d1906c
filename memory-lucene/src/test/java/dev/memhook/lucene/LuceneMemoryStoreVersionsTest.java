package dev.memhook.lucene;

import static dev.memhook.lucene.LuceneStoreFixtures.A;
import static dev.memhook.lucene.LuceneStoreFixtures.B;
import static dev.memhook.lucene.LuceneStoreFixtures.DIM;
import static dev.memhook.lucene.LuceneStoreFixtures.SPACE;
import static dev.memhook.lucene.LuceneStoreFixtures.axes;
import static dev.memhook.lucene.LuceneStoreFixtures.ids;
import static dev.memhook.lucene.LuceneStoreFixtures.inMemory;
import static dev.memhook.lucene.LuceneStoreFixtures.memory;
import static dev.memhook.lucene.LuceneStoreFixtures.open;
import static dev.memhook.lucene.LuceneStoreFixtures.vector;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.spi.Embedding;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.KnnVectorValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Versions: a memory that is not latest is kept and read but never searched, and {@code
 * putNewVersion} supersedes the latest version in one write or, refused, writes nothing.
 */
class LuceneMemoryStoreVersionsTest {
  @TempDir Path dir;

  @Test
  void latestFalse_isNeverSearched_butIsReturnedByGet() {
    try (LuceneMemoryStore store = inMemory()) {
      Memory old =
          memory("old", A, "the flux capacitor needs 1.21 gigawatts").toBuilder()
              .concepts(List.of("flux"))
              .files(List.of("src/Flux.java"))
              .latest(false)
              .build();
      store.put(old, vector(3));
      assertTrue(store.searchText(A, "flux capacitor gigawatts", 10).isEmpty());
      assertTrue(store.searchVector(A, vector(3), 10).isEmpty());
      assertTrue(store.searchRelated(A, Set.of("flux"), Set.of("src/Flux.java"), 10).isEmpty());
      assertEquals(0, store.count(A));
      assertEquals(old, store.get(old.id()).orElseThrow());
      store.put(old.withLatest(true), vector(3));
      assertEquals(
          List.of("old"),
          ids(store.searchText(A, "flux capacitor", 10)),
          "an upsert flips it back");
    }
  }

  @ParameterizedTest(name = "groupCommit={0}")
  @ValueSource(booleans = {false, true})
  void putNewVersion_theOldVersionIsNoLongerSearched_butGetReturnsItAsNotLatest(
      boolean groupCommit) {
    LuceneMemoryStore.Builder builder = LuceneMemoryStore.builder().inMemory();
    if (groupCommit) {
      builder.groupCommit(Duration.ofMinutes(1));
    }
    try (LuceneMemoryStore store = builder.build()) {
      store.attach(SPACE);
      Memory v1 =
          memory("v1", A, "the flux capacitor needs 1.21 gigawatts").toBuilder()
              .concepts(List.of("flux"))
              .files(List.of("src/Flux.java"))
              .build();
      store.put(v1, vector(3));
      // No read between the put and the new version: superseding must find v1 all the same.
      Memory v2 = nextVersion(v1, "v2", "the warp core needs dilithium");
      store.putNewVersion(v2, vector(5));

      assertTrue(store.searchText(A, "flux capacitor gigawatts", 10).isEmpty());
      assertEquals(List.of("v2"), ids(store.searchText(A, "warp core dilithium", 10)));
      assertEquals(
          List.of("v2"), ids(store.searchVector(A, vector(3), 10)), "v1's vector is not searched");
      assertTrue(store.searchRelated(A, Set.of("flux"), Set.of("src/Flux.java"), 10).isEmpty());
      assertEquals(1, store.count(A));
      Memory old = store.get(v1.id()).orElseThrow();
      assertFalse(old.latest());
      assertEquals(v1.withLatest(false), old);
      assertEquals(v2, store.get(v2.id()).orElseThrow());
      assertEquals(
          List.of(v1.id(), v2.id()), List.copyOf(store.getAll(List.of(v1.id(), v2.id())).keySet()));
    }
  }

  @Test
  void putNewVersion_keepsTheOldVersionsTextAndVectorInTheIndex_acrossAReopen() throws IOException {
    Path index = dir.resolve("index");
    Memory v1 = memory("v1", A, "the flux capacitor");
    Memory v2 = nextVersion(v1, "v2", "the warp core");
    try (LuceneMemoryStore store = open(index)) {
      store.put(v1, axes(3f, 4f));
      store.putNewVersion(v2, vector(5));
    }
    try (LuceneMemoryStore store = open(index)) {
      assertEquals(v1.withLatest(false), store.get(v1.id()).orElseThrow());
      assertEquals(v2, store.get(v2.id()).orElseThrow());
      assertEquals(1, store.count(A));
    }
    try (Directory d = FSDirectory.open(index);
        DirectoryReader reader = DirectoryReader.open(d)) {
      IndexSearcher searcher = new IndexSearcher(reader);
      TopDocs top = searcher.search(new TermQuery(new Term(IndexSchema.F_ID, "v1")), 2);
      assertEquals(1, top.scoreDocs.length, "one document of v1: the superseded one");
      int doc = top.scoreDocs[0].doc;
      LeafReaderContext leaf = reader.leaves().get(ReaderUtil.subIndex(doc, reader.leaves()));
      FloatVectorValues vectors = leaf.reader().getFloatVectorValues(IndexSchema.F_VECTOR);
      assertNotNull(vectors);
      KnnVectorValues.DocIndexIterator it = vectors.iterator();
      assertEquals(doc - leaf.docBase, it.advance(doc - leaf.docBase), "v1 keeps a vector");
      float[] unit = new float[DIM];
      unit[0] = 0.6f;
      unit[1] = 0.8f;
      assertArrayEquals(
          unit,
          vectors.vectorValue(it.index()),
          1e-6f,
          "the vector v1 was put with, at unit length");
      assertEquals(
          1,
          searcher.count(new TermQuery(new Term(IndexSchema.F_TEXT, "capacitor"))),
          "v1 keeps its text");
    }
  }

  @Test
  void putNewVersion_ofAMemoryStoredWithoutVector_keepsItWithoutVector() {
    try (LuceneMemoryStore store = inMemory()) {
      Memory v1 = memory("v1", A, "the flux capacitor");
      store.put(v1, Embedding.of(new float[DIM]));
      Memory v2 = nextVersion(v1, "v2", "the warp core");
      store.putNewVersion(v2, vector(1));
      assertEquals(v1.withLatest(false), store.get(v1.id()).orElseThrow());
      assertEquals(List.of("v2"), ids(store.searchVector(A, vector(1), 10)));
    }
  }

  @Test
  void putNewVersion_ofAnUnknownId_throws_andWritesNothing() {
    try (LuceneMemoryStore store = inMemory()) {
      Memory v1 = memory("v1", A, "the flux capacitor");
      store.put(v1, vector(1));
      Memory orphan = nextVersion(memory("unknown", A, "x"), "v2", "the warp core");
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class, () -> store.putNewVersion(orphan, vector(2)));
      assertTrue(e.getMessage().contains("unknown"), e.getMessage());
      assertWroteNothing(store, orphan, v1);
    }
  }

  @Test
  void putNewVersion_ofAnAlreadySupersededVersion_throws_andWritesNothing() {
    try (LuceneMemoryStore store = inMemory()) {
      Memory v1 = memory("v1", A, "the flux capacitor");
      store.put(v1, vector(1));
      Memory v2 = nextVersion(v1, "v2", "the warp core");
      store.putNewVersion(v2, vector(2));
      Memory branch = nextVersion(v1, "v2b", "the impulse engine");
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class, () -> store.putNewVersion(branch, vector(3)));
      assertTrue(e.getMessage().contains("already superseded"), e.getMessage());
      assertWroteNothing(store, branch, v2);
      assertEquals(v1.withLatest(false), store.get(v1.id()).orElseThrow());
    }
  }

  @Test
  void putNewVersion_ofAnotherScopesMemory_throws_andWritesNothing() {
    try (LuceneMemoryStore store = inMemory()) {
      Memory v1 = memory("v1", A, "the flux capacitor");
      store.put(v1, vector(1));
      Memory elsewhere =
          memory("v2", B, "the warp core").toBuilder().version(2).supersedes(v1.id()).build();
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class, () -> store.putNewVersion(elsewhere, vector(2)));
      assertTrue(
          e.getMessage().contains(A.toString()) && e.getMessage().contains(B.toString()),
          e.getMessage());
      assertWroteNothing(store, elsewhere, v1);
      assertEquals(0, store.count(B));
    }
  }

  @Test
  void putNewVersion_ofAFirstVersion_orOfOneNotLatest_throws() {
    try (LuceneMemoryStore store = inMemory()) {
      Memory v1 = memory("v1", A, "the flux capacitor");
      store.put(v1, vector(1));
      assertThrows(
          IllegalArgumentException.class,
          () -> store.putNewVersion(memory("first", A, "x"), vector(2)));
      Memory notLatest = nextVersion(v1, "v2", "the warp core").withLatest(false);
      assertThrows(IllegalArgumentException.class, () -> store.putNewVersion(notLatest, vector(2)));
      assertWroteNothing(store, notLatest, v1);
      assertThrows(NullPointerException.class, () -> store.putNewVersion(null, vector(2)));
      assertThrows(
          NullPointerException.class, () -> store.putNewVersion(nextVersion(v1, "v2", "x"), null));
    }
  }

  /**
   * Asserts that a refused {@code putNewVersion} of {@code rejected} left {@code latest} as it was,
   * and that the refusal did not stop the store from writing (it adds a memory to check).
   */
  private static void assertWroteNothing(LuceneMemoryStore store, Memory rejected, Memory latest) {
    assertTrue(store.get(rejected.id()).isEmpty(), "the rejected version is not stored");
    assertEquals(latest, store.get(latest.id()).orElseThrow(), "the latest version is unchanged");
    assertEquals(
        List.of(latest.id().value()), ids(store.searchVector(latest.scope(), vector(7), 10)));
    assertEquals(1, store.count(latest.scope()));
    Memory after = memory("after", latest.scope(), "written after the refusal");
    store.put(after, vector(4));
    assertEquals(
        List.of("after"),
        ids(store.searchText(latest.scope(), "refusal", 10)),
        "the store still writes");
  }

  private static Memory nextVersion(Memory previous, String id, String content) {
    return memory(id, previous.scope(), content).toBuilder()
        .version(previous.version() + 1)
        .supersedes(previous.id())
        .build();
  }
}
