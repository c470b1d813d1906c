package dev.memhook.lucene;

import static dev.memhook.lucene.LuceneStoreFixtures.A;
import static dev.memhook.lucene.LuceneStoreFixtures.SPACE;
import static dev.memhook.lucene.LuceneStoreFixtures.T0;
import static dev.memhook.lucene.LuceneStoreFixtures.memory;
import static dev.memhook.lucene.LuceneStoreFixtures.randomVector;
import static dev.memhook.lucene.LuceneStoreFixtures.vector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.ExportResult;
import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.testkit.Seeds;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the passage contract cannot see of the Lucene store: passages kept on disk across a reopen,
 * read from every segment and after merges, through a read-only open, kept by the rewrite of a
 * superseded version, out of the way of an export, and erased from the files by a forget's purge.
 */
class LuceneMemoryStorePassagesTest {
  @TempDir Path dir;

  @Test
  void passages_surviveCloseAndReopen() {
    Path index = dir.resolve("index");
    try (LuceneMemoryStore store = LuceneStoreFixtures.open(index)) {
      store.put(memory("m1", A, "two sentences"), vector(1), List.of(vector(3), vector(5)));
    }

    try (LuceneMemoryStore store = LuceneStoreFixtures.open(index)) {
      Map<MemoryId, Double> cosines = store.passageCosines(A, ids("m1"), vector(5));

      assertEquals(1.0, cosines.get(id("m1")), 0.01);
    }
  }

  @Test
  void passageCosines_readEverySegment_andStillAnswerAfterCompact() {
    long seed = Seeds.seed();
    Random random = new Random(seed);
    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder()
            .directory(dir.resolve("index"))
            .idleMerge(Duration.ZERO)
            .build()) {
      store.attach(SPACE);
      Map<MemoryId, Embedding> passages = new LinkedHashMap<>();
      for (int i = 0; i < 24; i++) {
        Embedding passage = randomVector(random);
        store.put(memory("m" + i, A, "note " + i), vector(i), List.of(passage));
        passages.put(id("m" + i), passage);
        if (i % 6 == 5) {
          store.count(A); // a read refreshes the searcher: each refresh flushes a segment
        }
      }
      assertTrue(store.segmentCount() > 1, "several segments: " + store.segmentCount());

      assertEachAnswersItsOwnPassages(store, passages, seed);

      store.compact();

      assertEquals(1, store.segmentCount());
      assertEachAnswersItsOwnPassages(store, passages, seed);
    }
  }

  @Test
  void putAll_inParts_keepsThePassagesOfEveryPart() {
    long seed = Seeds.seed();
    Random random = new Random(seed);
    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder().inMemory().workers(2).idleMerge(Duration.ZERO).build()) {
      store.attach(SPACE);
      Map<Memory, Embedding> batch = new LinkedHashMap<>();
      Map<MemoryId, List<Embedding>> passages = new LinkedHashMap<>();
      Map<MemoryId, Embedding> firstPassages = new LinkedHashMap<>();
      for (int i = 0; i < 3 * IndexWrites.MIN_PART; i++) {
        batch.put(memory("m" + i, A, "note " + i), vector(i));
        Embedding passage = randomVector(random);
        passages.put(id("m" + i), List.of(passage, randomVector(random)));
        firstPassages.put(id("m" + i), passage);
      }
      assertTrue(IndexWrites.parts(batch.size(), 2) > 1, "the batch is added in parts");

      store.putAll(batch, passages);

      assertEquals(
          batch.size(),
          store.passageCosines(A, List.copyOf(firstPassages.keySet()), vector(0)).size(),
          "every memory of every part has its passages");
      for (Map.Entry<MemoryId, Embedding> e : firstPassages.entrySet()) {
        assertEquals(
            1.0,
            store.passageCosines(A, List.of(e.getKey()), e.getValue()).get(e.getKey()),
            0.01,
            e.getKey() + "; " + Seeds.replay(seed));
      }
    }
  }

  @Test
  void aReadOnlyStore_answersPassageCosines_andRefusesPassages() {
    Path index = dir.resolve("index");
    try (LuceneMemoryStore store = LuceneStoreFixtures.open(index)) {
      store.put(memory("m1", A, "some words"), vector(1), List.of(vector(4)));
    }

    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder().directory(index).readOnly().build()) {
      store.attach(SPACE);

      assertEquals(1.0, store.passageCosines(A, ids("m1"), vector(4)).get(id("m1")), 0.01);
      assertThrows(
          IllegalStateException.class,
          () -> store.put(memory("m2", A, "more words"), vector(2), List.of(vector(4))));
    }
  }

  @Test
  void passageCosines_afterClose_throwIllegalState() {
    LuceneMemoryStore store = LuceneStoreFixtures.inMemory();
    store.close();

    assertThrows(IllegalStateException.class, () -> store.passageCosines(A, ids("m1"), vector(1)));
  }

  @Test
  void putNewVersion_rewritesTheSupersededVersion_withItsPassages() throws IOException {
    Path index = dir.resolve("index");
    Memory first = memory("m1", A, "the first version");
    try (LuceneMemoryStore store = LuceneStoreFixtures.open(index)) {
      store.put(first, vector(1), List.of(vector(4)));

      store.putNewVersion(
          memory("m2", A, "the second version").toBuilder()
              .version(2)
              .supersedes(first.id())
              .build(),
          vector(2));

      assertEquals(Map.of(), store.passageCosines(A, ids("m1", "m2"), vector(4)));
    }

    try (Directory directory = FSDirectory.open(index);
        DirectoryReader reader = DirectoryReader.open(directory)) {
      IndexSearcher searcher = new IndexSearcher(reader);
      assertNotNull(storedPassages(searcher, "m1"), "the superseded version keeps its passages");
      assertNull(storedPassages(searcher, "m2"), "the new version was put without any");
    }
  }

  @Test
  void exportWithVectors_handsEveryMemoryWithItsOwnVector_whetherItHasPassagesOrNot() {
    try (LuceneMemoryStore store = LuceneStoreFixtures.inMemory()) {
      store.put(memory("m1", A, "with passages"), vector(1), List.of(vector(4), vector(5)));
      store.put(memory("m2", A, "without"), vector(2));

      Map<String, Optional<Embedding>> exported = new LinkedHashMap<>();
      ExportResult result = store.exportWithVectors((m, e) -> exported.put(m.id().value(), e));

      assertEquals(new ExportResult(2, 0), result);
      assertEquals(Optional.of(vector(1).normalized()), exported.get("m1"));
      assertEquals(Optional.of(vector(2).normalized()), exported.get("m2"));
    }
  }

  @Test
  void purge_leavesNoFileHoldingAForgottenMemorysPassages() throws IOException {
    long seed = Seeds.seed();
    Random random = new Random(seed);
    String token = IndexFiles.uniqueToken(random);
    Path index = dir.resolve("index");
    try (LuceneMemoryStore store = LuceneMemoryStore.builder().directory(index).build()) {
      store.attach(new EmbeddingSpace("passages-model", 32));
      for (int i = 0; i < 10; i++) {
        store.put(memory("other" + i, A, "note " + i), wide(i), List.of(wide(i + 1)));
      }
      store.put(memory("secret", A, "a plain note"), wide(3), List.of(spelling(token)));
      store.forceMerge(1); // commits everything into one segment, whatever the policy
      assertFalse(
          IndexFiles.filesContaining(index, token).isEmpty(),
          "the passage's bytes spell the token in the files; " + Seeds.replay(seed));

      assertTrue(
          store.delete(id("secret"), new ForgetRecord(id("secret"), A, "alice", "asked", T0)));
      store.purge();

      assertEquals(
          List.of(),
          IndexFiles.filesContaining(index, token),
          "after purge; " + Seeds.replay(seed));
      assertEquals(10, store.passageCosines(A, otherIds(), wide(1)).size(), "the others stay");
    }
  }

  /**
   * A passage whose encoding is the byte 127 and then {@code token}'s letters: quantised against
   * its largest component, 127, each letter's code is its own byte.
   */
  private static Embedding spelling(String token) {
    float[] v = new float[32];
    v[0] = 127;
    for (int i = 0; i < token.length(); i++) {
      v[i + 1] = token.charAt(i);
    }
    return Embedding.of(v);
  }

  /** A vector of 32 dimensions along {@code axis}. */
  private static Embedding wide(int axis) {
    float[] v = new float[32];
    v[Math.floorMod(axis, 32)] = 1;
    return Embedding.of(v);
  }

  private static List<MemoryId> otherIds() {
    List<MemoryId> out = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      out.add(id("other" + i));
    }
    return out;
  }

  /**
   * Asked with each memory's passage as the query, the store answers every memory, in the order
   * asked, with the cosine of its own passage to it.
   */
  private static void assertEachAnswersItsOwnPassages(
      LuceneMemoryStore store, Map<MemoryId, Embedding> passages, long seed) {
    List<MemoryId> asked = List.copyOf(passages.keySet());
    for (Embedding query : passages.values()) {
      Map<MemoryId, Double> cosines = store.passageCosines(A, asked, query);
      assertEquals(asked, new ArrayList<>(cosines.keySet()), "every one, in the order asked");
      passages.forEach(
          (id, passage) ->
              assertEquals(
                  passage.cosine(query), cosines.get(id), 0.01, id + "; " + Seeds.replay(seed)));
    }
  }

  /** The passages the document of {@code id} holds, encoded, or null. */
  private static Object storedPassages(IndexSearcher searcher, String id) throws IOException {
    TopDocs top = searcher.search(new TermQuery(new Term(IndexSchema.F_ID, id)), 1);
    assertEquals(1, top.scoreDocs.length, id + " has a document");
    return PassageVectors.stored(searcher, top.scoreDocs[0].doc);
  }

  private static List<MemoryId> ids(String... ids) {
    List<MemoryId> out = new ArrayList<>();
    for (String id : ids) {
      out.add(id(id));
    }
    return out;
  }

  private static MemoryId id(String id) {
    return MemoryId.of(id);
  }
}
