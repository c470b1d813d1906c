package dev.memhook.lucene;

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

  private RecordLimits() {}
}
