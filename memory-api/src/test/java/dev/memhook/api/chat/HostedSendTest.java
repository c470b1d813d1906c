package dev.memhook.api.chat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** A send the host drives loop by loop: {@link HostedChat#openSend()} and {@link HostedSend}. */
class HostedSendTest {

  private static final ToolDefinition ECHO =
      new ToolDefinition("echo", "echoes", "{\"type\":\"object\"}");

  private final HostedChat<ChatMessage> chat =
      HostedChat.builder(MessageMapper.identity()).maxLoopsPerSend(2).build();
  private final List<SubmittedRequest> reported = new CopyOnWriteArrayList<>();

  HostedSendTest() {
    chat.registerTool(ECHO, call -> CompletableFuture.completedFuture(ToolResult.success("e")));
    chat.onRequestSubmitted(reported::add);
  }

  @Test
  void aLoop_movesTheQueueIn_runsTheCallbacks_reportsTheRequest_andTakesTheReply() {
    ChatMessage user = ChatMessage.user("hello");
    chat.record(user);
    chat.onBeforeSendLoop(() -> chat.injectToolCall("echo", Map.of()).thenApply(r -> null));
    AtomicBoolean afterSend = new AtomicBoolean();
    chat.onAfterSend(
        () -> {
          afterSend.set(true);
          return CompletableFuture.completedFuture(null);
        });
    ChatMessage answer = ChatMessage.assistant("hi");

    try (HostedSend<ChatMessage> send = chat.openSend()) {
      send.startLoop();
      List<ChatMessage> joined = chat.messages();
      assertEquals(
          List.of(ChatRole.USER, ChatRole.TOOL_CALL, ChatRole.TOOL_RESULT),
          joined.stream().map(ChatMessage::role).toList(),
          "the pair the callback queued joined at once");
      send.submitted(List.of(joined.get(1), joined.get(2), user));
      assertFalse(send.finishLoop(List.of(answer)), "no resend asked for");
    }

    assertTrue(afterSend.get());
    assertEquals(1, reported.size());
    assertSame(user, reported.get(0).messages().get(2), "the very message the chat logged");
    assertSame(answer, chat.messages().get(3));
    assertEquals(1, chat.loopsRun());
  }

  @Test
  void aResendAskedForDuringTheLoop_runsAnother_upToTheBound() {
    chat.onAfterSend(
        () -> {
          chat.setNeedsResend();
          return CompletableFuture.completedFuture(null);
        });
    try (HostedSend<ChatMessage> send = chat.openSend()) {
      send.startLoop();
      assertTrue(send.finishLoop(List.of(ChatMessage.assistant("one"))));
      send.startLoop();
      assertFalse(send.finishLoop(List.of(ChatMessage.assistant("two"))), "the bound is 2");
    }
  }

  @Test
  void anInterrupt_endsTheResends() {
    chat.onAfterSend(
        () -> {
          chat.setNeedsResend();
          chat.interrupt(false);
          return CompletableFuture.completedFuture(null);
        });
    try (HostedSend<ChatMessage> send = chat.openSend()) {
      send.startLoop();
      assertFalse(send.finishLoop(List.of(ChatMessage.assistant("one"))));
    }
  }

  @Test
  void otherSends_waitUntilItIsClosed_andAClosedSendRefusesMore() throws Exception {
    HostedSend<ChatMessage> send = chat.openSend();
    CompletableFuture<List<ChatMessage>> other =
        CompletableFuture.supplyAsync(
            () ->
                chat.sendNow(
                    List.of(), (request, tools) -> List.of(), HostedChat.Resend.AFTER_REPLY));
    Thread.sleep(100);
    assertFalse(other.isDone(), "the other send waits");
    send.close();
    send.close();
    assertEquals(List.of(), other.get(10, TimeUnit.SECONDS));
    assertThrows(IllegalStateException.class, send::startLoop);
  }
}
