package dev.memhook.core.internal.inject;

import dev.memhook.api.chat.ChatService;

/**
 * What the owner of a hook does when the hook is disposed: the service forgets it, so that the chat
 * service may be hooked again. Called once per hook, on the thread that disposed it, after the hook
 * has unregistered from the chat service. Implementations must be thread-safe.
 */
@FunctionalInterface
public interface HookDisposal {

  /** {@code hook}, on {@code chat}, has been disposed. */
  void disposed(ChatService chat, AsyncMemoryHook hook);
}
