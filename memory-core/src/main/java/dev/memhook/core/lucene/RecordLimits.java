package dev.memhook.core.lucene;

import org.apache.lucene.index.IndexWriter;

/**
 * What the store can write and read back. Every field of a {@link dev.memhook.api.Memory} and a
 * {@link dev.memhook.api.ForgetRecord} is bounded (the limits on {@link
 * dev.memhook.api.MemoryDraft}), so the largest record and the longest keyword the API allows are
 * known; {@code LuceneMemoryStoreRecordLimitsTest} builds that worst case and proves it is below
 * both limits here and reads back equal. Raising a field limit past them fails that test.
 *
 * <h2>Design note</h2>
 *
 * Two limits matter. A stored record is JSON that {@link MemoryJson} reads back under explicit
 * {@code StreamReadConstraints}; those are derived from {@link #MAX_RECORD_CHARS}, the longest
 * encoded record the reader accepts (a decoded string is never longer than its encoding). And
 * Lucene refuses a keyword term or a doc value longer than {@link #MAX_TERM_BYTES} UTF-8 bytes: the
 * id, the scope, each concept and each file are indexed as one keyword each. Analysed text needs no
 * check: the analysis chains drop tokens longer than 255 characters.
 *
 * <p>Stateless and thread-safe.
 */
final class RecordLimits {
  /**
   * The longest stored record, in characters of its JSON encoding, that the reader accepts: 8 Mi
   * characters, several times the largest record the field limits allow, low enough that decoding a
   * record stays cheap.
   */
  static final int MAX_RECORD_CHARS = 8 * 1024 * 1024;

  /** The longest keyword term or doc value Lucene indexes, in UTF-8 bytes. */
  static final int MAX_TERM_BYTES = IndexWriter.MAX_TERM_LENGTH;

  /**
   * Refuses a record holding an unpaired UTF-16 surrogate. Lucene stores text as UTF-8, which
   * cannot carry one: a long record holding one was stored with a length that did not match its
   * bytes and read back as truncated JSON, a write acknowledged and then unreadable. {@code
   * MemoryService} replaces unpaired surrogates with U+FFFD before a memory reaches the store; a
   * caller of the store itself must do the same.
   *
   * @param what what the record is of, for the message ("memory m_1")
   * @throws IllegalArgumentException if {@code record} holds an unpaired surrogate
   */
  static void checkWellFormed(String record, String what) {
    int n = record.length();
    for (int i = 0; i < n; i++) {
      char c = record.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < n
          && Character.isLowSurrogate(record.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        throw new IllegalArgumentException(
            what
                + " holds an unpaired UTF-16 surrogate (U+"
                + Integer.toHexString(c).toUpperCase(java.util.Locale.ROOT)
                + "), which the index cannot store as text; replace it with U+FFFD first, as"
                + " MemoryService does; nothing was written");
      }
    }
  }

  private RecordLimits() {}
}
