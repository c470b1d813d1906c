package dev.memhook.core.capture;

import static dev.memhook.core.Eventually.eventually;
import static dev.memhook.core.capture.CaptureFixtures.all;
import static dev.memhook.core.capture.CaptureFixtures.observations;
import static dev.memhook.core.capture.CaptureFixtures.postTool;
import static dev.memhook.core.capture.CaptureFixtures.prompt;
import static dev.memhook.core.capture.CaptureFixtures.sessionEnd;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryType;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.capture.Consolidation;
import dev.memhook.api.capture.Consolidator;
import dev.memhook.api.capture.SessionStatus;
import dev.memhook.api.trace.CaptureEvent;
import dev.memhook.api.trace.MemoryListener;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A provider consolidator that fails in any way leaves the session consolidated by the heuristic
 * consolidator, capture flowing, and the fallback counted and reported.
 */
class ConsolidatorFallbackTest {

  private static final String PREFERENCE =
      "I prefer tabs over spaces in every Java file of this repo.";

  static Stream<Arguments> broken() {
    Consolidator throwing =
        (s, o) -> {
          throw new IllegalStateException("provider is down");
        };
    Consolidator hanging =
        (s, o) -> {
          Thread.sleep(60_000);
          return List.of();
        };
    Consolidator garbage =
        (s, o) ->
            List.of(
                new Consolidation(
                    MemoryType.FACT,
                    "t".repeat(10_000),
                    "",
                    List.of(),
                    List.of(),
                    2.5,
                    List.of(MemoryId.of("not-an-observation"))));
    return Stream.of(
        Arguments.of("throws", throwing),
        Arguments.of("hangs past its timeout", hanging),
        Arguments.of("returns garbage", garbage));
  }

  @ParameterizedTest(name = "a consolidator that {0}")
  @MethodSource("broken")
  void theSession_isConsolidatedHeuristically_captureFlows_andTheFallbackIsCounted(
      String what, Consolidator broken) {
    List<CaptureEvent> heard = new CopyOnWriteArrayList<>();
    MemoryListener listener =
        new MemoryListener() {
          @Override
          public void captured(CaptureEvent event) {
            heard.add(event);
          }
        };
    CaptureOptions options =
        CaptureOptions.builder()
            .consolidator(broken)
            .consolidatorTimeout(Duration.ofMillis(200))
            .build();
    try (MemoryService memory =
        Memhook.builder()
            .inMemory()
            .embedder(HashingEmbedder.create())
            .capture(options)
            .listener(listener)
            .build()) {
      memory.capture().observe(prompt("s1", 0, PREFERENCE));
      memory.capture().observe(sessionEnd("s1", 1));
      // capture goes on after the session that was consolidated locally
      memory
          .capture()
          .observe(postTool("s2", 2, "Bash", "mvn -q test", "Tests run: 4, Failures: 0"));
      assertTrue(memory.capture().flush(Duration.ofSeconds(30)), what);

      assertEquals(SessionStatus.COMPLETED, memory.capture().session("s1").orElseThrow().status());
      List<Memory> preferences =
          all(memory).stream().filter(m -> m.type() == MemoryType.PREFERENCE).toList();
      assertEquals(1, preferences.size(), all(memory).toString());
      assertEquals(PREFERENCE, preferences.get(0).content());
      assertEquals(2, observations(memory).size(), "the session end is no memory");
      assertEquals(1, memory.capture().stats().consolidatorFallbacks(), what);
      assertEquals(1, memory.capture().stats().consolidated(), what);
      assertEquals(0, memory.capture().stats().compressorFallbacks(), what);
      eventually(
          () ->
              assertTrue(
                  heard.stream()
                      .anyMatch(
                          e ->
                              e.kind() == CaptureEvent.Kind.CONSOLIDATION_FELL_BACK
                                  && "s1".equals(e.sessionId())
                                  && e.memoryId() == null),
                  heard.toString()));
    }
  }
}
