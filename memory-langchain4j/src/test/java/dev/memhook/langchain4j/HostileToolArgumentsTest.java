package dev.memhook.langchain4j;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.memhook.api.chat.ToolDefinition;
import dev.memhook.api.chat.ToolResult;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Tool-call arguments from the model that are not one JSON object are answered with an error. */
class HostileToolArgumentsTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"id\":\"mem_a\"} {\"id\":\"mem_b\"}",
        "{\"id\":\"mem_a\"}{}",
        "{} garbage",
        "{\"id\":\"mem_a\"}]",
        "null {}"
      })
  void argumentsFollowedByMoreText_areNotOneObject_andAnswerWithAnError(String arguments) {
    ToolRegistry tools = new ToolRegistry();
    tools.register(
        new ToolDefinition("get_memory", "echoes its id", "{\"type\":\"object\"}"),
        call -> CompletableFuture.completedFuture(ToolResult.success("id " + call.arguments())));
    ToolResult result =
        tools
            .executeForModel(
                ToolExecutionRequest.builder()
                    .id("c1")
                    .name("get_memory")
                    .arguments(arguments)
                    .build())
            .toCompletableFuture()
            .join();
    assertTrue(result.error(), "read as one object: " + result.content());
    assertTrue(result.content().contains("JSON object"), result.content());
  }
}
