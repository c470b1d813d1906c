package dev.memhook.springai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.memhook.api.HookOptions;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryService;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.testkit.HostileArguments;
import dev.memhook.testkit.Seeds;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.tool.ToolCallback;

/**
 * Thousands of generated argument texts from the model ({@link HostileArguments}: malformed JSON,
 * wrong types, 10,000-level nesting, strings of ten and twenty-five million characters, NUL and
 * lone surrogates) through what Spring AI's tool loop calls, the view's get_memory {@link
 * ToolCallback}, and through the reading of the model's tool calls from a prompt ({@link
 * SpringAiMapper#toChat}): nothing throws, every call is answered with a clear error or
 * get_memory's answer within its budget, and nothing stored changes. Arguments followed by more
 * text are not one object, and are refused too.
 */
class HostileToolArgumentsTest {

  private static final int CONVERSATIONS = 100;
  private static final int CALLS_PER_CONVERSATION = 20;

  /** The longest error a model is given for arguments that are not an object, in characters. */
  private static final int MAX_ERROR_CHARS = 1_000;

  static LongStream seeds() {
    return Seeds.seeds(1);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void hostileArguments_areAnsweredWithBoundedResults_andNeverThrow(long seed) {
    String replay = Seeds.replay(seed);
    SplittableRandom r = new SplittableRandom(seed);
    HookOptions options =
        HookOptions.builder().recallTimeout(Duration.ofSeconds(30)).noCapture().build();
    try (MemoryService memory =
            Memhook.builder().inMemory().embedder(HashingEmbedder.create()).noCapture().build();
        MemhookAdvisor advisor = MemhookAdvisor.builder(memory).hookOptions(options).build()) {
      List<String> ids = HostileArguments.rememberFacts(memory, r, 8);
      Map<String, Memory> before = HostileArguments.stored(memory);
      HostileArguments arguments = new HostileArguments(r.split(), ids);
      int[] errors = {0};
      int[] at = {-1};
      assertTimeoutPreemptively(
          Duration.ofMinutes(2), // a hang guard, not a performance target
          () -> {
            for (at[0] = 0; at[0] < CONVERSATIONS; at[0]++) {
              String where = replay + ", conversation " + at[0];
              errors[0] += oneConversation(advisor, "c" + at[0], arguments, options, where);
            }
          },
          () -> "hung in conversation " + at[0] + ", " + replay);
      int calls = CONVERSATIONS * CALLS_PER_CONVERSATION;
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
        "{\"id\":\"mem_a\"}]"
      })
  void argumentsFollowedByMoreText_areNotOneObject(String arguments) {
    assertThrows(JsonProcessingException.class, () -> ToolJson.readArguments(arguments));
  }

  /**
   * Sends {@value #CALLS_PER_CONVERSATION} argument texts to the get_memory callback of one
   * conversation's view, then reads them back as the model's calls in a prompt; returns the errors.
   */
  private static int oneConversation(
      MemhookAdvisor advisor,
      String conversation,
      HostileArguments arguments,
      HookOptions options,
      String where) {
    ConversationChat view = (ConversationChat) advisor.chatService(conversation);
    ToolCallback getMemory =
        view.toolCallbacks().stream()
            .filter(c -> c.getToolDefinition().name().equals("get_memory"))
            .findFirst()
            .orElseThrow(() -> new AssertionError("get_memory is not offered, " + where));
    List<AssistantMessage.ToolCall> calls = new ArrayList<>();
    List<ToolResponseMessage.ToolResponse> responses = new ArrayList<>();
    int errors = 0;
    for (int i = 0; i < CALLS_PER_CONVERSATION; i++) {
      String args = arguments.next();
      String what = where + ", call " + i + " (" + HostileArguments.describe(args) + ")";
      String result;
      try {
        result = getMemory.call(args);
      } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
        throw new AssertionError("the callback threw " + e + ", " + what, e);
      }
      errors += result.startsWith("{\"error\"") ? 1 : 0;
      int bound =
          result.startsWith("{\"error\":\"arguments are not a JSON object")
              ? MAX_ERROR_CHARS
              : options.maxResultChars();
      assertTrue(
          result.length() <= bound, "a result of " + result.length() + " characters, " + what);
      String id = "call_" + i;
      calls.add(new AssistantMessage.ToolCall(id, "function", "get_memory", args));
      responses.add(new ToolResponseMessage.ToolResponse(id, "get_memory", result));
    }

    List<Message> prompt =
        List.of(
            new UserMessage("what do we know about the deploy?"),
            AssistantMessage.builder().content("").toolCalls(calls).build(),
            ToolResponseMessage.builder().responses(responses).build());
    List<ChatMessage> carried;
    try {
      carried = new ArrayList<>();
      for (Message m : prompt) {
        carried.addAll(SpringAiMapper.INSTANCE.toChat(m, id -> null));
      }
    } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
      throw new AssertionError("reading the prompt threw " + e + ", " + where, e);
    }
    assertEquals(
        CALLS_PER_CONVERSATION,
        carried.stream().filter(m -> m.role() == ChatRole.TOOL_CALL).count(),
        where);
    advisor.endConversation(conversation);
    return errors;
  }
}
