package dev.memhook.api.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link HostedChat.Placement#AT_ITS_TURN}: a host rebuilds each request from a history without the
 * pairs, and the kit puts every pair back at its turn.
 */
class PairsAtTheirTurnsTest {

  private static final ToolDefinition ECHO =
      new ToolDefinition("echo", "echoes", "{\"type\":\"object\"}");

  private final HostedChat<ChatMessage> chat =
      HostedChat.builder(MessageMapper.identity())
          .placement(HostedChat.Placement.AT_ITS_TURN)
          .build();
  private final ChatMessage system = ChatMessage.system("be brief");

  /** The host's history, as a chat-memory keeps it: users and answers, never the pairs. */
  private final List<ChatMessage> history = new ArrayList<>(List.of(system));

  PairsAtTheirTurnsTest() {
    chat.registerTool(
        ECHO,
        call -> CompletableFuture.completedFuture(ToolResult.success("e" + call.arguments())));
  }

  private void inject(String tag) {
    try {
      chat.injectToolCall("echo", Map.of("tag", tag))
          .toCompletableFuture()
          .get(5, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /**
   * One turn as such a host runs it: the user's message joins, {@code injectDuring} injects pairs
   * in the loop, and the model is sent the rebuilt request with the pairs placed.
   *
   * @return the request the model was sent
   */
  private List<ChatMessage> turn(String userText, String... injectDuring) {
    ChatMessage user = ChatMessage.user(userText);
    try (HostedSend<ChatMessage> send = chat.openSend()) {
      chat.record(user);
      for (String tag : injectDuring) {
        inject(tag);
      }
      send.startLoop();
      history.add(user);
      List<ChatMessage> request = send.withPairs(List.copyOf(history));
      send.submitted(request);
      ChatMessage answer = ChatMessage.assistant("answer to " + userText);
      send.finishLoop(List.of(answer));
      history.add(answer);
      return request;
    }
  }

  /** Each message as its role, a user's with its text, a pair's call with its tag. */
  private static List<String> shape(List<ChatMessage> messages) {
    return messages.stream()
        .map(
            m ->
                switch (m.role()) {
                  case USER -> "user:" + m.text();
                  case TOOL_CALL -> "call:" + m.toolCall().arguments().get("tag");
                  case TOOL_RESULT -> "result";
                  default -> m.role().toString();
                })
        .toList();
  }

  @Test
  void theCurrentTurnsPairs_goRightBeforeItsUserMessage_inTheOrderTheyJoined() {
    List<ChatMessage> request = turn("one", "a", "b");

    assertEquals(
        List.of("SYSTEM", "call:a", "result", "call:b", "result", "user:one"), shape(request));
  }

  @Test
  void olderPairs_goBackBeforeTheirTurnsUserMessage_inEveryLaterRequest() {
    turn("one", "a");
    turn("two");
    List<ChatMessage> third = turn("three", "c");

    assertEquals(
        List.of(
            "SYSTEM",
            "call:a",
            "result",
            "user:one",
            "ASSISTANT",
            "user:two",
            "ASSISTANT",
            "call:c",
            "result",
            "user:three"),
        shape(third));
  }

  @Test
  void turnsWithTheSameText_eachFindTheirOwnUserMessage_inOrder() {
    turn("again", "a");
    turn("again", "b");
    List<ChatMessage> third = turn("done");

    assertEquals(
        List.of(
            "SYSTEM",
            "call:a",
            "result",
            "user:again",
            "ASSISTANT",
            "call:b",
            "result",
            "user:again",
            "ASSISTANT",
            "user:done"),
        shape(third));
  }

  @Test
  void aPairWhoseUserMessageTheWindowDropped_goesAfterTheLeadingSystemMessages() {
    turn("one", "a");
    turn("two", "b");
    history.remove(1); // the window drops turn one's user message and answer
    history.remove(1);

    List<ChatMessage> third = turn("three");

    assertEquals(
        List.of(
            "SYSTEM",
            "call:a",
            "result",
            "call:b",
            "result",
            "user:two",
            "ASSISTANT",
            "user:three"),
        shape(third));
  }

  @Test
  void aPairInjectedBetweenTurns_belongsToTheTurnWhoseLoopItJoined() {
    turn("one");
    inject("between");
    turn("two");
    List<ChatMessage> third = turn("three");

    assertEquals(
        List.of(
            "SYSTEM",
            "user:one",
            "ASSISTANT",
            "call:between",
            "result",
            "user:two",
            "ASSISTANT",
            "user:three"),
        shape(third));
  }

  @Test
  void aResendsPair_goesBeforeTheTurnsUserMessage_withTheTurnsEarlierPairs() {
    List<List<ChatMessage>> requests = new CopyOnWriteArrayList<>();
    chat.onAfterSend(
        () -> {
          if (requests.size() == 1) {
            inject("resend");
            chat.setNeedsResend();
          }
          return CompletableFuture.completedFuture(null);
        });
    ChatMessage user = ChatMessage.user("one");
    try (HostedSend<ChatMessage> send = chat.openSend()) {
      chat.record(user);
      inject("a");
      history.add(user);
      boolean again = true;
      while (again) {
        send.startLoop();
        List<ChatMessage> request = send.withPairs(List.copyOf(history));
        requests.add(request);
        again = send.finishLoop(List.of(ChatMessage.assistant("answer")));
      }
    }

    assertEquals(2, requests.size());
    assertEquals(
        List.of("SYSTEM", "call:a", "result", "call:resend", "result", "user:one"),
        shape(requests.get(1)));
  }

  @Test
  void thePlacedPairs_areTheMessagesTheChatLogged_andReportedAsSuch() {
    List<SubmittedRequest> reported = new CopyOnWriteArrayList<>();
    chat.onRequestSubmitted(reported::add);
    turn("one", "a");
    List<ChatMessage> second = turn("two");

    List<ChatMessage> logged = chat.messages();
    assertEquals(
        List.of("call:a", "result", "user:one", "ASSISTANT", "user:two", "ASSISTANT"),
        shape(logged),
        "the log holds the pair before its turn's user message too");
    assertSame(logged.get(0), second.get(1), "the very call the chat logged");
    assertSame(logged.get(1), second.get(2));
    assertEquals(second, reported.get(1).messages(), "reported as sent, same messages");
    assertEquals(
        List.of("user:one", "ASSISTANT", "user:two", "ASSISTANT"),
        shape(chat.transcript()),
        "the transcript never holds the pairs");
  }

  @Test
  void theChatsOwnSends_placeThePairsInTheTranscriptsRequest_whichNeverHoldsThem() {
    List<List<ChatMessage>> sent = new CopyOnWriteArrayList<>();
    HostedChat<ChatMessage> own =
        HostedChat.builder(MessageMapper.identity())
            .placement(HostedChat.Placement.AT_ITS_TURN)
            .executor(Runnable::run)
            .model(
                (request, tools) -> {
                  sent.add(request);
                  return List.of(ChatMessage.assistant("ok"));
                })
            .build();
    own.registerTool(ECHO, call -> CompletableFuture.completedFuture(ToolResult.success("e")));
    own.onBeforeSendLoop(
        () ->
            sent.isEmpty()
                ? own.injectToolCall("echo", Map.of("tag", "a")).thenApply(r -> null)
                : CompletableFuture.completedFuture(null));

    own.queueUser("one");
    own.send().toCompletableFuture().join();
    own.queueUser("two");
    own.send().toCompletableFuture().join();

    assertEquals(List.of("call:a", "result", "user:one"), shape(sent.get(0)));
    assertEquals(
        List.of("call:a", "result", "user:one", "ASSISTANT", "user:two"), shape(sent.get(1)));
    assertEquals(
        List.of("user:one", "ASSISTANT", "user:two", "ASSISTANT"),
        shape(own.transcript()),
        "the transcript is the host's history, without the pairs");
  }
}
