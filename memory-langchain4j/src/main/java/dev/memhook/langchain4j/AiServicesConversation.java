package dev.memhook.langchain4j;

import dev.langchain4j.memory.ChatMemory;
import dev.memhook.api.HookOptions;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryService;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One AiServices conversation of a {@link MemhookLangChain4j}: its chat service (a {@link
 * LangChain4jChatService} view over the application's chat memory), the chat memory AiServices is
 * given for its memory id, and its hook.
 *
 * <p>It is hooked when constructed, unless its owner is already closed; if the memory service
 * refuses (a closed memory service), the conversation goes on without memory and a warning says so.
 * {@link #detach} closes the hook; a detached conversation stays usable without memory.
 *
 * <p>Thread-safe: attaching and detaching are synchronized on this object, and the hook is
 * volatile.
 */
final class AiServicesConversation {

  // logged under MemhookLangChain4j, whose logger settings hosts configure
  private static final Logger LOG = LoggerFactory.getLogger(AiServicesConversation.class);

  private final Object memoryId;
  private final LangChain4jChatService chat;
  private final ChatMemory chatMemory;
  private volatile MemoryHook hook;

  /**
   * @param chat the view over the application's chat memory for {@code memoryId}
   * @param chatMemory the chat memory AiServices is given for {@code memoryId}
   * @param options the options to hook {@code chat} with
   * @param closed whether the owner is closed; if so, nothing is hooked
   */
  AiServicesConversation(
      Object memoryId,
      LangChain4jChatService chat,
      ChatMemory chatMemory,
      MemoryService memory,
      HookOptions options,
      BooleanSupplier closed) {
    this.memoryId = memoryId;
    this.chat = chat;
    this.chatMemory = chatMemory;
    attach(memory, options, closed);
  }

  Object memoryId() {
    return memoryId;
  }

  LangChain4jChatService chat() {
    return chat;
  }

  ChatMemory chatMemory() {
    return chatMemory;
  }

  /** The live hook, or null once detached or if hooking failed. */
  MemoryHook hook() {
    return hook;
  }

  private synchronized void attach(
      MemoryService memory, HookOptions options, BooleanSupplier closed) {
    if (closed.getAsBoolean()) {
      return;
    }
    try {
      hook = memory.hookInto(chat, options);
    } catch (RuntimeException e) {
      // a closed memory service: the conversation goes on without memory
      LOG.warn("conversation {}: hooking memory failed; it goes on without memory", memoryId, e);
    }
  }

  /** Closes the hook, if any. Idempotent. */
  synchronized void detach() {
    MemoryHook h = hook;
    hook = null;
    if (h != null) {
      h.close();
    }
  }
}
