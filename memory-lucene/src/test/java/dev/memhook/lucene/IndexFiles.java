package dev.memhook.lucene;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;

/**
 * What the files of an index directory hold, read as bytes and as Lucene terms. Public for the
 * tests of the service above the store.
 */
public final class IndexFiles {

  /**
   * A token unlike anything else in an index: {@code qz} and 14 random lower-case letters, one
   * analysed term that neither compression nor the analysis chain splits.
   */
  public static String uniqueToken(Random random) {
    StringBuilder sb = new StringBuilder("qz");
    for (int i = 0; i < 14; i++) {
      sb.append((char) ('a' + random.nextInt(26)));
    }
    return sb.toString();
  }

  /**
   * The prefix of a {@link #uniqueToken} that every analysed form of it (stemmed or not) starts
   * with: what to look for with {@link #termsContaining}.
   */
  public static String termPrefix(String token) {
    return token.substring(0, 12);
  }

  /**
   * The files under {@code dir}, in it or in its subdirectories (a service's capture journal, say),
   * whose bytes contain {@code token} in UTF-8, as paths relative to {@code dir}.
   */
  public static List<String> filesContaining(Path dir, String token) throws IOException {
    byte[] needle = token.getBytes(StandardCharsets.UTF_8);
    return retried(
        () -> {
          List<String> out = new ArrayList<>();
          try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : (Iterable<Path>) files.sorted()::iterator) {
              byte[] bytes;
              try {
                bytes = Files.isRegularFile(f) ? Files.readAllBytes(f) : null;
              } catch (NoSuchFileException deleted) {
                continue; // deleted since the walk listed it: it holds nothing now
              }
              if (bytes != null && contains(bytes, needle)) {
                out.add(dir.relativize(f).toString());
              }
            }
          }
          return out;
        });
  }

  /** A read of an index directory that may meet a file the store deleted meanwhile. */
  private interface DirectoryRead<T> {
    T read() throws IOException;
  }

  /**
   * {@code read}, done again if a file vanished under it: a store with a purge, a merge or a commit
   * running deletes the files of the commit it replaces while a scan lists or opens them.
   */
  private static <T> T retried(DirectoryRead<T> read) throws IOException {
    for (int attempt = 1; ; attempt++) {
      try {
        return read.read();
      } catch (NoSuchFileException | FileNotFoundException e) {
        if (attempt == 20) {
          throw e;
        }
      } catch (UncheckedIOException e) {
        if (!(e.getCause() instanceof NoSuchFileException) || attempt == 20) {
          throw e;
        }
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while scanning an index directory");
      }
    }
  }

  /**
   * Every {@code field:term} in the index's last commit, deleted documents' terms included (they
   * stay in a segment's term dictionary until it is rewritten), that contains {@code token}.
   */
  public static TreeSet<String> termsContaining(Path dir, String token) throws IOException {
    return retried(() -> termsContainingOnce(dir, token));
  }

  private static TreeSet<String> termsContainingOnce(Path dir, String token) throws IOException {
    TreeSet<String> out = new TreeSet<>();
    try (Directory d = FSDirectory.open(dir);
        DirectoryReader reader = DirectoryReader.open(d)) {
      for (LeafReaderContext leaf : reader.leaves()) {
        for (FieldInfo field : leaf.reader().getFieldInfos()) {
          Terms terms = leaf.reader().terms(field.name);
          if (terms == null) {
            continue;
          }
          TermsEnum it = terms.iterator();
          for (BytesRef t = it.next(); t != null; t = it.next()) {
            String text = t.utf8ToString();
            if (text.contains(token)) {
              out.add(field.name + ":" + text);
            }
          }
        }
      }
    }
    return out;
  }

  /**
   * Every stored field of every document in the index's last commit, deleted documents included
   * (their stored fields stay in a segment until it is rewritten), whose value contains {@code
   * token}: text fields as text, binary fields as UTF-8 bytes. Reads through Lucene, so it sees
   * inside the compressed blocks that a scan of the files' bytes cannot.
   */
  public static List<String> storedFieldsContaining(Path dir, String token) throws IOException {
    return retried(() -> storedFieldsContainingOnce(dir, token));
  }

  private static List<String> storedFieldsContainingOnce(Path dir, String token)
      throws IOException {
    byte[] needle = token.getBytes(StandardCharsets.UTF_8);
    List<String> out = new ArrayList<>();
    try (Directory d = FSDirectory.open(dir);
        DirectoryReader reader = DirectoryReader.open(d)) {
      for (LeafReaderContext leaf : reader.leaves()) {
        org.apache.lucene.index.StoredFields stored = leaf.reader().storedFields();
        for (int doc = 0; doc < leaf.reader().maxDoc(); doc++) {
          for (org.apache.lucene.index.IndexableField f : stored.document(doc)) {
            BytesRef bytes = f.binaryValue();
            boolean found =
                bytes != null
                    ? contains(
                        java.util.Arrays.copyOfRange(
                            bytes.bytes, bytes.offset, bytes.offset + bytes.length),
                        needle)
                    : f.stringValue() != null && f.stringValue().contains(token);
            if (found) {
              out.add(leaf.ord + "/" + doc + ":" + f.name());
            }
          }
        }
      }
    }
    return out;
  }

  /** The segment files ({@code _N...}) in {@code dir}. */
  static TreeSet<String> segmentFiles(Path dir) throws IOException {
    TreeSet<String> out = new TreeSet<>();
    try (Stream<Path> files = Files.list(dir)) {
      files.map(f -> f.getFileName().toString()).filter(n -> n.startsWith("_")).forEach(out::add);
    }
    return out;
  }

  private static boolean contains(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  private IndexFiles() {}
}
