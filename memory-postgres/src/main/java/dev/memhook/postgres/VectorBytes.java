package dev.memhook.postgres;

import dev.memhook.api.spi.Embedding;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The {@code vector} column's encoding: an embedding's floats, little-endian float32, nothing else
 * (the dimension is the store's space's, recorded once in {@code memhook_space}).
 */
final class VectorBytes {
  private VectorBytes() {}

  static byte[] encode(Embedding e) {
    ByteBuffer b = ByteBuffer.allocate(e.dimension() * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < e.dimension(); i++) {
      b.putFloat(e.get(i));
    }
    return b.array();
  }

  /**
   * The embedding {@code bytes} hold.
   *
   * @throws IllegalArgumentException if {@code bytes} do not hold {@code dimension} floats
   */
  static Embedding decode(byte[] bytes, int dimension) {
    if (bytes == null || bytes.length != dimension * Float.BYTES) {
      throw new IllegalArgumentException(
          "a stored vector has "
              + (bytes == null ? 0 : bytes.length)
              + " bytes, not the "
              + dimension * Float.BYTES
              + " of the store's space");
    }
    float[] out = new float[dimension];
    ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(out);
    return Embedding.of(out);
  }
}
