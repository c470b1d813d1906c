package dev.memhook.api.chat;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Where a {@link HostedChat} keeps the host's messages it sends to the model: by default a plain
 * list of every message, or the host's own store (a LangChain4j {@code ChatMemory}, say, which may
 * keep only a window of them). The kit adds the conversation's messages as they join it, and
 * replaces the whole list when it places an injected pair before the user's turn; it reads {@link
 * #messages()} for each request of its own sends.
 *
 * <p>The kit calls it under its own lock, one call at a time; a transcript the host also writes
 * directly must be safe for that too. It must not call back into the {@code HostedChat}. Arguments
 * are never null.
 *
 * @param <M> the host's message type
 */
public interface Transcript<M> {

  /** The messages the model is sent next, oldest first; the kit does not modify the list. */
  List<M> messages();

  /** Appends a message. */
  void add(M message);

  /** Replaces every message by {@code messages}, in order. */
  void set(List<M> messages);

  /**
   * A transcript of every message, in a list, none ever dropped. Not thread-safe on its own: it is
   * meant for one {@code HostedChat}, whose lock guards it.
   */
  static <M> Transcript<M> inMemory() {
    return new Transcript<>() {
      private final List<M> messages = new ArrayList<>();

      @Override
      public List<M> messages() {
        return List.copyOf(messages);
      }

      @Override
      public void add(M message) {
        messages.add(Objects.requireNonNull(message, "message"));
      }

      @Override
      public void set(List<M> replacement) {
        List<M> copy = List.copyOf(replacement);
        messages.clear();
        messages.addAll(copy);
      }

      @Override
      public String toString() {
        return "Transcript.inMemory[" + messages.size() + " messages]";
      }
    };
  }
}
