package dev.memhook.lucene;

import static dev.memhook.lucene.LuceneStoreFixtures.A;
import static dev.memhook.lucene.LuceneStoreFixtures.B;
import static dev.memhook.lucene.LuceneStoreFixtures.T0;
import static dev.memhook.lucene.LuceneStoreFixtures.memory;
import static dev.memhook.lucene.LuceneStoreFixtures.open;
import static dev.memhook.lucene.LuceneStoreFixtures.vector;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryType;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.TypeListing;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the Lucene store adds to the listing contract: a scope of many observations lists its few
 * memories of the asked types, and memories indexed before the index held the listing's fields
 * (type, importance, time) are listed by their records, in the same order as the rest.
 */
class LuceneMemoryStoreListByTypeTest {

  @TempDir Path dir;

  @Test
  void aScopeOfManyObservations_listsOnlyItsFewMemoriesOfTheAskedTypes() {
    try (LuceneMemoryStore store = LuceneStoreFixtures.inMemory()) {
      Map<Memory, Embedding> batch = new LinkedHashMap<>();
      for (int i = 0; i < 2_000; i++) {
        batch.put(
            memory("obs-" + i, A, "ran the build " + i).toBuilder()
                .type(MemoryType.OBSERVATION)
                .build(),
            vector(i));
      }
      batch.put(typed("pref", MemoryType.PREFERENCE, 0.2, 5), vector(1));
      batch.put(typed("fact", MemoryType.FACT, 0.9, 9), vector(2));
      batch.put(
          memory("theirs", B, "their preference").toBuilder().type(MemoryType.PREFERENCE).build(),
          vector(3));
      store.putAll(batch);

      TypeListing listed = store.listByType(A, List.of(MemoryType.PREFERENCE, MemoryType.FACT), 25);

      assertEquals(List.of("pref", "fact"), ids(listed));
      assertEquals(2, listed.total());
    }
  }

  @Test
  void memoriesIndexedBeforeTheListingFields_areListedByTheirRecords_inTheSameOrder()
      throws IOException {
    Path index = dir.resolve("index");
    Memory oldImportant = typed("old-important", MemoryType.FACT, 0.9, 0);
    Memory oldPreference = typed("old-pref", MemoryType.PREFERENCE, 0.1, 0);
    Memory oldObservation = typed("old-obs", MemoryType.OBSERVATION, 1.0, 0);
    try (LuceneMemoryStore store = open(index)) {
      store.put(oldImportant, vector(1));
      store.put(oldPreference, vector(2));
      store.put(oldObservation, vector(3));
      store.put(typed("new-fact", MemoryType.FACT, 0.5, 30), vector(4));
      store.put(typed("new-pref", MemoryType.PREFERENCE, 0.5, 30), vector(5));
    }
    asWrittenBeforeTheListingFields(
        index, List.of(oldImportant.id(), oldPreference.id(), oldObservation.id()), A.value());

    try (LuceneMemoryStore store = open(index)) {
      TypeListing all = store.listByType(A, List.of(MemoryType.PREFERENCE, MemoryType.FACT), 10);
      assertEquals(List.of("new-pref", "old-pref", "old-important", "new-fact"), ids(all));
      assertEquals(4, all.total());
      assertEquals(oldImportant, all.memories().get(2), "read back from its record");

      TypeListing three = store.listByType(A, List.of(MemoryType.PREFERENCE, MemoryType.FACT), 3);
      assertEquals(List.of("new-pref", "old-pref", "old-important"), ids(three));
      assertEquals(4, three.total());
    }
  }

  /**
   * Rewrites the documents of {@code ids} as an index of the previous version held them, as far as
   * a listing can tell: kind, id, live scope and record, without type, importance and time.
   */
  private static void asWrittenBeforeTheListingFields(Path index, List<MemoryId> ids, String scope)
      throws IOException {
    try (Directory d = FSDirectory.open(index);
        IndexWriter w =
            new IndexWriter(
                d, new IndexWriterConfig().setOpenMode(IndexWriterConfig.OpenMode.APPEND))) {
      MemoryJson records = new MemoryJson(RecordKeys.open(index, true));
      for (MemoryId id : ids) {
        String record;
        try (DirectoryReader reader = DirectoryReader.open(w)) {
          IndexSearcher searcher = new IndexSearcher(reader);
          ScoreDoc hit = searcher.search(new TermQuery(IndexSchema.idTerm(id)), 1).scoreDocs[0];
          Memory m = records.readMemory(searcher.storedFields().document(hit.doc)).orElseThrow();
          // as the previous version stored it: plain sealed JSON
          record = MemoryJson.seal(new MemoryRecordJson(RecordLimits.MAX_RECORD_CHARS).write(m));
        }
        Document old = new Document();
        old.add(new StringField(IndexSchema.F_KIND, IndexSchema.KIND_MEMORY, Field.Store.NO));
        old.add(new StringField(IndexSchema.F_ID, id.value(), Field.Store.NO));
        old.add(new BinaryDocValuesField(IndexSchema.F_ID, new BytesRef(id.value())));
        old.add(new StringField(IndexSchema.F_LIVE, scope, Field.Store.NO));
        old.add(new SortedDocValuesField(IndexSchema.F_LIVE, new BytesRef(scope)));
        old.add(new StoredField(IndexSchema.F_JSON, record));
        w.updateDocument(IndexSchema.idTerm(id), old);
      }
      w.commit();
    }
  }

  private static Memory typed(String id, MemoryType type, double importance, int seconds) {
    return memory(id, A, "memory " + id).toBuilder()
        .type(type)
        .importance(importance)
        .createdAt(T0.plusSeconds(seconds))
        .build();
  }

  private static List<String> ids(TypeListing listing) {
    return listing.memories().stream().map(m -> m.id().value()).toList();
  }
}
