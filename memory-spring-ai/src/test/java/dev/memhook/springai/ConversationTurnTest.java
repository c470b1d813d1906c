package dev.memhook.springai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.chat.SubmittedRequest;
import dev.memhook.api.chat.ToolDefinition;
import dev.memhook.api.chat.ToolResult;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;

/** A view's turns: each call's own send of the kit, and the pairs put back at their turns. */
class ConversationTurnTest {

  private final ConversationChat view = new ConversationChat("c", Duration.ofSeconds(5), 3);

  @Test
  void aClosedTurn_refusesLateSteps_andNeverReachesTheNextTurn() {
    List<SubmittedRequest> reported = new CopyOnWriteArrayList<>();
    view.onRequestSubmitted(reported::add);
    ConversationChat.Turn first = view.beginTurn(new UserMessage("one"));
    first.close();
    ConversationChat.Turn second = view.beginTurn(new UserMessage("two"));

    assertThrows(IllegalStateException.class, first::startLoop);
    second.startLoop();
    second.submitted(List.of(new UserMessage("two")));
    assertFalse(second.finishLoop(null, "answer"));
    second.close();

    assertEquals(1, reported.size());
    assertEquals("two", reported.get(0).messages().get(0).text());
    assertEquals(
        List.of(ChatRole.USER, ChatRole.USER, ChatRole.ASSISTANT),
        view.messages().stream().map(ChatMessage::role).toList());
  }

  @Test
  void aPairInjectedBetweenTurns_goesBackBeforeTheUserMessageOfTheTurnWhoseLoopItJoined()
      throws Exception {
    view.registerTool(
        new ToolDefinition("echo", "echoes", "{\"type\":\"object\"}"),
        call -> CompletableFuture.completedFuture(ToolResult.success("e")));
    UserMessage one = new UserMessage("one");
    try (ConversationChat.Turn first = view.beginTurn(one)) {
      first.startLoop();
      first.finishLoop(null, "answer");
    }
    view.injectToolCall("echo", Map.of()).toCompletableFuture().get();
    UserMessage two = new UserMessage("two");
    try (ConversationChat.Turn second = view.beginTurn(two)) {
      second.startLoop();
    }

    UserMessage three = new UserMessage("three");
    List<Message> prompt;
    try (ConversationChat.Turn third = view.beginTurn(three)) {
      third.startLoop();
      prompt =
          third.withPairs(
              List.of(
                  one,
                  AssistantMessage.builder().content("answer").build(),
                  two,
                  AssistantMessage.builder().content("").build(),
                  three));
    }

    assertEquals(7, prompt.size(), prompt.toString());
    assertInstanceOf(AssistantMessage.class, prompt.get(2));
    assertEquals("echo", ((AssistantMessage) prompt.get(2)).getToolCalls().get(0).name());
    assertInstanceOf(ToolResponseMessage.class, prompt.get(3));
    assertSame(two, prompt.get(4), "the pair goes right before the second turn's message");
    assertSame(three, prompt.get(6));
  }
}
