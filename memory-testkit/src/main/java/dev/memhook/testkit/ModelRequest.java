package dev.memhook.testkit;

import dev.memhook.api.chat.ChatMessage;
import java.util.List;
import java.util.Objects;

/**
 * One request a model received, as a {@link ChatServiceContract} harness translates it back from
 * its chat stack: the messages in the order the model reads them and the names of the tools it was
 * offered.
 *
 * <p>Immutable and thread-safe. A harness that cannot tell who produced a message (most chat stacks
 * do not record it) gives it {@link dev.memhook.api.chat.MessageOrigin#SYNTHETIC} origin, except
 * user messages ({@code USER}) and model answers ({@code MODEL}); message ids are the harness's own
 * and mean nothing across requests.
 *
 * @param messages what the model read, oldest first
 * @param toolNames the tools offered to the model, in any order
 */
public record ModelRequest(List<ChatMessage> messages, List<String> toolNames) {

  /** Validates and copies. */
  public ModelRequest {
    messages = List.copyOf(Objects.requireNonNull(messages, "messages"));
    toolNames = List.copyOf(Objects.requireNonNull(toolNames, "toolNames"));
  }
}
