package dev.memhook.langchain4j;

import dev.memhook.api.MemoryService;
import dev.memhook.api.chat.ChatService;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.testkit.ChatHarness;
import dev.memhook.testkit.ChatServiceContract;
import dev.memhook.testkit.ModelScript;
import java.util.concurrent.CompletionStage;

/**
 * {@link LangChain4jChatService} keeps the chat service contract over a scripted LangChain4j model.
 */
class LangChain4jChatServiceContractTest extends ChatServiceContract {

  @Override
  protected ChatHarness newHarness(ModelScript model) {
    LangChain4jChatService chat = LangChain4jChatService.create(new ScriptedChatModel(model));
    return new ChatHarness() {
      @Override
      public ChatService chat() {
        return chat;
      }

      @Override
      public CompletionStage<Void> sendUser(String text) {
        return chat.sendUser(text).thenApply(reply -> null);
      }
    };
  }

  @Override
  protected MemoryService newMemoryService() {
    // capture is on by default
    return Memhook.builder().inMemory().embedder(HashingEmbedder.create()).build();
  }
}
