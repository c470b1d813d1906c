package dev.memhook.lucene;

import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.store.Directory;

/** What the {@link Purges} tests share: a small index of two segments and a started purge. */
final class PurgesFixture {
  private PurgesFixture() {}

  /**
   * Writes documents {@code a} to {@code d} in two segments, two each, so that deleting one
   * document deletes no whole segment.
   */
  static void twoSegments(IndexWriter writer) throws IOException {
    for (String[] segment : new String[][] {{"a", "b"}, {"c", "d"}}) {
      for (String id : segment) {
        Document doc = new Document();
        doc.add(new StringField("id", id, Field.Store.NO));
        writer.addDocument(doc);
      }
      writer.commit();
    }
  }

  /**
   * Starts {@code purges} on {@code writer} behind a write path of its own; the searchers returned
   * are the caller's to close, after {@code purges}.
   */
  static FreshSearchers start(Purges purges, IndexWriter writer, Directory dir, RecordKeys keys)
      throws IOException {
    FreshSearchers searchers = new FreshSearchers(writer, "test index");
    WritePath writes =
        new WritePath(
            writer,
            dir,
            searchers,
            new RecordCache(0, ids -> Map.of()),
            keys,
            purges,
            "test index",
            Optional.empty(),
            false);
    purges.start(writer, writes);
    return searchers;
  }
}
