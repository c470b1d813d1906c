package dev.memhook.core.internal.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEvent;
import dev.memhook.api.capture.LifecycleEventType;
import dev.memhook.testkit.Seeds;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Journal records: an exact round trip, and clear errors for records it cannot read. */
class AcceptedEventCodecTest {

  static LongStream seeds() {
    return Seeds.seeds(50);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void randomEvents_roundTripExactly(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < 40; i++) {
      AcceptedEvent event = randomEvent(random);
      byte[] bytes = AcceptedEventCodec.encode(event);
      assertEquals(event, AcceptedEventCodec.decode(bytes), Seeds.replay(seed));
    }
  }

  @Test
  void aRecordOfAnotherVersion_isRejectedNamingIt() {
    String record =
        new String(
            AcceptedEventCodec.encode(randomEvent(new SplittableRandom(1))),
            StandardCharsets.UTF_8);
    byte[] v2 = record.replaceFirst("\"v\":1", "\"v\":2").getBytes(StandardCharsets.UTF_8);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> AcceptedEventCodec.decode(v2));
    assertTrue(e.getMessage().startsWith("journal record has format version 2,"), e.getMessage());
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @ValueSource(
      strings = {
        "",
        "[]",
        "{}",
        "{\"key\":\"k\",\"v\":1}",
        "{\"v\":\"1\"}",
        "{\"v\":1,\"key\":\"k\"}",
        "{\"v\":1,\"key\":\"k\",\"observationId\":\"obs-1\",\"scope\":\"default\",\"capturedAt\":\"now\","
            + "\"truncated\":false,\"event\":{}}",
        "{\"v\":1} trailing",
        "{\"v\":1,"
      })
  void anUnreadableRecord_isRejectedWithIllegalArgument(String record) {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> AcceptedEventCodec.decode(record.getBytes(StandardCharsets.UTF_8)));
    assertTrue(e.getMessage().startsWith("journal record "), e.getMessage());
  }

  private static AcceptedEvent randomEvent(SplittableRandom r) {
    LifecycleEventType[] types = LifecycleEventType.values();
    EventData data =
        new EventData(
            maybe(r), maybe(r), maybe(r), maybe(r), maybe(r), maybe(r), maybe(r), maybe(r));
    LifecycleEvent event =
        new LifecycleEvent(
            types[r.nextInt(types.length)],
            text(r),
            maybe(r),
            maybe(r),
            instant(r),
            maybe(r),
            data);
    return new AcceptedEvent(
        event,
        text(r),
        MemoryId.of("obs-" + Long.toHexString(r.nextLong())),
        r.nextBoolean() ? Scope.DEFAULT : Scope.of("acme", "p-" + r.nextInt(1000)),
        instant(r),
        r.nextBoolean());
  }

  private static Instant instant(SplittableRandom r) {
    return switch (r.nextInt(4)) {
      case 0 ->
          Instant.ofEpochSecond(
              r.nextLong(-62_000_000_000L, 253_402_300_799L), r.nextInt(1_000_000_000));
      case 1 -> Instant.ofEpochMilli(r.nextLong(0, 4_000_000_000_000L));
      case 2 -> Instant.ofEpochSecond(r.nextLong(0, 4_000_000_000L));
      default -> r.nextBoolean() ? Instant.MAX : Instant.MIN;
    };
  }

  private static String maybe(SplittableRandom r) {
    return r.nextInt(3) == 0 ? null : text(r);
  }

  /** Text from every corner: ASCII, JSON's escapes, controls, CJK, emoji, lone surrogates. */
  private static String text(SplittableRandom r) {
    String[] pieces = {
      "a",
      "Z",
      " ",
      "\"",
      "\\",
      "/",
      "\n",
      "\t",
      "\u0000",
      "\u001f",
      "\u007f",
      "é",
      "日本",
      "\ud83d\ude00",
      "\ud800",
      "\udfff",
      "\u2028",
      "\ufeff",
      "{\"k\":[1,2]}",
      "[…cut]"
    };
    int n = r.nextInt(12);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      sb.append(pieces[r.nextInt(pieces.length)]);
    }
    return sb.toString();
  }
}
