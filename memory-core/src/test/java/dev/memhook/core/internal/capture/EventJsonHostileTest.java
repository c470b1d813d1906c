package dev.memhook.core.internal.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hostile JSON: each document fails with an {@link IllegalArgumentException} whose message says
 * what is wrong, never a Jackson exception or a {@link StackOverflowError}, and never hangs.
 */
class EventJsonHostileTest {

  private static final String HEAD = "{\"hookType\":\"PostToolUse\",\"sessionId\":\"s\",";

  static Stream<Arguments> hostileDocuments() {
    return Stream.of(
        Arguments.of("empty", "", "event JSON is empty"),
        Arguments.of("blank", " \n\t ", "event JSON is empty"),
        Arguments.of(
            "top-level array",
            "[{\"hookType\":\"SessionStart\"}]",
            "event JSON must be one object, got an array"),
        Arguments.of("top-level string", "\"hi\"", "event JSON must be one object, got a string"),
        Arguments.of(
            "100k nested arrays at the top",
            "[".repeat(100_000) + "]".repeat(100_000),
            "event JSON must be one object"),
        Arguments.of(
            "100k nested arrays in data.input",
            HEAD
                + "\"data\":{\"toolName\":\"t\",\"input\":"
                + "[".repeat(100_000)
                + "]".repeat(100_000)
                + "}}",
            "event JSON exceeds a limit at line 1"),
        Arguments.of(
            "100k nested objects in an unknown field",
            HEAD + "\"x\":" + "{\"a\":".repeat(100_000) + "1" + "}".repeat(100_000) + "}",
            "event JSON exceeds a limit"),
        Arguments.of(
            "20 MB document",
            HEAD
                + "\"data\":{\"toolName\":\"t\",\"output\":\""
                + "x".repeat(20 * 1024 * 1024)
                + "\"}}",
            "event JSON is 20971"),
        Arguments.of(
            "duplicate top-level key",
            HEAD + "\"sessionId\":\"t\"}",
            "event JSON is malformed at line 1"),
        Arguments.of(
            "duplicate key inside data.input",
            HEAD + "\"data\":{\"toolName\":\"t\",\"input\":{\"a\":1,\"a\":2}}}",
            "event JSON is malformed"),
        Arguments.of(
            "trailing garbage",
            HEAD + "\"project\":\"p\"} garbage",
            "event JSON must be one object with nothing after it"),
        Arguments.of(
            "a second object",
            HEAD + "\"project\":\"p\"} {}",
            "event JSON must be one object with nothing after it"),
        Arguments.of("unclosed object", HEAD + "\"project\":\"p\"", "event JSON is malformed"),
        Arguments.of(
            "lone high surrogate escape",
            HEAD + "\"project\":\"\\ud800\"}",
            "project holds a lone surrogate (\\uD800"),
        Arguments.of(
            "lone low surrogate escape",
            "{\"hookType\":\"SessionStart\",\"sessionId\":\"a\\udc00b\"}",
            "sessionId holds a lone surrogate (\\uDC00"),
        Arguments.of(
            "lone surrogate inside data.input",
            HEAD + "\"data\":{\"toolName\":\"t\",\"input\":{\"k\":[\"\\ud83d\"]}}}",
            "data.input holds a lone surrogate"),
        Arguments.of(
            "lone surrogate in a key of data.output",
            HEAD + "\"data\":{\"toolName\":\"t\",\"output\":{\"\\udfff\":1}}}",
            "data.output holds a lone surrogate"),
        Arguments.of(
            "raw lone surrogate", HEAD + "\"cwd\":\"a\ud800\"}", "cwd holds a lone surrogate"),
        Arguments.of(
            "NaN",
            HEAD + "\"data\":{\"toolName\":\"t\",\"output\":NaN}}",
            "event JSON is malformed"),
        Arguments.of(
            "Infinity",
            HEAD + "\"data\":{\"toolName\":\"t\",\"output\":-Infinity}}",
            "event JSON is malformed"),
        Arguments.of(
            "a 5,000-digit number",
            HEAD + "\"data\":{\"toolName\":\"t\",\"output\":" + "9".repeat(5_000) + "}}",
            "event JSON exceeds a limit"),
        Arguments.of(
            "comment",
            "{/* hi */\"hookType\":\"SessionStart\",\"sessionId\":\"s\"}",
            "event JSON is malformed"),
        Arguments.of(
            "single quotes",
            "{'hookType':'SessionStart','sessionId':'s'}",
            "event JSON is malformed"),
        Arguments.of(
            "control character in a string",
            HEAD + "\"project\":\"a\u0001b\"}",
            "event JSON is malformed"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("hostileDocuments")
  void hostileDocument_isRejectedQuicklyWithAUsefulMessage(String name, String json, String start) {
    IllegalArgumentException e =
        assertTimeoutPreemptively(
            Duration.ofSeconds(10), // a hang guard, not a performance target
            () -> assertThrows(IllegalArgumentException.class, () -> EventJson.parse(json)));
    assertTrue(
        e.getMessage().startsWith(start),
        () -> "expected '" + start + "…', got: " + e.getMessage());
    assertEquals(null, e.getCause(), "no Jackson exception leaks as a cause either");
    assertTrue(e.getMessage().length() < 400, () -> "a short message, got: " + e.getMessage());
  }

  @Test
  void errorMessages_quoteOnlyAFewCharactersOfTheInput() {
    String secret = "ghp_" + "a".repeat(200);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> EventJson.parse(HEAD + "\"x\":" + secret + "}"));
    assertTrue(!e.getMessage().contains("a".repeat(30)), e.getMessage());
  }

  @Test
  void nestingJustWithinTheLimit_isAccepted() {
    int inner = EventJson.MAX_DEPTH - 2; // the event object and data take two levels
    String input = "[".repeat(inner) + "]".repeat(inner);
    String json = HEAD + "\"data\":{\"toolName\":\"t\",\"input\":" + input + "}}";
    assertEquals(input, EventJson.parse(json).data().input());
  }
}
