package dev.memhook.postgres;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.lucene.MemoryRecordJson;

/**
 * The stored form of a {@link Memory} and a {@link ForgetRecord}: the JSON the Lucene store writes
 * too ({@link MemoryRecordJson}), in a {@code text} column.
 *
 * <p>Why JSON in {@code text} and not {@code jsonb} or a column per field: {@code jsonb} and {@code
 * text} columns refuse U+0000, which a memory may hold; a JSON string escapes it. Whether a memory
 * is latest is not taken from the record but from its own column, so that superseding a version
 * updates one boolean instead of rewriting the record.
 *
 * <p>Thread-safe. Decoding throws {@link IllegalArgumentException} for text that is not a record
 * this codec wrote.
 */
final class RecordCodec {
  /** The longest record read back: several times the largest the field limits allow. */
  private static final int MAX_RECORD_CHARS = 8 * 1024 * 1024;

  private final MemoryRecordJson json = new MemoryRecordJson(MAX_RECORD_CHARS);

  String write(Memory m) {
    return json.write(m); // refuses an unpaired surrogate, which PostgreSQL's text cannot hold
  }

  /** The memory {@code stored} holds, latest as its row says. */
  Memory readMemory(String stored, boolean latest) {
    return json.readMemory(stored).withLatest(latest);
  }

  String write(ForgetRecord r) {
    return json.write(r);
  }

  ForgetRecord readForget(String stored) {
    return json.readForget(stored);
  }
}
