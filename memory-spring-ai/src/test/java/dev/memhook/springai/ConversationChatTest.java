package dev.memhook.springai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.chat.ChatService;
import dev.memhook.api.chat.Registration;
import dev.memhook.api.chat.ToolDefinition;
import dev.memhook.api.chat.ToolResult;
import dev.memhook.testkit.ModelReply;
import dev.memhook.testkit.ModelRequest;
import dev.memhook.testkit.ModelScript;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The per-conversation view through a real ChatClient: the checks the chat-service contract makes,
 * run here until the testkit's contract carries them.
 */
class ConversationChatTest {

  private static final ToolDefinition ECHO =
      new ToolDefinition("echo", "echoes its text", "{\"type\":\"object\"}");

  private final ModelScript model = ModelScript.create();
  private final SpringAiHarness harness = new SpringAiHarness(model);
  private final ChatService chat = harness.chat();

  @AfterEach
  void tearDown() {
    harness.close();
  }

  private void send(String text) throws Exception {
    harness.sendUser(text).toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  private Registration echo() {
    return chat.registerTool(
        ECHO,
        call -> CompletableFuture.completedFuture(ToolResult.success("echo:" + call.arguments())));
  }

  private static List<ChatRole> roles(ModelRequest r) {
    return r.messages().stream().map(ChatMessage::role).toList();
  }

  @Test
  void injectingOutsideASend_sendsNothing_andTheNextCallCarriesThePair() throws Exception {
    echo();
    chat.injectToolCall("echo", Map.of()).toCompletableFuture().get(30, TimeUnit.SECONDS);
    chat.send().toCompletableFuture().get(30, TimeUnit.SECONDS);
    assertTrue(model.requests().isEmpty());

    send("hello");

    assertEquals(
        List.of(ChatRole.TOOL_CALL, ChatRole.TOOL_RESULT, ChatRole.USER),
        roles(model.requests().get(0)));
  }

  @Test
  void anAfterSendPair_withAResendRequest_makesExactlyOneMoreRequest() throws Exception {
    echo();
    chat.onAfterSend(
        () -> {
          if (model.requests().size() > 1) {
            return CompletableFuture.completedFuture(null);
          }
          return chat.injectToolCall("echo", Map.of()).thenAccept(r -> chat.setNeedsResend());
        });

    send("hello");

    assertEquals(2, model.requests().size());
    assertEquals(List.of(ChatRole.USER), roles(model.requests().get(0)));
    assertEquals(
        List.of(ChatRole.TOOL_CALL, ChatRole.TOOL_RESULT, ChatRole.USER),
        roles(model.requests().get(1)));
  }

  @Test
  void aCallbackThatNeverCompletes_doesNotFailTheCall() throws Exception {
    chat.onBeforeSendLoop(CompletableFuture::new);
    model.then(ModelReply.text("answered"));

    send("hello"); // waits the advisor's callback timeout, then goes on

    assertEquals(1, model.requests().size());
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
