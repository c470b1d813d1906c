package dev.memhook.core.internal.compress;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Origin;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.CompressedObservation;
import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEventType;
import dev.memhook.api.capture.Observation;
import dev.memhook.api.capture.Session;
import dev.memhook.api.capture.SessionStatus;
import java.time.Instant;
import java.util.Map;

/**
 * Realistic Claude-Code-style observations, and their stored memories as the pipeline makes them.
 */
final class CaptureFixtures {

  static final Instant T0 = Instant.parse("2025-03-01T10:00:00Z");

  static final String SUREFIRE_FAILURE =
      """
      [INFO] -------------------------------------------------------
      [INFO]  T E S T S
      [INFO] -------------------------------------------------------
      [INFO] Running dev.example.CalculatorTest
      [ERROR] Tests run: 12, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.041 s <<< FAILURE! -- in dev.example.CalculatorTest
      [ERROR] dev.example.CalculatorTest.addsNegativeNumbers -- Time elapsed: 0.004 s <<< FAILURE!
      org.opentest4j.AssertionFailedError: expected: <-3> but was: <3>
      \tat dev.example.CalculatorTest.addsNegativeNumbers(CalculatorTest.java:42)
      [INFO]
      [INFO] Results:
      [INFO]
      [ERROR] Failures:
      [ERROR]   CalculatorTest.addsNegativeNumbers:42 expected: <-3> but was: <3>
      [INFO]
      [ERROR] Tests run: 12, Failures: 1, Errors: 0, Skipped: 0
      [INFO]
      [INFO] BUILD FAILURE
      [ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.5.4:test\
       on project calculator: There are test failures.
      [ERROR] Please refer to /work/calc/target/surefire-reports for the individual test results.
      """;

  static final String SUREFIRE_SUCCESS =
      """
      [INFO] Running dev.example.CalculatorTest
      [INFO] Tests run: 12, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.038 s -- in dev.example.CalculatorTest
      [INFO]
      [INFO] Results:
      [INFO]
      [INFO] Tests run: 12, Failures: 0, Errors: 0, Skipped: 0
      [INFO]
      [INFO] BUILD SUCCESS
      """;

  static final String EDIT_INPUT =
      """
      {"file_path":"/work/calc/src/main/java/dev/example/Calculator.java",\
      "old_string":"return Math.abs(a) + b;",\
      "new_string":"return a + b;\\n  // sign matters: CalculatorTest.addsNegativeNumbers"}""";

  private CaptureFixtures() {}

  static Observation observation(String id, LifecycleEventType hook, EventData data) {
    String tool = data.toolName();
    return new Observation(
        MemoryId.of(id),
        hook,
        Scope.DEFAULT,
        "session-1",
        "calc",
        "/work/calc",
        tool == null ? Origin.user() : Origin.tool(tool),
        tool,
        T0,
        T0,
        data,
        ObservationText.render(hook, tool, data),
        false);
  }

  static Observation bash(String id, String command, String output) {
    return observation(
        id,
        LifecycleEventType.POST_TOOL_USE,
        EventData.tool(
            "Bash", "{\"command\":\"" + command + "\",\"description\":\"run\"}", output));
  }

  static Observation prompt(String id, String prompt) {
    return observation(id, LifecycleEventType.PROMPT_SUBMIT, EventData.prompt(prompt));
  }

  /** The memory the pipeline stores for {@code o}: summary from narrative and facts. */
  static Memory stored(Observation o) {
    CompressedObservation c = new SyntheticCompressor().compress(o);
    String summary = c.narrative();
    return Memory.builder()
        .id(o.id())
        .title(c.title())
        .summary(summary.length() > 1_000 ? summary.substring(0, 1_000) : summary)
        .content(o.text())
        .concepts(c.concepts())
        .files(c.files())
        .scope(o.scope())
        .sourceSession(o.sessionId())
        .origin(o.origin())
        .attributes(
            Map.of(
                ObservationView.HOOK_TYPE, o.type().wireName(),
                ObservationView.KIND, c.kind().name()))
        .importance(c.importance())
        .occurredAt(o.occurredAt())
        .createdAt(o.capturedAt())
        .build();
  }

  static Session session() {
    return new Session(
        "session-1",
        Scope.DEFAULT,
        "calc",
        "/work/calc",
        T0,
        T0,
        null,
        SessionStatus.ACTIVE,
        0,
        null,
        null);
  }
}
