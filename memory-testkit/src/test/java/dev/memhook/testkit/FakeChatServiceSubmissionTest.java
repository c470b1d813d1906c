package dev.memhook.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.chat.Registration;
import dev.memhook.api.chat.SubmittedRequest;
import dev.memhook.api.chat.ToolDefinition;
import dev.memhook.api.chat.ToolResult;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** What {@link FakeChatService} reports to {@code onRequestSubmitted}, and when it does not. */
class FakeChatServiceSubmissionTest {

  private final List<List<ChatMessage>> modelSaw = new CopyOnWriteArrayList<>();
  private final List<SubmittedRequest> reported = new CopyOnWriteArrayList<>();

  /** A fake whose model calls the probe once, then answers "done". */
  private FakeChatService fake() {
    FakeChatService chat =
        FakeChatService.builder()
            .fallbackModel(
                conversation -> {
                  modelSaw.add(conversation);
                  return modelSaw.size() == 1
                      ? ModelReply.builder().toolCall("probe", Map.of("q", "x")).build()
                      : ModelReply.text("done");
                })
            .build();
    chat.registerTool(
        new ToolDefinition("probe", "echoes", "{\"type\":\"object\"}"),
        call -> CompletableFuture.completedFuture(ToolResult.success("echo")));
    return chat;
  }

  private static void await(java.util.concurrent.CompletionStage<Void> stage) {
    try {
      stage.toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new AssertionError("the send failed", e);
    }
  }

  private static List<ChatRole> roles(List<ChatMessage> messages) {
    return messages.stream().map(ChatMessage::role).toList();
  }

  @Test
  void eachModelRequest_isReportedOnce_inOrder_withTheConversationTheModelReads() {
    FakeChatService chat = fake();
    chat.onRequestSubmitted(reported::add).orElseThrow();

    await(chat.sendUser("hi"));

    assertEquals(2, modelSaw.size(), "the tool call forced a second request");
    assertEquals(
        List.of("attempt-1", "attempt-2"), reported.stream().map(r -> r.attemptId()).toList());
    assertEquals(modelSaw.get(0), reported.get(0).messages(), "ids and all");
    assertEquals(modelSaw.get(1), reported.get(1).messages());
    assertEquals(
        List.of(ChatRole.USER, ChatRole.TOOL_CALL, ChatRole.TOOL_RESULT),
        roles(reported.get(1).messages()));
    assertEquals(chat.messages().subList(0, 3), reported.get(1).messages());
  }

  @Test
  void aScriptedReply_isReportedToo() {
    FakeChatService chat = FakeChatService.create();
    chat.scriptReplies(ModelReply.text("scripted"));
    chat.onRequestSubmitted(reported::add).orElseThrow();

    await(chat.sendUser("hi"));

    assertEquals(1, reported.size());
    assertEquals(List.of(chat.messages().get(0)), reported.get(0).messages());
  }

  @Test
  void aLoopInterruptedBeforeItsModelCall_submitsAndReportsNothing() {
    FakeChatService chat = fake();
    chat.onRequestSubmitted(reported::add).orElseThrow();
    chat.onBeforeSendLoop(
        () -> {
          chat.interrupt(false);
          return CompletableFuture.completedFuture(null);
        });

    await(chat.sendUser("hi"));

    assertEquals(1, chat.loopsRun());
    assertEquals(List.of(), modelSaw);
    assertEquals(List.of(), reported);
  }

  @Test
  void aListenerThatThrows_failsNeitherTheSendNorTheListenersAfterIt() {
    FakeChatService chat = fake();
    chat.onRequestSubmitted(
        r -> {
          throw new IllegalStateException("broken listener");
        });
    chat.onRequestSubmitted(reported::add);

    await(chat.sendUser("hi"));

    assertEquals(2, modelSaw.size());
    assertEquals(2, reported.size());
    assertEquals("done", chat.messages().get(chat.messages().size() - 1).text());
  }

  @Test
  void removal_stopsReports_isIdempotent_andRemovesOnlyItsOwnRegistration() {
    FakeChatService chat = FakeChatService.create();
    List<SubmittedRequest> other = new CopyOnWriteArrayList<>();
    Consumer<SubmittedRequest> listener = reported::add;
    Registration first = chat.onRequestSubmitted(listener).orElseThrow();
    chat.onRequestSubmitted(listener).orElseThrow();
    chat.onRequestSubmitted(other::add).orElseThrow();

    await(chat.sendUser("one"));
    first.remove();
    first.remove();
    await(chat.sendUser("two"));

    assertEquals(3, reported.size(), "twice for the first send, once for the second");
    assertEquals(
        List.of("attempt-1", "attempt-2"), other.stream().map(r -> r.attemptId()).toList());
  }

  @Test
  void onRequestSubmitted_rejectsNull() {
    assertThrows(
        NullPointerException.class, () -> FakeChatService.create().onRequestSubmitted(null));
  }
}
