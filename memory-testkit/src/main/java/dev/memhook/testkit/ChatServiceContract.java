package dev.memhook.testkit;

import dev.memhook.api.MemoryService;

/**
 * The behaviour every {@link dev.memhook.api.chat.ChatService} implementation owes a memory hook.
 * A host's test extends it and supplies {@link #newHarness(ModelScript)}; the adapters and {@link
 * FakeChatService} run it too.
 */
public abstract class ChatServiceContract {

  /** A fresh conversation on the chat service under test, its model answering from {@code model}. */
  protected abstract ChatHarness newHarness(ModelScript model);

  /**
   * A fresh, empty memory service for the tests that hook a real service into the chat; null (the
   * default) skips them.
   */
  protected MemoryService newMemoryService() {
    return null;
  }
}
