package dev.memhook.core.lucene;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.SourcePin;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.lucene.index.IndexWriter;

/**
 * What the store can write and read back, checked before anything is written: a record the store
 * could not read back, or a document Lucene would refuse half-way, is refused up front with an
 * {@link IllegalArgumentException} naming the field and the limit.
 *
 * <h2>Design note</h2>
 *
 * Two limits matter. A stored record is JSON that {@link MemoryJson} reads back under explicit
 * {@code StreamReadConstraints}; those are derived from {@link #MAX_RECORD_CHARS}, the longest
 * encoded record the store accepts, so every string and name in an accepted record is within what
 * the reader accepts (a decoded string is never longer than its encoding). And Lucene refuses a
 * keyword term or a doc value longer than {@link #MAX_TERM_BYTES} UTF-8 bytes: the id, the scope,
 * each concept and each file are indexed as one keyword each. Analysed text needs no check: the
 * analysis chains drop tokens longer than 255 characters.
 *
 * <p>Stateless and thread-safe.
 */
final class RecordLimits {
  /**
   * The longest stored record, in characters of its JSON encoding, that the store writes and
   * therefore reads: 8 Mi characters. Far above any memory a chat host means to keep (the service
   * bounds each field well below it), low enough that decoding a record stays cheap.
   */
  static final int MAX_RECORD_CHARS = 8 * 1024 * 1024;

  /** The longest keyword term or doc value Lucene indexes, in UTF-8 bytes. */
  static final int MAX_TERM_BYTES = IndexWriter.MAX_TERM_LENGTH;

  private RecordLimits() {}

  /**
   * Checks that {@code m}, encoded as {@code encoded}, can be stored and read back.
   *
   * @throws IllegalArgumentException naming the field and the limit it breaks
   */
  static void check(Memory m, String encoded) {
    checkTerm(m, "id", m.id().value());
    checkTerm(m, "scope", m.scope().value());
    for (String c : m.concepts()) {
      checkTerm(m, "a concept", IndexSchema.conceptKey(c));
    }
    for (String f : m.files()) {
      checkTerm(m, "a file", f);
    }
    if (encoded.length() > MAX_RECORD_CHARS) {
      Map.Entry<String, Integer> largest = largestField(m);
      throw new IllegalArgumentException(
          "memory "
              + m.id()
              + " is too large to store: its record is "
              + encoded.length()
              + " characters, over the store's maximum of "
              + MAX_RECORD_CHARS
              + "; its largest field is "
              + largest.getKey()
              + " ("
              + largest.getValue()
              + " characters): shorten it or split the memory");
    }
  }

  /**
   * Checks that the audit record {@code r}, encoded as {@code encoded}, can be stored and read
   * back.
   *
   * @throws IllegalArgumentException naming the field and the limit it breaks
   */
  static void check(ForgetRecord r, String encoded) {
    if (encoded.length() > MAX_RECORD_CHARS) {
      throw new IllegalArgumentException(
          "the forget record of "
              + r.id()
              + " is "
              + encoded.length()
              + " characters, over the store's maximum of "
              + MAX_RECORD_CHARS
              + "; shorten the reason ("
              + r.reason().length()
              + " characters) or the actor ("
              + r.actor().length()
              + ")");
    }
  }

  private static void checkTerm(Memory m, String what, String term) {
    // a UTF-8 byte is at most 3 per char: most terms need no encoding to pass
    if (term.length() * 3L <= MAX_TERM_BYTES) {
      return;
    }
    int bytes = term.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > MAX_TERM_BYTES) {
      throw new IllegalArgumentException(
          "memory "
              + m.id()
              + " cannot be stored: "
              + what
              + " is "
              + bytes
              + " bytes in UTF-8, over the index's maximum of "
              + MAX_TERM_BYTES
              + " for one keyword; shorten it (it starts with '"
              + term.substring(0, 40)
              + "')");
    }
  }

  /** The name and length of the largest text part of {@code m}, for error messages. */
  private static Map.Entry<String, Integer> largestField(Memory m) {
    Map.Entry<String, Integer> best = Map.entry("content", m.content().length());
    best = larger(best, "title", m.title().length());
    best = larger(best, "summary", m.summary().length());
    best = larger(best, "context", m.context().length());
    best =
        larger(best, "sourceSession", m.sourceSession() == null ? 0 : m.sourceSession().length());
    best = larger(best, "concepts", total(m.concepts()));
    best = larger(best, "files", total(m.files()));
    int attributes = 0;
    for (Map.Entry<String, String> e : m.attributes().entrySet()) {
      attributes += e.getKey().length() + e.getValue().length();
    }
    best = larger(best, "attributes", attributes);
    int pins = 0;
    for (SourcePin p : m.sourcePins()) {
      pins += p.path().length() + p.digest().length();
    }
    return larger(best, "sourcePins", pins);
  }

  private static Map.Entry<String, Integer> larger(
      Map.Entry<String, Integer> best, String field, int length) {
    return length > best.getValue() ? Map.entry(field, length) : best;
  }

  private static int total(Iterable<String> values) {
    int n = 0;
    for (String v : values) {
      n += v.length();
    }
    return n;
  }
}
