package dev.memhook.api.chat;

import java.util.List;
import java.util.Objects;

/**
 * A request a chat service actually submitted to the model: what a memory hook links its receipts'
 * delivery to. A request prepared and never sent is not one.
 *
 * <p>Immutable and thread-safe.
 *
 * @param attemptId the chat service's id of this submission, unique within the chat service (a
 *     retry of the same request is a new attempt)
 * @param messages the messages it carried, in the order the model reads them
 */
public record SubmittedRequest(String attemptId, List<ChatMessage> messages) {

  /** Validates and copies. */
  public SubmittedRequest {
    Objects.requireNonNull(attemptId, "attemptId");
    messages = List.copyOf(Objects.requireNonNull(messages, "messages"));
  }

  /** The ids of the messages it carried, in order. */
  public List<String> messageIds() {
    return messages.stream().map(ChatMessage::id).toList();
  }
}
