package dev.memhook.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Origin;
import dev.memhook.api.Scope;
import dev.memhook.api.SourcePin;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;

class MemoryJsonTest {
  private final RecordKeys keys = RecordKeys.inMemory();
  private final MemoryJson json = new MemoryJson(keys);

  /** The stored fields of a memory document holding {@code m}'s record, as the store writes it. */
  private Document stored(Memory m) {
    Document doc = new Document();
    doc.add(new StoredField(IndexSchema.F_RECORD, new BytesRef(json.write(m))));
    return doc;
  }

  @Test
  void memory_roundTripsEveryComponent() {
    Map<String, String> attributes = new LinkedHashMap<>();
    attributes.put("team", "platform");
    attributes.put("quote", "say \"hi\"\n\u4f60\u597d");
    Memory m =
        Memory.builder()
            .id(MemoryId.of("mem_2"))
            .type(MemoryType.BUG)
            .title("Title")
            .summary("sum")
            .content("content with \u00e9 and \ud83d\ude00")
            .concepts(List.of("auth", "jwt"))
            .files(List.of("a/B.java"))
            .scope(Scope.of("acme", "alice"))
            .sourceSession("s-1")
            .origin(Origin.tool("grep"))
            .attributes(attributes)
            .importance(0.25)
            .version(2)
            .supersedes(MemoryId.of("mem_1"))
            .latest(false)
            .occurredAt(Instant.parse("2023-05-08T15:00:00.123456789Z"))
            .createdAt(Instant.parse("2024-01-01T00:00:00Z"))
            .sourcePins(List.of(new SourcePin("a/B.java", "sha256:abc")))
            .build();
    Memory back = json.readMemory(stored(m)).orElseThrow();
    assertEquals(m, back);
    assertEquals(
        List.copyOf(attributes.keySet()),
        List.copyOf(back.attributes().keySet()),
        "attribute order kept");
  }

  @Test
  void forgetRecord_roundTrips() {
    ForgetRecord r =
        new ForgetRecord(
            MemoryId.of("m1"), Scope.of("a"), "alice", "", Instant.parse("2024-01-01T00:00:00Z"));
    assertEquals(r, json.readForget(json.write(r)));
  }

  @Test
  void forgetRecord_keepsTheIdsItsForgetRemoved_inTheirOrder() {
    ForgetRecord r =
        new ForgetRecord(
            MemoryId.of("m2"),
            Scope.of("a"),
            "alice",
            "wrong",
            Instant.parse("2024-01-01T00:00:00Z"),
            List.of(MemoryId.of("m3"), MemoryId.of("m2"), MemoryId.of("obs-1")));
    assertEquals(r, json.readForget(json.write(r)));
  }

  @Test
  void aForgetRecordStoredBeforeRecordsListedTheirIds_readsAsItsOwnIdAlone() {
    String stored =
        "{\"format\":1,\"id\":\"m1\",\"scope\":\"a\",\"actor\":\"alice\",\"reason\":\"\","
            + "\"at\":\"2024-01-01T00:00:00Z\"}";
    ForgetRecord read = json.readForget(stored);
    assertEquals(
        new ForgetRecord(
            MemoryId.of("m1"), Scope.of("a"), "alice", "", Instant.parse("2024-01-01T00:00:00Z")),
        read);
    assertEquals(List.of(MemoryId.of("m1")), read.removed());
  }

  @Test
  void unreadableRecords_areRejectedWithIllegalArgument() {
    for (String text : List.of("not json", "{\"format\":99}", "{\"format\":1}")) {
      Document legacy = new Document();
      legacy.add(new StoredField(IndexSchema.F_JSON, text));
      assertThrows(IllegalArgumentException.class, () -> json.readMemory(legacy), text);
    }
    assertThrows(IllegalArgumentException.class, () -> json.readMemory(new Document()), "none");
  }

  @Test
  void aMemoryRecord_isEncrypted_andReadsNothingOnceItsKeyIsDestroyed() throws Exception {
    Memory m = memory("mem_7", "the launch code word is periwinkle");
    byte[] sealed = json.write(m);
    String asText = new String(sealed, StandardCharsets.ISO_8859_1);
    assertFalse(asText.contains("periwinkle"), "the record's text is not in its stored bytes");
    assertTrue(asText.contains("mem_7"), "the id is, for the reader to find the key");
    Document doc = new Document();
    doc.add(new StoredField(IndexSchema.F_RECORD, new BytesRef(sealed)));
    assertEquals(m, json.readMemory(doc).orElseThrow());

    assertEquals(1, keys.destroy(List.of(m.id())));

    assertEquals(Optional.empty(), json.readMemory(doc), "forgotten: nothing to read, no error");
  }

  @Test
  void anEncryptedRecord_withAnyByteChanged_isRejected_neverReadAsAnotherRecord() {
    Memory m = memory("mem_8", "short");
    byte[] sealed = json.write(m);
    for (int i = 0; i < sealed.length; i++) {
      byte[] damaged = sealed.clone();
      damaged[i] ^= 0x10;
      Document doc = new Document();
      doc.add(new StoredField(IndexSchema.F_RECORD, new BytesRef(damaged)));
      int at = i;
      try {
        Optional<Memory> read = json.readMemory(doc);
        fail("changed at " + at + " and read back " + read);
      } catch (IllegalArgumentException expected) {
        // the seal or its authentication tag caught it
      }
    }
  }

  @Test
  void aRecordMovedUnderAnotherMemory_doesNotOpenWithThatMemorysKey() {
    Memory a = memory("mem_a", "alpha");
    Memory b = memory("mem_b", "beta");
    byte[] sealedA = json.write(a);
    json.write(b); // b has a key too
    byte[] moved =
        new String(sealedA, StandardCharsets.ISO_8859_1)
            .replace("mem_a", "mem_b")
            .getBytes(StandardCharsets.ISO_8859_1);
    Document doc = new Document();
    doc.add(new StoredField(IndexSchema.F_RECORD, new BytesRef(moved)));
    assertThrows(IllegalArgumentException.class, () -> json.readMemory(doc));
  }

  @Test
  void aPlainRecord_storedBeforeRecordsWereEncrypted_isStillRead() {
    Memory m = memory("mem_old", "from an older index");
    Document legacy = new Document();
    legacy.add(
        new StoredField(
            IndexSchema.F_JSON,
            MemoryJson.seal(new MemoryRecordJson(RecordLimits.MAX_RECORD_CHARS).write(m))));
    assertEquals(m, json.readMemory(legacy).orElseThrow());
  }

  private static Memory memory(String id, String content) {
    return Memory.builder()
        .id(MemoryId.of(id))
        .type(MemoryType.PREFERENCE)
        .content(content)
        .scope(Scope.of("acme"))
        .occurredAt(Instant.parse("2024-01-01T00:00:00Z"))
        .createdAt(Instant.parse("2024-01-01T00:00:00Z"))
        .build();
  }

  @Test
  void aSealedRecord_withAnyOneCharacterChanged_isRejected_neverReadAsAnotherRecord() {
    ForgetRecord r =
        new ForgetRecord(
            MemoryId.of("m1"), Scope.of("a"), "alice", "ci", Instant.parse("2024-01-01T00:00:00Z"));
    String stored = json.write(r);
    assertTrue(stored.startsWith(MemoryJson.SEAL), stored);
    for (int i = 0; i < stored.length(); i++) {
      for (char c : new char[] {'0', 'f', 'x', '{', '\ufffd'}) {
        if (stored.charAt(i) == c) {
          continue;
        }
        String damaged = stored.substring(0, i) + c + stored.substring(i + 1);
        assertThrows(
            IllegalArgumentException.class, () -> json.readForget(damaged), "changed at " + i);
      }
    }
    assertThrows(
        IllegalArgumentException.class, () -> json.readForget(stored.substring(0, 5)), "cut short");
    assertThrows(IllegalArgumentException.class, () -> json.readForget(null), "missing");
  }

  @Test
  void anUnsealedRecord_writtenBeforeRecordsWereSealed_isStillRead() {
    ForgetRecord r =
        new ForgetRecord(
            MemoryId.of("m1"), Scope.of("a"), "alice", "", Instant.parse("2024-01-01T00:00:00Z"));
    String unsealed = json.write(r).substring(9);
    assertTrue(unsealed.startsWith("{\"format\":1,"), unsealed);
    assertEquals(r, json.readForget(unsealed));
  }
}
