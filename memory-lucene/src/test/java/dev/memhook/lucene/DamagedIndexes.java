package dev.memhook.lucene;

import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.lucene.codecs.CodecUtil;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexInput;
import org.apache.lucene.util.BytesRef;

/**
 * Ways to damage a closed index on disk, as a failing disk or a buggy writer would. Public for the
 * tests of the service above the store.
 */
public final class DamagedIndexes {

  /**
   * Adds to the closed index at {@code index} a latest memory {@code id} of {@code scope} whose
   * stored record is not JSON, but which every search finds by {@code text} and by {@code vector}.
   */
  public static void addUnreadableMemory(
      Path index, String id, Scope scope, String text, float[] vector) throws IOException {
    IndexSchema schema = new IndexSchema();
    IndexWriterConfig config =
        new IndexWriterConfig(schema.indexAnalyzer()).setSimilarity(IndexSchema.SIMILARITY);
    try (Directory dir = FSDirectory.open(index);
        IndexWriter writer = new IndexWriter(dir, config)) {
      Document doc = new Document();
      doc.add(new StringField(IndexSchema.F_KIND, IndexSchema.KIND_MEMORY, Field.Store.NO));
      doc.add(new StringField(IndexSchema.F_ID, id, Field.Store.NO));
      doc.add(new BinaryDocValuesField(IndexSchema.F_ID, new BytesRef(id)));
      doc.add(new StringField(IndexSchema.F_LIVE, scope.value(), Field.Store.NO));
      doc.add(new SortedDocValuesField(IndexSchema.F_LIVE, new BytesRef(scope.value())));
      doc.add(new StoredField(IndexSchema.F_JSON, "{\"format\":1,\"id\":\"" + id + "\", broken"));
      doc.add(new Field(IndexSchema.F_TEXT, text, IndexSchema.WEIGHTED_TEXT_TYPE));
      doc.add(new KnnFloatVectorField(IndexSchema.F_VECTOR, vector, IndexSchema.VECTOR_SIMILARITY));
      writer.addDocument(doc);
      writer.commit();
    }
  }

  /** Cuts the largest file of the closed index at {@code index} to half its length. */
  static Path truncateLargestFile(Path index) throws IOException {
    Path largest;
    try (Stream<Path> files = Files.list(index)) {
      largest =
          files
              .filter(f -> f.getFileName().toString().startsWith("_"))
              .max(Comparator.comparingLong(DamagedIndexes::size))
              .orElseThrow();
    }
    try (FileChannel c = FileChannel.open(largest, StandardOpenOption.WRITE)) {
      c.truncate(c.size() / 2);
    }
    return largest;
  }

  /**
   * Flips a bit inside the encrypted record of memory {@code id} where it first appears in the
   * stored fields of the index at {@code index} (a {@code .fdt} file, or that part of a compound
   * file), in place, as a flipped bit on disk would; the index may be open. A sealed record starts
   * with its version, the id's length and the id in clear ({@link RecordCipher}), which stored
   * fields keep as a literal even when compressed; the bit flipped is in the ciphertext after the
   * nonce. Only the stored fields are searched: the same first bytes can begin a term another file
   * keeps (a terms metadata file holds each field's smallest and largest term), and which of those
   * files comes first in a compound file differs between Lucene versions.
   *
   * @return the file changed
   * @throws IllegalStateException if no stored fields hold the record
   */
  static Path flipInSealedRecord(Path index, MemoryId id) throws IOException {
    byte[] idBytes = id.value().getBytes(StandardCharsets.US_ASCII);
    byte[] wanted = new byte[2 + idBytes.length];
    wanted[0] = RecordCipher.VERSION;
    wanted[1] = (byte) idBytes.length;
    System.arraycopy(idBytes, 0, wanted, 2, idBytes.length);
    int into = wanted.length + 12 + 3; // past the nonce, inside the ciphertext
    List<Path> files;
    try (Stream<Path> s = Files.list(index)) {
      files = s.filter(f -> f.getFileName().toString().startsWith("_")).sorted().toList();
    }
    for (Path f : files) {
      long[] range = storedFieldsRange(index, f);
      if (range == null) {
        continue;
      }
      byte[] bytes = Files.readAllBytes(f);
      int end = (int) Math.min(bytes.length, range[0] + range[1]);
      for (int i = (int) range[0]; i + wanted.length + into <= end; i++) {
        if (Arrays.equals(bytes, i, i + wanted.length, wanted, 0, wanted.length)) {
          try (FileChannel c = FileChannel.open(f, StandardOpenOption.WRITE)) {
            c.write(ByteBuffer.wrap(new byte[] {(byte) (bytes[i + into] ^ 0x20)}), i + into);
          }
          return f;
        }
      }
    }
    throw new IllegalStateException("no stored fields of " + index + " hold the record of " + id);
  }

  /**
   * Where the stored fields' data lies in {@code file}: all of a {@code .fdt} file; in a {@code
   * .cfs} compound file, the range its entries file ({@code .cfe}: a header, the count, then each
   * entry's name, offset and length) gives the {@code .fdt} entry; null for any other file.
   */
  private static long[] storedFieldsRange(Path index, Path file) throws IOException {
    String name = file.getFileName().toString();
    if (name.endsWith(".fdt")) {
      return new long[] {0, Files.size(file)};
    }
    if (!name.endsWith(".cfs")) {
      return null;
    }
    String entries = name.substring(0, name.length() - ".cfs".length()) + ".cfe";
    try (Directory dir = FSDirectory.open(index);
        IndexInput in = dir.openInput(entries, IOContext.READONCE)) {
      CodecUtil.readIndexHeader(in);
      int count = in.readVInt();
      for (int i = 0; i < count; i++) {
        String entry = in.readString();
        long offset = in.readLong();
        long length = in.readLong();
        if (entry.endsWith(".fdt")) {
          return new long[] {offset, length};
        }
      }
    }
    return null;
  }

  private static long size(Path f) {
    try {
      return Files.size(f);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private DamagedIndexes() {}
}
