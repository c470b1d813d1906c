package dev.memhook.lucene;

import static dev.memhook.lucene.LuceneStoreFixtures.T0;
import static dev.memhook.lucene.LuceneStoreFixtures.open;
import static dev.memhook.lucene.LuceneStoreFixtures.vector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Origin;
import dev.memhook.api.Scope;
import dev.memhook.api.SourcePin;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The largest memory and forget record the API's field limits allow, written with the characters
 * that cost most to encode, stays within what the store's reader accepts and reads back equal, also
 * after reopening: an acknowledged write is always readable.
 */
class LuceneMemoryStoreRecordLimitsTest {
  @TempDir Path dir;

  /**
   * {@code length} characters that each encode to six in JSON ({@code \u0001}) or three in UTF-8.
   */
  private static String costly(char c, int length) {
    return String.valueOf(c).repeat(length);
  }

  private static Memory largestMemory() {
    List<String> concepts = new ArrayList<>();
    for (int i = 0; i < MemoryDraft.MAX_CONCEPTS; i++) {
      concepts.add(i + costly('\u0001', MemoryDraft.MAX_CONCEPT - 3));
    }
    List<String> files = new ArrayList<>();
    for (int i = 0; i < MemoryDraft.MAX_FILES; i++) {
      files.add(i + costly('\u20ac', MemoryDraft.MAX_FILE - 3)); // 3 UTF-8 bytes each
    }
    Map<String, String> attributes = new LinkedHashMap<>();
    for (int i = 0; i < MemoryDraft.MAX_ATTRIBUTES; i++) {
      attributes.put(
          i + costly('\u0001', MemoryDraft.MAX_ATTRIBUTE_KEY - 3),
          costly('\u0001', MemoryDraft.MAX_ATTRIBUTE_VALUE));
    }
    List<SourcePin> pins = new ArrayList<>();
    for (int i = 0; i < MemoryDraft.MAX_SOURCE_PINS; i++) {
      pins.add(
          new SourcePin(
              i + costly('\u0001', MemoryDraft.MAX_PIN_PATH - 3),
              costly('\u0001', MemoryDraft.MAX_PIN_DIGEST)));
    }
    return Memory.builder()
        .id(MemoryId.of("m" + "x".repeat(MemoryId.MAX_LENGTH - 1)))
        .scope(new Scope(String.join("/", java.util.Collections.nCopies(8, "s".repeat(64)))))
        .content(costly('\u0001', MemoryDraft.MAX_CONTENT))
        .title(costly('\u0001', MemoryDraft.MAX_TITLE))
        .summary(costly('\u0001', MemoryDraft.MAX_SUMMARY))
        .context(costly('\u0001', MemoryDraft.MAX_CONTEXT))
        .concepts(concepts)
        .files(files)
        .sourceSession(costly('\u0001', MemoryDraft.MAX_SESSION))
        .origin(new Origin(Origin.Kind.TOOL, costly('\u0001', MemoryDraft.MAX_ORIGIN_NAME)))
        .attributes(attributes)
        .sourcePins(pins)
        .occurredAt(T0)
        .createdAt(T0)
        .build();
  }

  @Test
  void theLargestMemoryTheLimitsAllow_isWithinTheReadersLimits_andReadsBackEqual() {
    Memory largest = largestMemory();
    int encoded =
        MemoryJson.seal(new MemoryRecordJson(RecordLimits.MAX_RECORD_CHARS).write(largest))
            .length();
    assertTrue(
        encoded < RecordLimits.MAX_RECORD_CHARS,
        "the worst-case record is " + encoded + " characters; raise MAX_RECORD_CHARS with it");
    for (String keyword : largest.files()) {
      assertTrue(keyword.getBytes(StandardCharsets.UTF_8).length < RecordLimits.MAX_TERM_BYTES);
    }
    Path index = dir.resolve("index");
    Memory other = largest.toBuilder().id(MemoryId.of("other")).build();
    // the most ids a record lists, each as long as an id may be
    List<MemoryId> removed = new ArrayList<>(List.of(other.id()));
    while (removed.size() < ForgetRecord.MAX_REMOVED) {
      String n = Integer.toString(removed.size());
      removed.add(MemoryId.of("x".repeat(MemoryId.MAX_LENGTH - n.length()) + n));
    }
    ForgetRecord audit =
        new ForgetRecord(
            other.id(),
            other.scope(),
            costly('\u0001', ForgetRecord.MAX_ACTOR),
            costly('\u0001', ForgetRecord.MAX_REASON),
            T0,
            removed);
    int encodedAudit = new MemoryJson(RecordKeys.inMemory()).write(audit).length();
    assertTrue(
        encodedAudit < RecordLimits.MAX_RECORD_CHARS,
        "the worst-case audit record is " + encodedAudit + " characters");
    try (LuceneMemoryStore store = open(index)) {
      store.put(largest, vector(1));
      store.put(other, vector(2));
      assertEquals(largest, store.get(largest.id()).orElseThrow());
      store.delete(other.id(), audit);
    }
    try (LuceneMemoryStore store = open(index)) {
      assertEquals(largest, store.get(largest.id()).orElseThrow(), "after reopening");
      assertEquals(List.of(audit), store.forgotten(largest.scope()));
    }
  }
}
