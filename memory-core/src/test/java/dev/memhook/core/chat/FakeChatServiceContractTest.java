package dev.memhook.core.chat;

import dev.memhook.api.MemoryService;
import dev.memhook.api.chat.ToolDefinition;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.testkit.ChatHarness;
import dev.memhook.testkit.ChatServiceContract;
import dev.memhook.testkit.FakeChatService;
import dev.memhook.testkit.ModelRequest;
import dev.memhook.testkit.ModelScript;
import java.util.concurrent.atomic.AtomicReference;

/** The reference chat service keeps the contract every host's chat service is held to. */
class FakeChatServiceContractTest extends ChatServiceContract {

  @Override
  protected int maxLoopsPerSend() {
    return FakeChatService.DEFAULT_MAX_LOOPS_PER_SEND;
  }

  @Override
  protected ChatHarness newHarness(ModelScript model) {
    AtomicReference<FakeChatService> self = new AtomicReference<>();
    FakeChatService chat =
        FakeChatService.builder()
            .fallbackModel(
                conversation ->
                    model.reply(
                        new ModelRequest(
                            conversation,
                            self.get().tools().stream().map(ToolDefinition::name).toList())))
            .build();
    self.set(chat);
    return ChatHarness.of(chat, chat::sendUser);
  }

  @Override
  protected MemoryService newMemoryService() {
    return Memhook.builder().inMemory().embedder(HashingEmbedder.create()).build();
  }
}
