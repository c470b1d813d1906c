package dev.memhook.springai;

import dev.memhook.api.MemoryService;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.testkit.ChatHarness;
import dev.memhook.testkit.ChatServiceContract;
import dev.memhook.testkit.ModelScript;
import java.time.Duration;

/**
 * The chat-service contract run against the advisor's per-conversation view, driven through a real
 * {@code ChatClient} (with Spring AI's own tool-calling advisor) over a scripted model.
 */
class SpringAiChatServiceContractTest extends ChatServiceContract {

  @Override
  protected ChatHarness newHarness(ModelScript model) {
    // the contract hooks its own memory service into the view, so the advisor attaches none; the
    // advisor waits as long for the hook's recall as the contract's hook options let it take, so
    // that a slow first recall on a loaded machine is not cut short
    return new SpringAiHarness(model, Duration.ofSeconds(30));
  }

  @Override
  protected int maxLoopsPerSend() {
    return MemhookAdvisor.DEFAULT_MAX_LOOPS_PER_CALL;
  }

  @Override
  public boolean pairsGoBeforeTheUserTurn() {
    return true;
  }

  @Override
  protected MemoryService newMemoryService() {
    return Memhook.builder().inMemory().embedder(HashingEmbedder.create()).build();
  }
}
