package dev.memhook.postgres;

import dev.memhook.api.spi.Embedding;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * The {@code passages} column's encoding: a memory's passage vectors, each quantised to one signed
 * byte per dimension against its own largest component, {@code b[i] = round(127 * v[i] / max|v|)},
 * behind a six-byte header.
 *
 * <pre>
 * byte 0      format, {@value #FORMAT}
 * byte 1      passage count, 1 to {@link dev.memhook.api.spi.MemoryStore#MAX_PASSAGES}
 * bytes 2-5   dimension, int32 little-endian
 * then        count × dimension signed bytes, passage after passage
 * </pre>
 *
 * A memory without passages has none stored (the column is NULL), never a header with count 0. A
 * byte per dimension makes a passage a quarter of the size of the memory's own float32 vector.
 *
 * <p>The quantisation is the Lucene store's. Scaling each passage so that its largest component
 * becomes ±127 uses the whole byte range whatever the dimension: the components of a unit vector of
 * a few hundred dimensions are small, and a fixed 127 per unit would leave each of them only a few
 * steps, too coarse for the cosines of real embeddings. No scale is stored, since a cosine does not
 * depend on a vector's length: with a unit query {@code q}, {@link #bestCosine} computes {@code
 * dot(q, b) / |b|}, both sums in one pass over the bytes, and clamps it to [-1, 1]. Rounding moves
 * each component by at most half a step, {@code max|v| / 254}, and these errors, of either sign,
 * keep a cosine well within the hundredth the SPI allows; a passage still has a cosine of about 1
 * with itself. A zero passage (all bytes 0) has cosine 0 with anything, as has a zero query, never
 * NaN. The dimension is kept although the store's space fixes it, so that a row is checked on its
 * own before it is read.
 *
 * <p>Stateless and thread-safe.
 */
final class PassageBytes {
  /** The format byte this code writes and reads. */
  static final byte FORMAT = 1;

  private static final int HEADER = 6;

  private PassageBytes() {}

  /**
   * The column value of {@code passages}, each of {@code dimension} dimensions; null when there are
   * none. The caller has checked them ({@link dev.memhook.api.spi.MemoryStore#checkPassages}).
   */
  static byte[] encode(List<Embedding> passages, int dimension) {
    if (passages.isEmpty()) {
      return null;
    }
    ByteBuffer b =
        ByteBuffer.allocate(HEADER + passages.size() * dimension).order(ByteOrder.LITTLE_ENDIAN);
    b.put(FORMAT).put((byte) passages.size()).putInt(dimension);
    for (Embedding passage : passages) {
      double max = 0;
      for (int i = 0; i < dimension; i++) {
        max = Math.max(max, Math.abs(passage.get(i)));
      }
      for (int i = 0; i < dimension; i++) {
        // |v[i] / max| <= 1, so the byte lies in [-127, 127]; a zero passage stays zero
        b.put(max == 0 ? 0 : (byte) Math.round(127 * (passage.get(i) / max)));
      }
    }
    return b.array();
  }

  /**
   * The highest cosine similarity of one of the passages {@code bytes} hold to {@code unitQuery}, a
   * query of unit length (or zero, which gives 0), clamped to [-1, 1].
   *
   * @throws IllegalArgumentException if {@code bytes} are not passages of {@code unitQuery.length}
   *     dimensions in this format
   */
  static double bestCosine(byte[] bytes, float[] unitQuery) {
    int dimension = unitQuery.length;
    if (bytes.length < HEADER) {
      throw new IllegalArgumentException("stored passages have " + bytes.length + " bytes");
    }
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    byte format = b.get();
    int count = Byte.toUnsignedInt(b.get());
    int stored = b.getInt();
    if (format != FORMAT) {
      throw new IllegalArgumentException("stored passages are of format " + format);
    }
    if (count < 1 || stored != dimension || bytes.length != HEADER + count * dimension) {
      throw new IllegalArgumentException(
          "stored passages say "
              + count
              + " of "
              + stored
              + " dimensions in "
              + bytes.length
              + " bytes; the query has "
              + dimension);
    }
    double best = Double.NEGATIVE_INFINITY;
    for (int p = 0, at = HEADER; p < count; p++, at += dimension) {
      double dot = 0;
      long squares = 0;
      for (int i = 0; i < dimension; i++) {
        int q = bytes[at + i];
        dot += q * unitQuery[i];
        squares += q * q;
      }
      best = Math.max(best, squares == 0 ? 0 : dot / Math.sqrt(squares));
    }
    return Math.max(-1.0, Math.min(1.0, best));
  }

  /** {@code query} scaled to unit length, as {@link #bestCosine} takes it; zero stays zero. */
  static float[] unit(Embedding query) {
    return query.normalized().toArray();
  }
}
