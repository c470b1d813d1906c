package dev.memhook.testkit;

import dev.memhook.api.chat.ChatService;
import java.util.concurrent.CompletionStage;

/**
 * A host's chat service under test, wired to a {@link ModelScript}, as {@link ChatServiceContract}
 * drives it. One harness is one conversation.
 *
 * <p>Implementations need not be thread-safe beyond what {@link ChatService} itself promises.
 */
public interface ChatHarness extends AutoCloseable {

  /** The chat service under test. */
  ChatService chat();

  /**
   * Sends one user turn the way the host does: the message is visible in {@link
   * ChatService#messages()} when the {@code beforeSendLoop} callbacks fire, and the stage completes
   * when the send loop, resends included, has ended.
   */
  CompletionStage<Void> sendUser(String text);

  /** Releases what the harness holds; the default does nothing. */
  @Override
  default void close() {}
}
