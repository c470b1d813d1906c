package dev.memhook.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Origin;
import dev.memhook.api.Scope;
import dev.memhook.api.SourcePin;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MemoryJsonTest {
  private final MemoryJson json = new MemoryJson();

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
    Memory back = json.readMemory(json.write(m));
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
    assertThrows(IllegalArgumentException.class, () -> json.readMemory("not json"));
    assertThrows(IllegalArgumentException.class, () -> json.readMemory("{\"format\":99}"));
    assertThrows(IllegalArgumentException.class, () -> json.readMemory("{\"format\":1}"));
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
