package dev.memhook.springai;

import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.JsonProcessingException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Tool-call arguments from the model that are not one JSON object are refused. */
class HostileToolArgumentsTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"id\":\"mem_a\"} {\"id\":\"mem_b\"}",
        "{\"id\":\"mem_a\"}{}",
        "{} garbage",
        "{\"id\":\"mem_a\"}]"
      })
  void argumentsFollowedByMoreText_areNotOneObject(String arguments) {
    assertThrows(JsonProcessingException.class, () -> ToolJson.readArguments(arguments));
  }
}
