package dev.memhook.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.memhook.api.HookOptions;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.chat.ChatService;
import dev.memhook.api.chat.Registration;
import dev.memhook.api.chat.SubmittedRequest;
import dev.memhook.api.chat.ToolCall;
import dev.memhook.api.chat.ToolDefinition;
import dev.memhook.api.chat.ToolResult;
import dev.memhook.api.trace.InjectionReceipt;
import dev.memhook.api.trace.RequestAppearance;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/** What the chat-service contract's tests share: waiting, a probe tool, finding messages. */
final class ChatContractSupport {

  /** The name of the probe tool the tests register. */
  static final String PROBE = "probe";

  static final ToolDefinition PROBE_TOOL =
      new ToolDefinition(
          PROBE,
          "A test tool that echoes its argument.",
          "{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}}}");

  static final long WAIT_SECONDS = 30;

  private ChatContractSupport() {}

  /**
   * Hook options without capture and with a recall timeout long enough that the first recall of a
   * cold JVM on a loaded machine still makes it: the tests check what is injected, not how fast.
   */
  static HookOptions generous() {
    return HookOptions.builder().noCapture().recallTimeout(Duration.ofSeconds(30)).build();
  }

  /** Registers {@code listener}, or skips the test when the chat service does not report. */
  static Registration reportsOrSkip(ChatService chat, Consumer<SubmittedRequest> listener) {
    Optional<Registration> registration = chat.onRequestSubmitted(listener);
    assumeTrue(
        registration.isPresent(), "onRequestSubmitted reports nothing: its tests are skipped");
    return registration.get();
  }

  /** The hook's one receipt that injected something. */
  static InjectionReceipt injectedReceipt(MemoryHook hook) {
    List<InjectionReceipt> injected =
        hook.receipts().stream().filter(r -> !r.injectedIds().isEmpty()).toList();
    assertEquals(1, injected.size(), "one injecting receipt: " + hook.receipts());
    return injected.get(0);
  }

  /** {@code appearance} names {@code request} and the ids of the pair's messages in it. */
  static void assertAppearance(
      InjectionReceipt receipt, RequestAppearance appearance, SubmittedRequest request) {
    List<ChatMessage> messages = request.messages();
    int call = indexOfCall(messages, ChatRole.TOOL_CALL, "get_memory");
    assertTrue(call >= 0, "the request carried the pair: " + roles(messages));
    ChatMessage result = messages.get(call + 1);
    assertEquals(ChatRole.TOOL_RESULT, result.role(), roles(messages));
    assertEquals(request.attemptId(), appearance.attemptId());
    assertEquals(messages.get(call).id(), appearance.callMessageId());
    assertEquals(result.id(), appearance.resultMessageId());
    assertEquals(messages.get(call).toolCall().id(), receipt.toolCallId());
  }

  static List<String> texts(List<ChatMessage> messages) {
    return messages.stream().map(ChatMessage::text).toList();
  }

  static Registration registerProbe(ChatService chat, AtomicInteger executed) {
    return chat.registerTool(
        PROBE_TOOL,
        (ToolCall call) -> {
          executed.incrementAndGet();
          return CompletableFuture.completedFuture(
              ToolResult.success("echo:" + call.arguments().get("q")));
        });
  }

  static CompletionStage<Void> done(Runnable action) {
    action.run();
    return CompletableFuture.completedFuture(null);
  }

  static <T> T await(CompletionStage<T> stage) {
    try {
      return stage.toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    } catch (ExecutionException e) {
      throw new AssertionError("the stage failed: " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      throw new AssertionError("the stage did not complete in " + WAIT_SECONDS + " s", e);
    }
  }

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  static List<ChatMessage> userMessages(List<ChatMessage> messages) {
    return messages.stream().filter(m -> m.role() == ChatRole.USER).toList();
  }

  static int indexOfCall(List<ChatMessage> messages, ChatRole role, String toolName) {
    for (int i = 0; i < messages.size(); i++) {
      ChatMessage m = messages.get(i);
      if (m.role() == role && m.toolCall().toolName().equals(toolName)) {
        return i;
      }
    }
    return -1;
  }

  static int indexOfRole(List<ChatMessage> messages, ChatRole role) {
    for (int i = 0; i < messages.size(); i++) {
      if (messages.get(i).role() == role) {
        return i;
      }
    }
    return -1;
  }

  static String roles(List<ChatMessage> messages) {
    return messages.stream().map(m -> m.role().toString()).toList().toString();
  }
}
