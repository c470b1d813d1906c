package dev.memhook.langchain4j;

import dev.memhook.api.MemoryService;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.testkit.ChatHarness;
import dev.memhook.testkit.ChatServiceContract;
import dev.memhook.testkit.ModelScript;

/**
 * {@link LangChain4jChatService} keeps the chat service contract over a scripted LangChain4j model.
 */
class LangChain4jChatServiceContractTest extends ChatServiceContract {

  @Override
  protected ChatHarness newHarness(ModelScript model) {
    LangChain4jChatService chat = LangChain4jChatService.create(new ScriptedChatModel(model));
    return ChatHarness.of(chat, chat::sendUser);
  }

  @Override
  protected int maxLoopsPerSend() {
    return LangChain4jChatService.DEFAULT_MAX_LOOPS_PER_SEND;
  }

  @Override
  public boolean pairsGoBeforeTheUserTurn() {
    return true;
  }

  @Override
  protected MemoryService newMemoryService() {
    // capture is on by default
    return Memhook.builder().inMemory().embedder(HashingEmbedder.create()).build();
  }
}
