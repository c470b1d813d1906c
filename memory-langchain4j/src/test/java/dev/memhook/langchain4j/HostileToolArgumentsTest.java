package dev.memhook.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.memhook.api.HookOptions;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryService;
import dev.memhook.api.chat.HostedChat;
import dev.memhook.api.chat.ToolDefinition;
import dev.memhook.api.chat.ToolResult;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.testkit.HostileArguments;
import dev.memhook.testkit.HostileStrings;
import dev.memhook.testkit.Seeds;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Thousands of generated tool calls from the model through a hooked {@link LangChain4jChatService}
 * ({@link HostileArguments}: malformed JSON, wrong types, 10,000-level nesting, strings of ten and
 * twenty-five million characters, NUL and lone surrogates, and hostile tool names): every turn
 * completes, nothing is thrown into the host's turn, every call is answered with a tool result the
 * model reads (a clear error, or get_memory's answer within its budget), and nothing stored
 * changes. Arguments followed by more text are not one object, and are an error too.
 */
class HostileToolArgumentsTest {

  private static final int TURNS = 100;
  private static final int CALLS_PER_TURN = 20;

  /** The longest tool error message a model is given, in characters. */
  private static final int MAX_ERROR_CHARS = 1_000;

  static LongStream seeds() {
    return Seeds.seeds(1);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void hostileToolCalls_areAnsweredWithBoundedResults_andNeverFailTheTurn(long seed) {
    String replay = Seeds.replay(seed);
    SplittableRandom r = new SplittableRandom(seed);
    HookOptions options =
        HookOptions.builder().recallTimeout(Duration.ofSeconds(30)).noCapture().build();
    try (MemoryService memory =
        Memhook.builder().inMemory().embedder(HashingEmbedder.create()).noCapture().build()) {
      List<String> ids = HostileArguments.rememberFacts(memory, r, 8);
      Map<String, Memory> before = HostileArguments.stored(memory);
      HostileArguments arguments = new HostileArguments(r.split(), ids);
      int[] errors = {0};
      int[] turn = {-1};
      assertTimeoutPreemptively(
          Duration.ofMinutes(2), // a hang guard, not a performance target
          () -> {
            for (turn[0] = 0; turn[0] < TURNS; turn[0]++) {
              errors[0] += oneTurn(memory, options, arguments, r, replay + ", turn " + turn[0]);
            }
          },
          () -> "hung in turn " + turn[0] + ", " + replay);
      int calls = TURNS * CALLS_PER_TURN;
      assertTrue(
          errors[0] > calls / 10 && errors[0] < calls - calls / 10,
          "both errors and answers, to prove anything: " + errors[0] + " errors, " + replay);
      assertEquals(before, HostileArguments.stored(memory), "nothing stored changes: " + replay);
    }
  }

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
    HostedChat<ChatMessage> tools = HostedChat.builder(LangChain4jMapper.INSTANCE).build();
    tools.registerTool(
        new ToolDefinition("get_memory", "echoes its id", "{\"type\":\"object\"}"),
        call -> CompletableFuture.completedFuture(ToolResult.success("id " + call.arguments())));
    ToolResult result =
        ModelToolCalls.run(
            tools,
            ToolExecutionRequest.builder()
                .id("c1")
                .name("get_memory")
                .arguments(arguments)
                .build());
    assertTrue(result.error(), "read as one object: " + result.content());
    assertTrue(result.content().contains("JSON object"), result.content());
  }

  /** One turn in which the model makes {@value #CALLS_PER_TURN} calls; returns the errors. */
  private static int oneTurn(
      MemoryService memory,
      HookOptions options,
      HostileArguments arguments,
      SplittableRandom r,
      String where) {
    List<ToolExecutionRequest> requests = new ArrayList<>();
    for (int i = 0; i < CALLS_PER_TURN; i++) {
      requests.add(
          ToolExecutionRequest.builder()
              .id(r.nextInt(10) == 0 ? null : "call_" + i)
              .name(toolName(r))
              .arguments(arguments.next())
              .build());
    }
    ChatModel model = new OneToolTurn(requests);
    LangChain4jChatService chat = LangChain4jChatService.create(model);
    AiMessage reply;
    try (MemoryHook hook = memory.hookInto(chat, options)) {
      reply =
          chat.sendUser("what do we know about the deploy?")
              .toCompletableFuture()
              .get(60, TimeUnit.SECONDS);
    } catch (Exception | StackOverflowError | OutOfMemoryError e) {
      throw new AssertionError("the turn failed: " + e + ", " + where, e);
    }
    assertEquals("done", reply.text(), where);

    Map<String, ToolExecutionResultMessage> results = new HashMap<>();
    for (ChatMessage m : chat.langChain4jMessages()) {
      if (m instanceof ToolExecutionResultMessage result) {
        results.put(result.id(), result);
      }
    }
    int errors = 0;
    for (ToolExecutionRequest request : requests) {
      if (request.id() == null) {
        continue; // given a fresh id, so its result cannot be matched here
      }
      ToolExecutionResultMessage result = results.get(request.id());
      String what = where + ", " + describe(request);
      if (result == null) {
        fail("no result for " + what);
      }
      String text = result.text();
      if (Boolean.TRUE.equals(result.isError())) {
        errors++;
        assertTrue(
            !text.isBlank() && text.length() <= MAX_ERROR_CHARS,
            "an unclear error (" + text.length() + " chars) for " + what);
      } else {
        assertTrue(
            text.length() <= options.maxResultChars(),
            "an answer of " + text.length() + " characters for " + what);
      }
    }
    return errors;
  }

  private static String toolName(SplittableRandom r) {
    return switch (r.nextInt(40)) {
      case 0 -> null;
      case 1 -> "";
      case 2 -> " ";
      case 3 -> "no_such_tool";
      case 4 -> HostileStrings.of(r, r.nextInt(300));
      default -> "get_memory";
    };
  }

  private static String describe(ToolExecutionRequest request) {
    return "call "
        + request.id()
        + " of "
        + request.name()
        + " with "
        + HostileArguments.describe(request.arguments());
  }

  /** Answers the first request of a turn with the tool calls, and every later one with "done". */
  private static final class OneToolTurn implements ChatModel {
    private final List<ToolExecutionRequest> requests;
    private boolean called;

    OneToolTurn(List<ToolExecutionRequest> requests) {
      this.requests = requests;
    }

    @Override
    public synchronized ChatResponse doChat(ChatRequest request) {
      AiMessage reply =
          called
              ? AiMessage.from("done")
              : AiMessage.builder().toolExecutionRequests(requests).build();
      called = true;
      return ChatResponse.builder().aiMessage(reply).build();
    }
  }
}
