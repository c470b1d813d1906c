package dev.memhook.lucene;

import static dev.memhook.lucene.IndexSchema.F_AUDIT_SCOPE;
import static dev.memhook.lucene.IndexSchema.F_ID;
import static dev.memhook.lucene.IndexSchema.F_JSON;
import static dev.memhook.lucene.IndexSchema.F_KIND;
import static dev.memhook.lucene.IndexSchema.F_VECTOR;
import static dev.memhook.lucene.IndexSchema.KIND_AUDIT;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryStoreException;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.StoreHit;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.KnnVectorValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.AlreadyClosedException;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads what searches found: the hits' ids and scores as callers see them, and the stored records
 * of memories and audit documents. Ids come from doc values, because a stored-fields read would
 * decompress a whole block of stored records per hit; records come from stored JSON, decoded by
 * {@link MemoryJson}.
 *
 * <p>Immutable and thread-safe; every method reads through the searcher it is given. A record that
 * does not decode is skipped by reads of several records and reported to {@link UnreadableRecords};
 * a read of one record that must exist ({@link #memory}) throws {@link MemoryStoreException} naming
 * the index.
 */
final class HitReader {
  private static final Logger LOG = LoggerFactory.getLogger(HitReader.class);

  private static final Set<String> JSON_ONLY = Set.of(F_JSON);

  /** The stored fields of a memory's record: encrypted, or plain from before. */
  private static final Set<String> RECORD_FIELDS = Set.of(IndexSchema.F_RECORD, F_JSON);

  private final MemoryJson json;
  private final String location;
  private final UnreadableRecords unreadable;

  HitReader(MemoryJson json, String location, UnreadableRecords unreadable) {
    this.json = json;
    this.location = location;
    this.unreadable = unreadable;
  }

  /** The first {@code k} hits of {@code top} with their raw scores. */
  static List<StoreHit> hits(IndexSearcher searcher, TopDocs top, int k) throws IOException {
    return read(searcher, top, k, false);
  }

  /**
   * The first {@code k} hits of a vector search, scored by cosine: Lucene scores {@link
   * IndexSchema#VECTOR_SIMILARITY} as {@code (1 + dot) / 2}, and the dot product of the unit
   * vectors the index holds is their cosine, so this undoes the scaling.
   */
  static List<StoreHit> cosineHits(IndexSearcher searcher, TopDocs top, int k) throws IOException {
    return read(searcher, top, k, true);
  }

  private static List<StoreHit> read(IndexSearcher searcher, TopDocs top, int k, boolean cosine)
      throws IOException {
    int n = Math.min(k, top.scoreDocs.length);
    String[] ids = ids(searcher, top.scoreDocs, n);
    List<StoreHit> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      if (!MemoryId.isValid(ids[i])) {
        // damaged doc values: that one hit is unavailable, not the search
        LOG.warn(
            "skipping a hit whose id doc value is damaged (document {})", top.scoreDocs[i].doc);
        continue;
      }
      float raw = top.scoreDocs[i].score;
      double score = cosine ? Math.max(-1.0, Math.min(1.0, 2.0 * raw - 1.0)) : raw;
      out.add(new StoreHit(MemoryId.of(ids[i]), score));
    }
    return List.copyOf(out);
  }

  /**
   * The ids of the first {@code n} hits, from the id's doc values. Doc-values iterators only go
   * forward, so the hits are visited in doc order, with one iterator per segment.
   */
  static String[] ids(IndexSearcher searcher, ScoreDoc[] hits, int n) throws IOException {
    long[] byDoc = new long[n]; // doc in the high half, the hit's rank in the low half
    for (int i = 0; i < n; i++) {
      byDoc[i] = ((long) hits[i].doc << 32) | i;
    }
    Arrays.sort(byDoc);
    List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
    String[] ids = new String[n];
    LeafReaderContext leaf = null;
    BinaryDocValues values = null;
    for (long key : byDoc) {
      int doc = (int) (key >>> 32);
      if (leaf == null || doc >= leaf.docBase + leaf.reader().maxDoc()) {
        leaf = leaves.get(ReaderUtil.subIndex(doc, leaves));
        values = leaf.reader().getBinaryDocValues(F_ID);
      }
      if (values == null || !values.advanceExact(doc - leaf.docBase)) {
        throw new IOException("memory document " + doc + " has no id doc value");
      }
      ids[(int) key] = values.binaryValue().utf8ToString();
    }
    return ids;
  }

  /**
   * The readable memories with these ids (latest or not); unknown and unreadable ids are absent.
   * Each id is looked up in each segment's term dictionary of the {@code id} field, which only
   * memory documents hold (a query for the set costs more than the lookups for the few ids a recall
   * reads), and the records are read in document order, as their stored blocks lie.
   */
  Map<MemoryId, Memory> memories(IndexSearcher searcher, Collection<MemoryId> ids)
      throws IOException {
    List<Integer> docs = new ArrayList<>(ids.size());
    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      Terms terms = leaf.reader().terms(F_ID);
      if (terms == null) {
        continue;
      }
      TermsEnum te = terms.iterator();
      Bits live = leaf.reader().getLiveDocs();
      PostingsEnum postings = null;
      for (MemoryId id : ids) {
        if (!te.seekExact(new BytesRef(id.value()))) {
          continue;
        }
        postings = te.postings(postings, PostingsEnum.NONE);
        for (int d = postings.nextDoc();
            d != DocIdSetIterator.NO_MORE_DOCS;
            d = postings.nextDoc()) {
          if (live == null || live.get(d)) {
            docs.add(leaf.docBase + d);
          }
        }
      }
    }
    docs.sort(null);
    StoredFields stored = searcher.storedFields();
    Map<MemoryId, Memory> out = new HashMap<>();
    int previous = -1;
    for (int doc : docs) {
      if (doc == previous) {
        continue; // an id asked for twice
      }
      previous = doc;
      Memory m = readable(searcher, stored, doc);
      if (m != null) {
        out.put(m.id(), m);
      }
    }
    return out;
  }

  /**
   * The record of the memory document {@code doc}, or null if it is unreadable (then it is reported
   * to the {@link UnreadableRecords}, by the id its doc values hold) or forgotten since the
   * searcher opened (its key is destroyed: not reported).
   */
  Memory readable(IndexSearcher searcher, StoredFields stored, int doc) throws IOException {
    try {
      return json.readMemory(stored.document(doc, RECORD_FIELDS)).orElse(null);
    } catch (AlreadyClosedException e) {
      throw e; // the store closed: not a damaged record
    } catch (IOException | RuntimeException | AssertionError e) {
      // an AssertionError is what Lucene's decompression throws on damaged bytes under -ea
      unreadable.report(idOf(searcher, doc), e);
      return null;
    }
  }

  /** The memory id of document {@code doc}, or a description of the document if it has none. */
  private static String idOf(IndexSearcher searcher, int doc) throws IOException {
    String[] id;
    try {
      id = ids(searcher, new ScoreDoc[] {new ScoreDoc(doc, 0)}, 1);
    } catch (IOException e) {
      return "document " + doc + " (no id)";
    }
    return id[0];
  }

  /** The record of the memory document {@code doc}, which must not be forgotten. */
  Memory memory(StoredFields stored, int doc) throws IOException {
    try {
      return json.readMemory(stored.document(doc, RECORD_FIELDS))
          .orElseThrow(() -> new IllegalArgumentException("its key is destroyed"));
    } catch (RuntimeException | AssertionError e) {
      throw unreadable("a memory record", e);
    }
  }

  /** The readable audit records of {@code scope}, oldest first (ties by id). */
  List<ForgetRecord> forgotten(IndexSearcher searcher, Scope scope) throws IOException {
    Query q =
        new BooleanQuery.Builder()
            .add(new TermQuery(new Term(F_KIND, KIND_AUDIT)), Occur.FILTER)
            .add(new TermQuery(new Term(F_AUDIT_SCOPE, scope.value())), Occur.FILTER)
            .build();
    int n = searcher.count(q);
    if (n == 0) {
      return List.of();
    }
    List<ForgetRecord> records = new ArrayList<>(n);
    StoredFields stored = searcher.storedFields();
    for (ScoreDoc sd : searcher.search(q, n).scoreDocs) {
      String text = stored.document(sd.doc, JSON_ONLY).get(F_JSON);
      try {
        records.add(json.readForget(text));
      } catch (RuntimeException e) {
        unreadable.report("an audit record of scope " + scope, e);
      }
    }
    records.sort(Comparator.comparing(ForgetRecord::at).thenComparing(r -> r.id().value()));
    return List.copyOf(records);
  }

  /**
   * Hands every readable audit record of every scope to {@code sink}, in index order; an unreadable
   * one is reported and skipped.
   *
   * @return how many were handed over
   */
  long exportForgotten(IndexSearcher searcher, Consumer<? super ForgetRecord> sink)
      throws IOException {
    Query q = new TermQuery(new Term(F_KIND, KIND_AUDIT));
    int n = searcher.count(q);
    if (n == 0) {
      return 0;
    }
    StoredFields stored = searcher.storedFields();
    long handed = 0;
    for (ScoreDoc sd : searcher.search(q, n).scoreDocs) {
      String text = stored.document(sd.doc, JSON_ONLY).get(F_JSON);
      ForgetRecord record;
      try {
        record = json.readForget(text);
      } catch (RuntimeException e) {
        unreadable.report("an audit record", e);
        continue;
      }
      sink.accept(record);
      handed++;
    }
    return handed;
  }

  /**
   * The vector the index holds for document {@code doc} (at unit length), or null if it has none.
   */
  static float[] vector(IndexSearcher searcher, int doc) throws IOException {
    List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
    LeafReaderContext leaf = leaves.get(ReaderUtil.subIndex(doc, leaves));
    FloatVectorValues vectors = leaf.reader().getFloatVectorValues(F_VECTOR);
    int target = doc - leaf.docBase;
    if (vectors != null) {
      KnnVectorValues.DocIndexIterator it = vectors.iterator();
      if (it.advance(target) == target) {
        return vectors.vectorValue(it.index()).clone();
      }
    }
    return null;
  }

  private MemoryStoreException unreadable(String what, Throwable e) {
    return new MemoryStoreException(
        what
            + " in the "
            + location
            + " is unreadable ("
            + e.getMessage()
            + "); the index is corrupt or was written by a newer Memhook: upgrade, or rebuild the index",
        e);
  }
}
