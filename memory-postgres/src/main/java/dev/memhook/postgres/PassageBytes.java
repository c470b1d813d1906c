package dev.memhook.postgres;

import dev.memhook.api.spi.Embedding;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

/**
 * The {@code passages} column's encoding: a memory's passage vectors, each unit-normalised and
 * quantised to one signed byte per dimension, {@code round(v * 127)}, behind a six-byte header.
 *
 * <pre>
 * byte 0      format, {@value #FORMAT}
 * byte 1      passage count, 1 to {@link dev.memhook.api.spi.MemoryStore#MAX_PASSAGES}
 * bytes 2-5   dimension, int32 little-endian
 * then        count × dimension signed bytes, passage after passage
 * </pre>
 *
 * A memory without passages has none stored (the column is NULL), never a header with count 0. A
 * byte per dimension makes a passage a quarter of the size of the memory's own float32 vector, and
 * moves a cosine by well under the hundredth the SPI allows: {@link #bestCosine} divides by the
 * quantised vector's own norm, so a passage still has cosine 1 with itself, and a zero passage (all
 * bytes 0) has cosine 0 with anything, never NaN. The dimension is kept although the store's space
 * fixes it, so that a row is checked on its own before it is read.
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
      Embedding unit = passage.normalized(); // a zero vector stays zero
      for (int i = 0; i < dimension; i++) {
        long q = Math.round(unit.get(i) * 127.0);
        b.put((byte) Math.max(-127, Math.min(127, q)));
      }
    }
    return b.array();
  }

  /**
   * The highest cosine similarity of one of the passages {@code bytes} hold to {@code unitQuery}, a
   * query of unit length (or zero, which gives 0).
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
    return best;
  }

  /** {@code query} scaled to unit length, as {@link #bestCosine} takes it; zero stays zero. */
  static float[] unit(Embedding query) {
    return query.normalized().toArray();
  }
}
