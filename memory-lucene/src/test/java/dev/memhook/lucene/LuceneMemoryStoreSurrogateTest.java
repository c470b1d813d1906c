package dev.memhook.lucene;

import static dev.memhook.lucene.LuceneStoreFixtures.A;
import static dev.memhook.lucene.LuceneStoreFixtures.inMemory;
import static dev.memhook.lucene.LuceneStoreFixtures.memory;
import static dev.memhook.lucene.LuceneStoreFixtures.vector;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A record holding an unpaired surrogate is refused up front and writes nothing: Lucene stores text
 * as UTF-8, and a long record holding one used to be acknowledged and then read back as truncated
 * JSON. Well-formed pairs (an emoji) round-trip.
 */
class LuceneMemoryStoreSurrogateTest {

  private static final String LONG = "a".repeat(40_000);

  @ParameterizedTest
  @ValueSource(strings = {"\udc00\ud800[", "end \ud800", "\udc00 start", "x\ud800\"y"})
  void aMemoryWithAnUnpairedSurrogate_isRefused_andNothingIsWritten(String bad) {
    try (LuceneMemoryStore store = inMemory()) {
      Memory good = memory("good", A, "stays");
      store.put(good, vector(1));
      Memory m = memory("bad", A, LONG + bad + LONG);
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> store.put(m, vector(2)));
      assertTrue(e.getMessage().contains("unpaired UTF-16 surrogate"), e.getMessage());
      assertTrue(store.get(m.id()).isEmpty());
      assertEquals(1, store.count(A));
      assertEquals(good, store.get(good.id()).orElseThrow());
      Memory titled = memory("bad-title", A, "fine").toBuilder().title("t" + bad).build();
      assertThrows(IllegalArgumentException.class, () -> store.put(titled, vector(3)));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"\ud83d\ude00", "\ud83d\ude00\ud83d\ude00 and \ud800\udc00"})
  void wellFormedPairs_roundTrip(String pairs) {
    try (LuceneMemoryStore store = inMemory()) {
      Memory m = memory("emoji", A, LONG + pairs + LONG);
      store.put(m, vector(1));
      assertEquals(m, store.get(m.id()).orElseThrow());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"\udc00", "\ud800"})
  void aForgetRecordWithAnUnpairedSurrogate_isRefused_andTheMemoryStays(String bad) {
    try (LuceneMemoryStore store = inMemory()) {
      Memory m = memory("m", A, "to forget");
      store.put(m, vector(1));
      ForgetRecord audit =
          new ForgetRecord(
              m.id(), A, "tester", "reason " + bad, Instant.parse("2024-03-02T00:00:00Z"));
      assertThrows(IllegalArgumentException.class, () -> store.delete(m.id(), audit));
      assertEquals(m, store.get(m.id()).orElseThrow());
      assertEquals(List.of(), store.forgotten(A));
    }
  }
}
