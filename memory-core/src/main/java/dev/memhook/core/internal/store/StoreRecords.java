package dev.memhook.core.internal.store;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Origin;
import dev.memhook.api.Scope;
import dev.memhook.api.SourcePin;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.MemoryStore;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The binary form of the store's log records: a put (one part of a batch of memories with their
 * embeddings and passage vectors), a new version (likewise), a forget (its audit records with the
 * ids each lists). The payloads only ever hold what the store holds: sanitized memories, their
 * vectors and audit records.
 *
 * <h2>Layout</h2>
 *
 * Every record starts with a format byte, which says how the rest is laid out; each kind keeps
 * reading the formats earlier versions wrote, so a journal left by one is still replayed. Counts
 * and lengths are big-endian ints, strings UTF-8 with their byte length, instants seconds (long)
 * and nanos (int), a vector its dimension and then its floats; a memory is its fields in the order
 * of {@code writeMemory}.
 *
 * <pre>
 * put          format 2: batch (long), part, parts, n, then n entries
 *              format 1: the same, each entry without its passages
 * new version  format 2: one entry
 *              format 1: one entry without its passages
 * entry        memory, embedding, passage count (0 to MemoryStore.MAX_PASSAGES), and as many
 *              vectors of the embedding's dimension
 * forget       format 2: n, then n audit records: id, scope, actor, reason, instant, a boolean
 *              "the removed ids of the record before", and unless it is true, the removed ids
 *              format 1: n, then n audit records: id, scope, actor, reason, instant (each record
 *              then removed its own id only)
 * </pre>
 *
 * <p>Floats are kept whole: the journal holds a write until the next checkpoint only, so its size
 * is transient.
 *
 * <p>Stateless; thread-safe. Decoding throws {@link IllegalArgumentException} for bytes this codec
 * did not write (a damaged record the journal's CRC missed, or a format from a newer version), and
 * allocates no more than the bytes given could fill: a count or a dimension larger than the rest of
 * the record could hold, or more passages than a store keeps, is damage.
 */
final class StoreRecords {

  /** The format of every record before each kind had its own: still read. */
  static final byte FIRST_FORMAT = 1;

  /**
   * The format of a put or a new version written now: format 1 with each memory's passage vectors
   * after its embedding.
   */
  static final byte PUT_FORMAT = 2;

  /**
   * The format of a forget written now: format 1 and each record's removed ids, written once for a
   * run of records that share them (the records of one forget all do).
   */
  static final byte FORGET_FORMAT = 2;

  /** Journal kinds; capture's are 1 (an accepted event) and 2 (a session end on close). */
  static final byte KIND_PUT = 16;

  static final byte KIND_NEW_VERSION = 17;
  static final byte KIND_FORGET = 18;

  private StoreRecords() {}

  /** Whether a journal record of {@code kind} is one of the store's writes. */
  static boolean isStoreKind(byte kind) {
    return kind == KIND_PUT || kind == KIND_NEW_VERSION || kind == KIND_FORGET;
  }

  /**
   * One part of a put: memories {@code part} of {@code parts} of one batch, and the passages of
   * those of them stored with some, keyed by id as {@link MemoryStore#putAll(Map, Map)} takes them.
   */
  record PutPart(
      long batch,
      int part,
      int parts,
      Map<Memory, Embedding> memories,
      Map<MemoryId, List<Embedding>> passages) {}

  /** A new version, its embedding and its passages (empty for none). */
  record NewVersion(Memory next, Embedding embedding, List<Embedding> passages) {}

  /**
   * One memory, its embedding and its passages (empty for none), encoded for {@link #put}. The
   * passages must pass {@link MemoryStore#checkPassages(Embedding, List)}, or the record cannot be
   * read back.
   */
  static byte[] entry(Memory memory, Embedding embedding, List<Embedding> passages) {
    return bytes(out -> writeEntry(out, memory, embedding, passages));
  }

  /** Part {@code part} of {@code parts} of the batch {@code batch}: entries from {@link #entry}. */
  static byte[] put(long batch, int part, int parts, List<byte[]> entries) {
    return encode(
        PUT_FORMAT,
        out -> {
          out.writeLong(batch);
          out.writeInt(part);
          out.writeInt(parts);
          out.writeInt(entries.size());
          for (byte[] e : entries) {
            out.write(e);
          }
        });
  }

  /** A new version, with its passages as {@link #entry} takes them. */
  static byte[] newVersion(Memory next, Embedding embedding, List<Embedding> passages) {
    return encode(PUT_FORMAT, out -> writeEntry(out, next, embedding, passages));
  }

  static byte[] forget(List<ForgetRecord> audits) {
    return encode(
        FORGET_FORMAT,
        out -> {
          out.writeInt(audits.size());
          List<MemoryId> previous = null;
          for (ForgetRecord r : audits) {
            writeString(out, r.id().value());
            writeString(out, r.scope().value());
            writeString(out, r.actor());
            writeString(out, r.reason());
            writeInstant(out, r.at());
            // one forget's records share one list: written once, so the record stays linear
            boolean same = r.removed().equals(previous);
            out.writeBoolean(same);
            if (!same) {
              writeStrings(out, r.removed().stream().map(MemoryId::value).toList());
            }
            previous = r.removed();
          }
        });
  }

  static PutPart readPut(byte[] payload) {
    return decode(
        payload,
        PUT_FORMAT,
        (in, format) -> {
          long batch = in.readLong();
          int part = in.readInt();
          int parts = in.readInt();
          int n = count(in);
          Map<Memory, Embedding> memories = new LinkedHashMap<>();
          Map<MemoryId, List<Embedding>> passages = new LinkedHashMap<>();
          Set<MemoryId> ids = new HashSet<>();
          for (int i = 0; i < n; i++) {
            Memory memory = readMemory(in);
            Embedding embedding = readVector(in);
            List<Embedding> its = format == PUT_FORMAT ? readPassages(in, embedding) : List.of();
            // passages are keyed by id, and a batch never holds an id twice
            if (!ids.add(memory.id())) {
              throw new IOException("memory " + memory.id() + " twice in one part");
            }
            memories.put(memory, embedding);
            if (!its.isEmpty()) {
              passages.put(memory.id(), its);
            }
          }
          if (part < 0 || part >= parts) {
            throw new IOException("part " + part + " of " + parts);
          }
          return new PutPart(batch, part, parts, memories, passages);
        });
  }

  static NewVersion readNewVersion(byte[] payload) {
    return decode(
        payload,
        PUT_FORMAT,
        (in, format) -> {
          Memory next = readMemory(in);
          Embedding embedding = readVector(in);
          List<Embedding> passages = format == PUT_FORMAT ? readPassages(in, embedding) : List.of();
          return new NewVersion(next, embedding, passages);
        });
  }

  static List<ForgetRecord> readForget(byte[] payload) {
    return decode(
        payload,
        FORGET_FORMAT,
        (in, format) -> {
          boolean listed = format == FORGET_FORMAT;
          int n = count(in);
          List<ForgetRecord> audits = new ArrayList<>(n);
          List<MemoryId> previous = null;
          for (int i = 0; i < n; i++) {
            MemoryId id = MemoryId.of(readString(in));
            Scope scope = new Scope(readString(in));
            String actor = readString(in);
            String reason = readString(in);
            Instant at = readInstant(in);
            List<MemoryId> removed = List.of(id);
            if (listed) {
              boolean same = in.readBoolean();
              if (same && previous == null) {
                throw new IOException("the first record repeats a list before any");
              }
              removed = same ? previous : readStrings(in).stream().map(MemoryId::of).toList();
            }
            audits.add(new ForgetRecord(id, scope, actor, reason, at, removed));
            previous = removed;
          }
          return audits;
        });
  }

  private static void writeEntry(
      DataOutputStream out, Memory memory, Embedding embedding, List<Embedding> passages)
      throws IOException {
    writeMemory(out, memory);
    writeVector(out, embedding);
    out.writeInt(passages.size());
    for (Embedding p : passages) {
      writeVector(out, p);
    }
  }

  /**
   * An entry's passages: a store was never given more than it keeps, nor one of another dimension
   * than its memory's, so either is damage.
   */
  private static List<Embedding> readPassages(DataInputStream in, Embedding embedding)
      throws IOException {
    int n = in.readInt();
    if (n < 0 || n > MemoryStore.MAX_PASSAGES) {
      throw new IOException(n + " passages; a memory has at most " + MemoryStore.MAX_PASSAGES);
    }
    List<Embedding> passages = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      Embedding p = readVector(in);
      if (p.dimension() != embedding.dimension()) {
        throw new IOException(
            "a passage of dimension " + p.dimension() + ", its memory " + embedding.dimension());
      }
      passages.add(p);
    }
    return List.copyOf(passages);
  }

  private static void writeMemory(DataOutputStream out, Memory m) throws IOException {
    writeString(out, m.id().value());
    writeString(out, m.type().name());
    writeString(out, m.title());
    writeString(out, m.summary());
    writeString(out, m.content());
    writeString(out, m.context());
    writeStrings(out, m.concepts());
    writeStrings(out, m.files());
    writeString(out, m.scope().value());
    writeNullable(out, m.sourceSession());
    writeString(out, m.origin().kind().name());
    writeNullable(out, m.origin().name());
    out.writeInt(m.attributes().size());
    for (Map.Entry<String, String> a : m.attributes().entrySet()) {
      writeString(out, a.getKey());
      writeString(out, a.getValue());
    }
    out.writeDouble(m.importance());
    out.writeInt(m.version());
    writeNullable(out, m.supersedes() == null ? null : m.supersedes().value());
    out.writeBoolean(m.latest());
    writeInstant(out, m.occurredAt());
    writeInstant(out, m.createdAt());
    out.writeInt(m.sourcePins().size());
    for (SourcePin pin : m.sourcePins()) {
      writeString(out, pin.path());
      writeString(out, pin.digest());
    }
  }

  private static Memory readMemory(DataInputStream in) throws IOException {
    Memory.Builder b =
        Memory.builder()
            .id(MemoryId.of(readString(in)))
            .type(MemoryType.valueOf(readString(in)))
            .title(readString(in))
            .summary(readString(in))
            .content(readString(in))
            .context(readString(in))
            .concepts(readStrings(in))
            .files(readStrings(in))
            .scope(new Scope(readString(in)))
            .sourceSession(readNullable(in));
    Origin.Kind kind = Origin.Kind.valueOf(readString(in));
    b.origin(new Origin(kind, readNullable(in)));
    int attributes = count(in);
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < attributes; i++) {
      map.put(readString(in), readString(in));
    }
    b.attributes(map).importance(in.readDouble()).version(in.readInt());
    String supersedes = readNullable(in);
    b.supersedes(supersedes == null ? null : MemoryId.of(supersedes))
        .latest(in.readBoolean())
        .occurredAt(readInstant(in))
        .createdAt(readInstant(in));
    int pins = count(in);
    List<SourcePin> list = new ArrayList<>(pins);
    for (int i = 0; i < pins; i++) {
      list.add(new SourcePin(readString(in), readString(in)));
    }
    return b.sourcePins(list).build();
  }

  private static void writeVector(DataOutputStream out, Embedding e) throws IOException {
    float[] v = e.toArray();
    out.writeInt(v.length);
    for (float f : v) {
      out.writeFloat(f);
    }
  }

  private static Embedding readVector(DataInputStream in) throws IOException {
    int dimension = in.readInt();
    if (dimension < 0 || dimension > in.available() / Float.BYTES) {
      throw new IOException(
          "a vector of dimension " + dimension + " with " + in.available() + " bytes left");
    }
    float[] v = new float[dimension];
    for (int i = 0; i < v.length; i++) {
      v[i] = in.readFloat();
    }
    return Embedding.of(v);
  }

  private static void writeStrings(DataOutputStream out, List<String> values) throws IOException {
    out.writeInt(values.size());
    for (String s : values) {
      writeString(out, s);
    }
  }

  private static List<String> readStrings(DataInputStream in) throws IOException {
    int n = count(in);
    List<String> values = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      values.add(readString(in));
    }
    return values;
  }

  private static void writeNullable(DataOutputStream out, String s) throws IOException {
    out.writeBoolean(s != null);
    if (s != null) {
      writeString(out, s);
    }
  }

  private static String readNullable(DataInputStream in) throws IOException {
    return in.readBoolean() ? readString(in) : null;
  }

  private static void writeString(DataOutputStream out, String s) throws IOException {
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    out.writeInt(bytes.length);
    out.write(bytes);
  }

  private static String readString(DataInputStream in) throws IOException {
    int n = count(in);
    if (n > in.available()) {
      throw new IOException("a string of " + n + " bytes runs past the record");
    }
    return new String(in.readNBytes(n), StandardCharsets.UTF_8);
  }

  private static void writeInstant(DataOutputStream out, Instant t) throws IOException {
    out.writeLong(t.getEpochSecond());
    out.writeInt(t.getNano());
  }

  private static Instant readInstant(DataInputStream in) throws IOException {
    return Instant.ofEpochSecond(in.readLong(), in.readInt());
  }

  /** A count or length: never negative, never more than the bytes left could hold. */
  private static int count(DataInputStream in) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > in.available()) {
      throw new IOException("count " + n + " with " + in.available() + " bytes left");
    }
    return n;
  }

  @FunctionalInterface
  private interface Writer {
    void write(DataOutputStream out) throws IOException;
  }

  @FunctionalInterface
  private interface Reader<T> {
    /** Reads a record of {@code format}, one this codec reads, from after its format byte. */
    T read(DataInputStream in, byte format) throws IOException;
  }

  /** A record: the format byte, then what {@code writer} writes. */
  private static byte[] encode(byte format, Writer writer) {
    return bytes(
        out -> {
          out.writeByte(format);
          writer.write(out);
        });
  }

  private static byte[] bytes(Writer writer) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      writer.write(out);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array does not fail
    }
    return bytes.toByteArray();
  }

  /** Reads a record of a format from {@link #FIRST_FORMAT} to {@code newest}, whole. */
  private static <T> T decode(byte[] payload, byte newest, Reader<T> reader) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload))) {
      byte format = in.readByte();
      if (format < FIRST_FORMAT || format > newest) {
        throw new IllegalArgumentException(
            "store log record of format "
                + format
                + "; this version reads formats "
                + FIRST_FORMAT
                + " to "
                + newest);
      }
      T value = reader.read(in, format);
      if (in.available() != 0) {
        throw new IllegalArgumentException(in.available() + " bytes after the record");
      }
      return value;
    } catch (IOException | RuntimeException e) {
      if (e instanceof IllegalArgumentException iae) {
        throw iae;
      }
      throw new IllegalArgumentException("unreadable store log record: " + e, e);
    }
  }
}
