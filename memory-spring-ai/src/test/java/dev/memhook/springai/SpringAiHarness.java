package dev.memhook.springai;

import dev.memhook.api.chat.ChatService;
import dev.memhook.testkit.ChatHarness;
import dev.memhook.testkit.ModelScript;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.MessageChatMemoryAdvisor;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;

/**
 * One conversation of a {@link MemhookAdvisor} without hooks (the test attaches what it needs),
 * driven through a real {@link ChatClient} over a {@link ScriptedChatModel}, beside a {@link
 * MessageChatMemoryAdvisor}: each prompt is rebuilt from the conversation's chat memory, which
 * never holds the injected pairs, as a Spring AI host's is. {@link #sendUser} is one {@code
 * ChatClient} call, run off the test thread as a host's request would be.
 */
final class SpringAiHarness implements ChatHarness {

  private final MemhookAdvisor advisor;
  private final ChatClient client;
  private final String conversation = "conversation-" + UUID.randomUUID();
  private final ChatService view;

  /** A harness whose advisor has the default callback timeout. */
  SpringAiHarness(ModelScript model) {
    this(model, MemhookAdvisor.DEFAULT_CALLBACK_TIMEOUT);
  }

  /** A harness whose advisor awaits each phase's callbacks for at most {@code callbackTimeout}. */
  SpringAiHarness(ModelScript model, Duration callbackTimeout) {
    this.advisor = MemhookAdvisor.withoutHooks().callbackTimeout(callbackTimeout).build();
    this.client =
        ChatClient.builder(new ScriptedChatModel(model))
            .defaultAdvisors(
                MessageChatMemoryAdvisor.builder(MessageWindowChatMemory.builder().build()).build(),
                advisor)
            .build();
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
