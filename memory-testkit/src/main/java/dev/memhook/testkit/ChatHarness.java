package dev.memhook.testkit;

import dev.memhook.api.chat.ChatService;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

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

  /**
   * A harness over {@code chat} whose user turns are sent by {@code send} (for example {@code
   * chat::sendUser}); the stage {@code send} returns completes when the send loop has ended.
   */
  static ChatHarness of(ChatService chat, Function<String, ? extends CompletionStage<?>> send) {
    Objects.requireNonNull(chat, "chat");
    Objects.requireNonNull(send, "send");
    return new ChatHarness() {
      @Override
      public ChatService chat() {
        return chat;
      }

      @Override
      public CompletionStage<Void> sendUser(String text) {
        return send.apply(text).thenApply(ignored -> null);
      }
    };
  }

  /** Releases what the harness holds; the default does nothing. */
  @Override
  default void close() {}
}
