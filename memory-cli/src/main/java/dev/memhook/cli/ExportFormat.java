package dev.memhook.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memhook.api.MemoryVector;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Base64;
import java.util.Optional;

/**
 * The JSON Lines file {@code export} writes and {@code import} reads: a header line, then one line
 * per memory version and one per forget record, each an object whose {@value #RECORD} field says
 * which: {@code {"record":"header","format":"memhook-export","version":2,"vectors":{...}}}, {@code
 * {"record":"memory",…the memory's fields,"vector":"…"}} and {@code {"record":"forgotten",…}}.
 * Field names are those of {@link JsonRecords}. Stateless.
 *
 * <h2>Vectors</h2>
 *
 * Version 2 carries each memory's vector, so that an import into a store of the same embedding
 * space stores it as it is instead of running the model again. The header's {@code vectors} object
 * names the space once ({@code model}, {@code dimension}) and the {@code encoding}, {@value
 * #VECTOR_ENCODING}: each memory's {@code vector} field is the base64 (RFC 4648, padded) of its
 * values as IEEE 754 half-precision floats, little-endian, 2 bytes a dimension (1,024 characters
 * for 384 dimensions). Half precision because the stored vectors are of unit length, where a
 * float16's relative error (at most 2^-11 a value) moves a cosine by far less than the model's own
 * difference between a text embedded alone and in a batch; float32 would double the size for
 * nothing a search can see, and 8-bit values would halve it again at an error that reorders near
 * neighbours. Version 1 (no vectors) is still read: its memories are embedded again.
 */
final class ExportFormat {
  static final String RECORD = "record";
  static final String HEADER = "header";
  static final String MEMORY = "memory";
  static final String FORGOTTEN = "forgotten";
  static final String FORMAT = "memhook-export";

  /** The version written: 2, with vectors. */
  static final int VERSION = 2;

  /** The version without vectors, still read. */
  static final int VERSION_WITHOUT_VECTORS = 1;

  static final String VECTORS = "vectors";
  static final String VECTOR = "vector";
  static final String VECTOR_ENCODING = "float16-le-base64";

  /** The largest dimension an import accepts: far above any sentence-embedding model. */
  static final int MAX_DIMENSION = 8192;

  private ExportFormat() {}

  /** The space an export's vectors are in, as its header names it. */
  record Space(String model, int dimension) {}

  /** The header, naming {@code space} if the memories carry vectors. */
  static ObjectNode header(Optional<Space> space) {
    ObjectNode n = JsonRecords.MAPPER.createObjectNode();
    n.put(RECORD, HEADER);
    n.put("format", FORMAT);
    n.put("version", VERSION);
    space.ifPresent(
        s ->
            n.putObject(VECTORS)
                .put("model", s.model())
                .put("dimension", s.dimension())
                .put("encoding", VECTOR_ENCODING));
    return n;
  }

  /** {@code body} with the record kind first. */
  static ObjectNode tagged(String kind, ObjectNode body) {
    ObjectNode n = JsonRecords.MAPPER.createObjectNode();
    n.put(RECORD, kind);
    n.setAll(body);
    return n;
  }

  /**
   * The space the header {@code n} names for the vectors, empty if the file carries none.
   *
   * @throws IllegalArgumentException if {@code n} is not the header of a version this reads, or its
   *     {@code vectors} object is malformed
   */
  static Optional<Space> readHeader(JsonNode n) {
    if (!HEADER.equals(n.path(RECORD).asText("")) || !FORMAT.equals(n.path("format").asText())) {
      throw new IllegalArgumentException(
          "the first line must be the header of a memhook export, {\"record\":\"header\",...}");
    }
    int version = n.path("version").asInt(-1);
    if (version == VERSION_WITHOUT_VECTORS) {
      return Optional.empty();
    }
    if (version != VERSION) {
      throw new IllegalArgumentException(
          "export format version "
              + n.path("version")
              + " is not "
              + VERSION_WITHOUT_VECTORS
              + " or "
              + VERSION
              + "; import it with the Memhook that wrote it");
    }
    JsonNode v = n.get(VECTORS);
    if (v == null || v.isNull()) {
      return Optional.empty();
    }
    if (!v.isObject()
        || !v.path("model").isTextual()
        || !v.path("dimension").canConvertToInt()
        || !v.path("dimension").isIntegralNumber()) {
      throw new IllegalArgumentException(
          "the header's 'vectors' must be {\"model\":TEXT,\"dimension\":NUMBER,\"encoding\":\""
              + VECTOR_ENCODING
              + "\"}");
    }
    String model = v.path("model").textValue();
    int dimension = v.path("dimension").intValue();
    if (model.isBlank() || model.length() > MemoryVector.MAX_MODEL_ID_CHARS) {
      throw new IllegalArgumentException(
          "the header's vector model must be 1 to "
              + MemoryVector.MAX_MODEL_ID_CHARS
              + " characters");
    }
    if (dimension < 1 || dimension > MAX_DIMENSION) {
      throw new IllegalArgumentException(
          "the header's vector dimension must be 1 to " + MAX_DIMENSION + ", got " + dimension);
    }
    if (!VECTOR_ENCODING.equals(v.path("encoding").asText(""))) {
      throw new IllegalArgumentException(
          "the header's vector encoding must be " + VECTOR_ENCODING + ", got " + v.get("encoding"));
    }
    return Optional.of(new Space(model, dimension));
  }

  /** The {@code vector} field's text for {@code values}. */
  static String encode(float[] values) {
    ByteBuffer bytes = ByteBuffer.allocate(values.length * 2).order(ByteOrder.LITTLE_ENDIAN);
    for (float f : values) {
      bytes.putShort(Half.of(f));
    }
    return Base64.getEncoder().encodeToString(bytes.array());
  }

  /**
   * The vector of memory line {@code n}, empty if it has none.
   *
   * @throws IllegalArgumentException naming the field if it is not a string, the file's header
   *     names no vectors, or it is not exactly {@code space}'s dimension of finite values in
   *     {@value #VECTOR_ENCODING}
   */
  static Optional<MemoryVector> readVector(JsonNode n, Optional<Space> space) {
    JsonNode v = n.get(VECTOR);
    if (v == null || v.isNull()) {
      return Optional.empty();
    }
    if (!v.isTextual()) {
      throw new IllegalArgumentException("field 'vector' must be a string");
    }
    Space s =
        space.orElseThrow(
            () ->
                new IllegalArgumentException(
                    "field 'vector' is given, but the header names no vectors"));
    String text = v.textValue();
    int expected = (s.dimension() * 2 + 2) / 3 * 4;
    if (text.length() != expected) {
      throw new IllegalArgumentException(
          "field 'vector' must be "
              + expected
              + " characters of base64 ("
              + s.dimension()
              + " dimensions), got "
              + text.length());
    }
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("field 'vector' is not valid base64", e);
    }
    if (bytes.length != s.dimension() * 2) {
      throw new IllegalArgumentException(
          "field 'vector' holds " + bytes.length / 2 + " values, not " + s.dimension());
    }
    ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    float[] values = new float[s.dimension()];
    for (int i = 0; i < values.length; i++) {
      short h = in.getShort();
      if (!Half.isFinite(h)) {
        throw new IllegalArgumentException(
            "field 'vector' holds a value that is not finite at index " + i);
      }
      values[i] = Half.toFloat(h);
    }
    return Optional.of(MemoryVector.of(s.model(), values));
  }

  /**
   * IEEE 754 binary16 conversions, written out because Java 17 has none: to half precision rounding
   * to the nearest value, ties to even, as the hardware does.
   */
  static final class Half {
    private Half() {}

    /**
     * {@code f} in half precision.
     *
     * @throws IllegalArgumentException if {@code f} is not finite or beyond half precision's range
     */
    static short of(float f) {
      int bits = Float.floatToRawIntBits(f);
      int sign = (bits >>> 16) & 0x8000;
      int exp = (bits >>> 23) & 0xff;
      int mantissa = bits & 0x7fffff;
      if (exp == 0xff) {
        throw new IllegalArgumentException("not finite: " + f);
      }
      int e = exp - 127 + 15;
      if (e <= 0) { // a half subnormal, or zero
        if (e < -10) {
          return (short) sign; // below half the smallest subnormal: rounds to zero
        }
        int full = mantissa | 0x800000;
        int shift = 14 - e;
        int h = full >>> shift;
        int rest = full & ((1 << shift) - 1);
        int halfway = 1 << (shift - 1);
        if (rest > halfway || (rest == halfway && (h & 1) == 1)) {
          h++; // may carry into the smallest normal, which is the right encoding
        }
        return (short) (sign | h);
      }
      int h = (e << 10) | (mantissa >>> 13);
      int rest = mantissa & 0x1fff;
      if (rest > 0x1000 || (rest == 0x1000 && (h & 1) == 1)) {
        h++; // may carry into the exponent, which is the right encoding
      }
      if (h >= 0x7c00) {
        throw new IllegalArgumentException("beyond half precision's range: " + f);
      }
      return (short) (sign | h);
    }

    /** Whether {@code h} is a finite half (not an infinity or NaN). */
    static boolean isFinite(short h) {
      return ((h >>> 10) & 0x1f) != 0x1f;
    }

    /** The float {@code h} is exactly; {@code h} must be finite. */
    static float toFloat(short h) {
      int bits = h & 0xffff;
      boolean negative = (bits & 0x8000) != 0;
      int exp = (bits >>> 10) & 0x1f;
      int mantissa = bits & 0x3ff;
      if (exp == 0) {
        float v = mantissa * 0x1p-24f;
        return negative ? -v : v;
      }
      return Float.intBitsToFloat(
          (negative ? 0x80000000 : 0) | ((exp - 15 + 127) << 23) | (mantissa << 13));
    }
  }
}
