package dev.memhook.core.capture;

import static dev.memhook.core.capture.CaptureFixtures.flush;
import static dev.memhook.core.capture.CaptureFixtures.observations;
import static dev.memhook.core.capture.CaptureFixtures.postTool;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.capture.CompressedObservation;
import dev.memhook.api.capture.Compressor;
import dev.memhook.api.capture.ObservationKind;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A provider compressor that fails in any way leaves the observation stored, in its synthetic form,
 * searchable, and the fallback counted.
 */
class CompressorFallbackTest {

  static Stream<Arguments> broken() {
    Compressor throwing =
        o -> {
          throw new IllegalStateException("provider is down");
        };
    Compressor hanging =
        o -> {
          Thread.sleep(60_000);
          return null;
        };
    Compressor nothing = o -> null;
    Compressor garbage =
        o ->
            new CompressedObservation(
                "x".repeat(10_000),
                List.of(),
                "",
                List.of(),
                List.of(),
                ObservationKind.ERROR,
                2.5);
    return Stream.of(
        Arguments.of("throws", throwing),
        Arguments.of("hangs", hanging),
        Arguments.of("returns null", nothing),
        Arguments.of("returns garbage", garbage));
  }

  @ParameterizedTest(name = "a compressor that {0}")
  @MethodSource("broken")
  void theRawObservation_isStoredAndSearchable_inItsSyntheticForm(String what, Compressor c) {
    CaptureOptions options =
        CaptureOptions.builder().compressor(c).compressorTimeout(Duration.ofMillis(200)).build();
    try (MemoryService memory =
        Memhook.builder().inMemory().embedder(HashingEmbedder.create()).capture(options).build()) {
      memory
          .capture()
          .observe(
              postTool(
                  "s1",
                  0,
                  "Bash",
                  "./gradlew :payments:test",
                  "PaymentRetryTest > retriesDeclinedCards FAILED\nTests run: 9, Failures: 1"));
      flush(memory);
      List<Memory> stored = observations(memory);
      assertEquals(1, stored.size());
      Memory m = stored.get(0);
      assertTrue(m.content().contains("PaymentRetryTest"), m.content());
      assertFalse(m.title().isBlank());
      assertTrue(m.title().length() < 1_000, m.title());
      assertTrue(m.importance() >= 0 && m.importance() <= 1);
      assertEquals(1, memory.capture().stats().compressorFallbacks(), what);
      assertEquals(
          List.of(m.id()),
          memory
              .recall(new RecallQuery(Scope.DEFAULT, "PaymentRetryTest retries declined cards", 3))
              .ids());
    }
  }

  @ParameterizedTest(name = "a compressor that {0}")
  @MethodSource("broken")
  void aBrokenCompressor_neverDelaysFlushBeyondItsTimeout(String what, Compressor c) {
    CaptureOptions options =
        CaptureOptions.builder().compressor(c).compressorTimeout(Duration.ofMillis(100)).build();
    try (MemoryService memory =
        Memhook.builder().inMemory().embedder(HashingEmbedder.create()).capture(options).build()) {
      for (int i = 0; i < 5; i++) {
        memory.capture().observe(postTool("s1", i, "Bash", "echo " + i, "line " + i));
      }
      assertTrue(memory.capture().flush(Duration.ofSeconds(30)), what);
      assertEquals(5, observations(memory).size());
    }
  }
}
