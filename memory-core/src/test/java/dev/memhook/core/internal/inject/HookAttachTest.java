package dev.memhook.core.internal.inject;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.HookOptions;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.testkit.FakeChatService;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Attaching to a conversation already under way, and the host mistakes a hook makes visible: a user
 * message shown after {@code beforeSendLoop}, or none at all.
 */
class HookAttachTest {

  private static final Duration GENEROUS = Duration.ofSeconds(30);

  private static MemoryService service() {
    return Memhook.builder().inMemory().embedder(HashingEmbedder.create()).noCapture().build();
  }

  @Test
  void aHookAttachedMidConversation_recallsForTheLatestUserMessageOnly() throws Exception {
    try (MemoryService memory = service()) {
      Memory old = memory.remember(MemoryDraft.of(Scope.DEFAULT, "The VPN gateway is vpn-eu-1."));
      Memory latest =
          memory.remember(MemoryDraft.of(Scope.DEFAULT, "Grafana dashboards live in ops/grafana."));
      FakeChatService chat = FakeChatService.create();
      chat.append(
          ChatMessage.user("which VPN gateway do we use?"),
          ChatMessage.assistant("I am not sure."),
          ChatMessage.user("where are the Grafana dashboards?"));

      MemoryHook hook =
          memory.hookInto(chat, HookOptions.builder().recallTimeout(GENEROUS).build());
      chat.send().toCompletableFuture().get(30, TimeUnit.SECONDS);

      assertEquals(Set.of(latest.id()), hook.injectedIds(), "not " + old.id() + ", long answered");
    }
  }

  @Test
  void aUserMessageShownAfterBeforeSendLoop_getsNoMemories_andIsWarnedAboutOnce() throws Exception {
    try (MemoryService memory = service()) {
      memory.remember(MemoryDraft.of(Scope.DEFAULT, "The VPN gateway is vpn-eu-1."));
      FakeChatService chat = FakeChatService.create();
      MemoryHook hook =
          memory.hookInto(chat, HookOptions.builder().recallTimeout(GENEROUS).build());
      // a host that flushes the user's input after the callbacks: registered after the hook
      chat.onBeforeSendLoop(
          () -> {
            chat.append(ChatMessage.user("which VPN gateway do we use?"));
            return CompletableFuture.completedFuture(null);
          });

      chat.send().toCompletableFuture().get(30, TimeUnit.SECONDS);

      assertTrue(
          chat.toolCalls("get_memory").isEmpty(),
          "the model answered before any recall: that is the mistake the warning names");
      assertTrue(hook.injectedIds().isEmpty());
    }
  }

  @Test
  void hostChecks_nameAUserMessageNoBeforeSendLoopSaw_once() {
    HostChecks checks = new HostChecks("hook_test");
    ChatMessage late = ChatMessage.user("hi");
    List<ChatMessage> conversation = List.of(late, ChatMessage.assistant("hello"));

    String warning = checks.afterReply(conversation, id -> false);

    assertNotNull(warning);
    assertTrue(warning.contains(late.id()) && warning.contains("beforeSendLoop"), warning);
    assertNull(checks.afterReply(conversation, id -> false), "warned once per hook");
  }

  @Test
  void hostChecks_nameAConversationWithAnswersButNoUserMessage() {
    String warning =
        new HostChecks("hook_test")
            .afterReply(List.of(ChatMessage.assistant("hello")), id -> false);

    assertNotNull(warning);
    assertTrue(warning.contains("no user message"), warning);
  }

  @Test
  void hostChecks_stayQuietForAHostThatShowsTheUserMessageInTime() {
    ChatMessage user = ChatMessage.user("hi");

    assertNull(
        new HostChecks("hook_test")
            .afterReply(List.of(user, ChatMessage.assistant("hello")), user.id()::equals));
  }
}
