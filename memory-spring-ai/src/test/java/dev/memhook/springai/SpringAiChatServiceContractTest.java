package dev.memhook.springai;

import dev.memhook.api.MemoryService;
import dev.memhook.api.chat.ChatService;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.testkit.ChatHarness;
import dev.memhook.testkit.ChatServiceContract;
import dev.memhook.testkit.ModelScript;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.memory.ChatMemory;

/**
 * The chat-service contract run against the advisor's per-conversation view, driven through a real
 * {@link ChatClient} (with Spring AI's own tool-calling advisor) over a scripted model.
 */
class SpringAiChatServiceContractTest extends ChatServiceContract {

  @Override
  protected ChatHarness newHarness(ModelScript model) {
    // the contract hooks its own memory service into the view, so the advisor attaches none
    MemhookAdvisor advisor = MemhookAdvisor.withoutHooks().build();
    ChatClient client =
        ChatClient.builder(new ScriptedChatModel(model)).defaultAdvisors(advisor).build();
    String conversation = "contract-" + UUID.randomUUID();
    ChatService view = advisor.chatService(conversation);
    return new ChatHarness() {
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
    };
  }

  @Override
  protected MemoryService newMemoryService() {
    return Memhook.builder().inMemory().embedder(HashingEmbedder.create()).build();
  }
}
