package dev.memhook.api.chat;

import java.util.List;

/**
 * How a chat host calls its model: the second of the two things a host supplies to {@link
 * HostedChat} (the first is a {@link MessageMapper}). The kit calls it once per loop of a send,
 * with the request it assembled (the conversation, with injected pairs where they go) and the tools
 * registered now, after the {@code beforeSendLoop} callbacks and the {@link
 * ChatService#onRequestSubmitted} report, on the thread that runs the send.
 *
 * <p>It may block for as long as the model takes; whatever it throws fails the send (the model's
 * failure is the host's to see). Implementations must be thread-safe if the chat's sends may run on
 * several threads (they never overlap for one chat). Arguments are never null, and the lists are
 * not to be modified.
 *
 * @param <M> the host's message type
 */
@FunctionalInterface
public interface ModelCall<M> {

  /**
   * Sends {@code request} to the model, offering {@code tools}, and returns its reply as the host's
   * messages, in order (usually one); never null. Tool calls in the reply are the kit's to run,
   * unless the send hands them back ({@link HostedChat#sendNow}).
   */
  List<M> call(List<M> request, List<ToolDefinition> tools);
}
