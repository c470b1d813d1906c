package dev.memhook.examples;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo's real-model path, end to end over HTTP, against an OpenAI-compatible endpoint played by
 * a server on loopback: LangChain4j's OpenAI client, the adapter's mapping of the injected pair and
 * the tools, and the model's own {@code get_memory} call. No network beyond 127.0.0.1.
 */
class DemoRealModelTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern MEMORY_ID =
      Pattern.compile("\"id\"\\s*:\\s*\"((?:mem_|obs-)[a-z0-9]+)\"");

  @TempDir Path directory;

  @Test
  void theEnvironmentChoosesTheModel_bothVariablesOrNeither() {
    assertTrue(DemoModel.fromEnvironment(Map.of()).isScripted());
    assertTrue(DemoModel.fromEnvironment(Map.of()).description().startsWith("scripted"));
    DemoModel real =
        DemoModel.fromEnvironment(
            Map.of(DemoModel.BASE_URL, "http://127.0.0.1:1/v1", DemoModel.MODEL, "m"));
    assertFalse(real.isScripted());
    assertTrue(real.description().contains("memory-langchain4j"), real.description());
    assertThrows(
        IllegalArgumentException.class,
        () -> DemoModel.fromEnvironment(Map.of(DemoModel.MODEL, "m")));
  }

  @Test
  void aRealModelOverHttp_getsTheInjectedPair_andItsGetMemoryCallIsAnswered() throws Exception {
    List<JsonNode> requests = new CopyOnWriteArrayList<>();
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/v1/chat/completions",
        exchange -> {
          JsonNode request = JSON.readTree(exchange.getRequestBody());
          requests.add(request);
          byte[] body = JSON.writeValueAsBytes(reply(request));
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    server.start();
    String output;
    Demo.Story story;
    try {
      DemoModel model =
          DemoModel.openAiCompatible(
              "http://127.0.0.1:" + server.getAddress().getPort() + "/v1", "loopback-model", null);
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      try (PrintStream out = new PrintStream(bytes, true, UTF_8)) {
        story = Demo.run(directory, model, out);
      }
      output = bytes.toString(UTF_8);
    } finally {
      server.stop(0);
    }

    assertFalse(story.injectedIds().isEmpty(), output);
    JsonNode withPair =
        requests.stream().filter(DemoRealModelTest::carriesInjectedPair).findFirst().orElse(null);
    assertNotNull(withPair, "a request carried the injected pair");
    JsonNode messages = withPair.get("messages");
    int call = indexOfMemoryCall(messages);
    assertEquals("tool", messages.get(call + 1).get("role").asText(), "the result follows");
    assertEquals("user", messages.get(messages.size() - 1).get("role").asText(), "user last");
    assertTrue(
        requests.get(0).get("tools").toString().contains("get_memory"), "get_memory is offered");
    assertNotNull(story.fetchedId(), "the model's get_memory(id) call was made: " + output);
    assertTrue(story.answer().startsWith("fetched:"), story.answer());
    // the loopback model fetches the first memory of the injected list: since a hook's first
    // injection carries the scope's standing memories first, that is the user's preference
    assertTrue(
        story.answer().contains("\"id\":\"" + story.fetchedId().value() + "\"")
            && story.answer().contains("\"content\":"),
        "the full memory reached the model: " + story.answer());
  }

  /**
   * The loopback model: after a {@code get_memory} summary result it fetches the first memory in
   * full; after a full fetch it answers with what it read; otherwise it says "noted".
   */
  private static ObjectNode reply(JsonNode request) throws IOException {
    JsonNode messages = request.get("messages");
    JsonNode last = messages.get(messages.size() - 1);
    ObjectNode message = JSON.createObjectNode().put("role", "assistant");
    String finish = "stop";
    if (last.get("role").asText().equals("tool") && !isSummaries(last)) {
      message.put("content", "fetched: " + last.get("content").asText());
    } else {
      String summaries = summaryResult(messages);
      Matcher id = MEMORY_ID.matcher(summaries == null ? "" : summaries);
      if (summaries != null && !alreadyFetched(messages) && id.find()) {
        message.putNull("content");
        ArrayNode calls = message.putArray("tool_calls");
        ObjectNode c = calls.addObject().put("id", "call_fetch").put("type", "function");
        c.putObject("function")
            .put("name", "get_memory")
            .put("arguments", JSON.writeValueAsString(Map.of("id", id.group(1))));
        finish = "tool_calls";
      } else {
        message.put("content", "noted");
      }
    }
    ObjectNode response =
        JSON.createObjectNode()
            .put("id", "chatcmpl-loopback")
            .put("object", "chat.completion")
            .put("created", 0)
            .put("model", "loopback-model");
    response
        .putArray("choices")
        .addObject()
        .put("index", 0)
        .put("finish_reason", finish)
        .set("message", message);
    response
        .putObject("usage")
        .put("prompt_tokens", 1)
        .put("completion_tokens", 1)
        .put("total_tokens", 2);
    return response;
  }

  private static String summaryResult(JsonNode messages) {
    for (JsonNode m : messages) {
      if (m.get("role").asText().equals("tool") && isSummaries(m)) {
        return m.get("content").asText();
      }
    }
    return null;
  }

  /** A batched summary result is a JSON array; a full fetch is one object. */
  private static boolean isSummaries(JsonNode toolMessage) {
    return toolMessage.get("content").asText().startsWith("[");
  }

  private static boolean alreadyFetched(JsonNode messages) {
    for (JsonNode m : messages) {
      if (m.has("tool_calls") && m.get("tool_calls").toString().contains("call_fetch")) {
        return true;
      }
    }
    return false;
  }

  private static boolean carriesInjectedPair(JsonNode request) {
    return indexOfMemoryCall(request.get("messages")) >= 0;
  }

  private static int indexOfMemoryCall(JsonNode messages) {
    for (int i = 0; i < messages.size(); i++) {
      JsonNode m = messages.get(i);
      if (m.has("tool_calls") && m.get("tool_calls").toString().contains("\\\"summary\\\":true")) {
        return i;
      }
    }
    return -1;
  }
}
