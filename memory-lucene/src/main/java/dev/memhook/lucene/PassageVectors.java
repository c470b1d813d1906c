package dev.memhook.lucene;

import static dev.memhook.lucene.IndexSchema.F_ID;
import static dev.memhook.lucene.IndexSchema.F_PASSAGES;

import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.MemoryStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.util.BytesRef;

/**
 * A memory's passage vectors as its document keeps them ({@link IndexSchema#F_PASSAGES}), and the
 * best cosine of one of them to a query for a few ids ({@link MemoryStore#passageCosines}).
 *
 * <h2>Design note</h2>
 *
 * The passages are one binary doc value on the memory's own document, so the write that stores,
 * replaces, supersedes or deletes the document takes them with it in the same update and commit,
 * and the purge's rewrite of its segment erases them with the rest of it. They are read as doc
 * values, where they lie, not as a stored field, whose read decompresses a block of records.
 *
 * <p>Encoding, format 1: a header of 6 bytes (the format, the number of passages, the dimension as
 * a big-endian int), then each passage as one signed byte per dimension, quantised against its
 * largest component: {@code b[i] = round(127 * v[i] / max|v|)}. So a passage takes exactly {@code
 * dimension} bytes (384 for a 384-dimension model), a quarter of its floats, and a memory at most
 * {@code 6 + 16 * dimension}. Quantising against the largest component rather than at a fixed 127
 * per unit uses the whole byte range whatever the dimension: the components of a unit vector of
 * many dimensions are small, and a fixed scale would give each only a few steps. No scale is
 * stored: a cosine does not depend on a vector's length, so the cosine with a unit query {@code q}
 * is {@code dot(q, b) / |b|}, both sums taken in one pass over the bytes. A zero passage has zero
 * bytes and a cosine of 0. Rounding moves each component by at most half a step, {@code max|v| /
 * 254}, and these errors, of either sign, keep a cosine well within the hundredth the contract
 * allows.
 *
 * <p>Stateless and thread-safe.
 */
final class PassageVectors {
  /** The encoding's format byte; another is not read (a newer Memhook wrote it). */
  static final byte FORMAT = 1;

  /** The header's length: the format, the number of passages and the dimension. */
  static final int HEADER = 6;

  private PassageVectors() {}

  /**
   * The doc-values field of {@code passages}, which must be checked ({@link
   * MemoryStore#checkPassages(Embedding, List)}) and not empty.
   */
  static BinaryDocValuesField field(List<Embedding> passages) {
    return new BinaryDocValuesField(F_PASSAGES, encode(passages));
  }

  /** The doc-values field of passages another document held, as it held them. */
  static BinaryDocValuesField field(BytesRef encoded) {
    return new BinaryDocValuesField(F_PASSAGES, encoded);
  }

  /** {@code passages} encoded: see the class note. */
  static BytesRef encode(List<Embedding> passages) {
    int count = passages.size();
    if (count == 0 || count > MemoryStore.MAX_PASSAGES) {
      throw new IllegalArgumentException("1 to " + MemoryStore.MAX_PASSAGES + " passages expected");
    }
    int dimension = passages.get(0).dimension();
    byte[] bytes = new byte[HEADER + count * dimension];
    bytes[0] = FORMAT;
    bytes[1] = (byte) count;
    bytes[2] = (byte) (dimension >>> 24);
    bytes[3] = (byte) (dimension >>> 16);
    bytes[4] = (byte) (dimension >>> 8);
    bytes[5] = (byte) dimension;
    int at = HEADER;
    for (Embedding passage : passages) {
      float[] v = passage.toArray();
      if (v.length != dimension) {
        throw new IllegalArgumentException("passages of dimensions " + dimension + ", " + v.length);
      }
      double max = 0;
      for (float x : v) {
        max = Math.max(max, Math.abs(x));
      }
      for (float x : v) {
        bytes[at++] = max == 0 ? 0 : (byte) Math.round(127 * (x / max));
      }
    }
    return new BytesRef(bytes);
  }

  /**
   * The highest cosine of one of the passages {@code encoded} holds to {@code unitQuery} (unit
   * length, or zero), clamped to [-1, 1]; NaN if {@code encoded} is not format 1 of {@code
   * unitQuery}'s dimension.
   */
  static double bestCosine(BytesRef encoded, float[] unitQuery) {
    byte[] b = encoded.bytes;
    int off = encoded.offset;
    if (encoded.length < HEADER || b[off] != FORMAT) {
      return Double.NaN;
    }
    int count = b[off + 1];
    int dimension =
        ((b[off + 2] & 0xFF) << 24)
            | ((b[off + 3] & 0xFF) << 16)
            | ((b[off + 4] & 0xFF) << 8)
            | (b[off + 5] & 0xFF);
    if (count < 1
        || dimension != unitQuery.length
        || encoded.length != HEADER + (long) count * dimension) {
      return Double.NaN;
    }
    double best = Double.NEGATIVE_INFINITY;
    int at = off + HEADER;
    for (int p = 0; p < count; p++) {
      float dot = 0;
      long squares = 0;
      for (int i = 0; i < dimension; i++) {
        int q = b[at++];
        dot += unitQuery[i] * q;
        squares += q * q;
      }
      best = Math.max(best, squares == 0 ? 0 : dot / Math.sqrt(squares));
    }
    return Math.max(-1.0, Math.min(1.0, best));
  }

  /**
   * For each of {@code ids} that is a latest memory of {@code scope} stored with passages, the best
   * cosine of one of them to {@code unitQuery}, keyed in the order asked. The ids are found in each
   * segment's postings ({@link LatestDocuments}), so the work is bounded by them; the passages and
   * ids are read from each segment's doc values in document order. Passages that do not decode
   * (written by a newer Memhook, or damaged) leave their memory out, reported to {@code
   * unreadable}.
   */
  static Map<MemoryId, Double> best(
      IndexSearcher searcher,
      Scope scope,
      Collection<MemoryId> ids,
      float[] unitQuery,
      UnreadableRecords unreadable)
      throws IOException {
    Set<MemoryId> asked = new LinkedHashSet<>(ids);
    List<BytesRef> terms = new ArrayList<>(asked.size());
    asked.forEach(id -> terms.add(new BytesRef(id.value())));
    Map<String, Double> found = new HashMap<>();
    LatestDocuments.find(
        searcher,
        scope,
        F_ID,
        terms,
        (reader, docs, n) -> {
          BinaryDocValues passages = reader.getBinaryDocValues(F_PASSAGES);
          BinaryDocValues idValues = reader.getBinaryDocValues(F_ID);
          if (passages == null || idValues == null) {
            return; // no memory of this segment has passages
          }
          for (int i = 0; i < n; i++) {
            int d = docs[i];
            if (!passages.advanceExact(d) || !idValues.advanceExact(d)) {
              continue;
            }
            String id = idValues.binaryValue().utf8ToString();
            double cosine = bestCosine(passages.binaryValue(), unitQuery);
            if (Double.isNaN(cosine)) {
              unreadable.reportPassages(id);
            } else {
              found.put(id, cosine);
            }
          }
        });
    Map<MemoryId, Double> out = new LinkedHashMap<>();
    for (MemoryId id : asked) {
      Double cosine = found.get(id.value());
      if (cosine != null) {
        out.put(id, cosine);
      }
    }
    return out;
  }

  /**
   * A copy of the passages the document {@code doc} of {@code searcher} holds as encoded, or null
   * if it has none: what a rewrite of the document keeps.
   */
  static BytesRef stored(IndexSearcher searcher, int doc) throws IOException {
    List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
    LeafReaderContext leaf = leaves.get(ReaderUtil.subIndex(doc, leaves));
    BinaryDocValues passages = leaf.reader().getBinaryDocValues(F_PASSAGES);
    if (passages == null || !passages.advanceExact(doc - leaf.docBase)) {
      return null;
    }
    return BytesRef.deepCopyOf(passages.binaryValue());
  }
}
