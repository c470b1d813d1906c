package dev.memhook.springai;

import dev.memhook.api.chat.ChatService;
import dev.memhook.testkit.ChatHarness;
import dev.memhook.testkit.ModelScript;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.memory.ChatMemory;

/**
 * One conversation of a {@link MemhookAdvisor} without hooks (the test attaches what it needs),
 * driven through a real {@link ChatClient} over a {@link ScriptedChatModel}: {@link #sendUser} is
 * one {@code ChatClient} call, run off the test thread as a host's request would be.
 */
final class SpringAiHarness implements ChatHarness {

  private final MemhookAdvisor advisor = MemhookAdvisor.withoutHooks().build();
  private final ChatClient client;
  private final String conversation = "conversation-" + UUID.randomUUID();
  private final ChatService view;

  SpringAiHarness(ModelScript model) {
    this.client = ChatClient.builder(new ScriptedChatModel(model)).defaultAdvisors(advisor).build();
    this.view = advisor.chatService(conversation);
  }

  @Override
  public ChatService chat() {
    return view;
  }

  @Override
  public CompletionStage<Void> sendUser(String text) {
    return CompletableFuture.runAsync(
        () ->
            client
                .prompt()
                .user(text)
                .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, conversation))
                .call()
                .chatResponse());
  }

  @Override
  public void close() {
    advisor.close();
  }
}
