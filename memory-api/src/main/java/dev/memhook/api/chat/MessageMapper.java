package dev.memhook.api.chat;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * How a chat host's own message type {@code M} maps to and from {@link ChatMessage}: the first of
 * the two things a host supplies to {@link HostedChat} (the other is a {@link ModelCall}). The kit
 * keeps the conversation as the host's messages, for the model, and as their {@code ChatMessage}s,
 * for hooks; it asks the mapper to translate each host message once, when it joins the
 * conversation, and to build the host messages it writes itself: a user's message, an injected
 * pair, the result of a tool call the model made.
 *
 * <p>Implementations must be thread-safe and stateless as far as the kit can tell: the kit may call
 * them from any thread, under its own lock, so they must not call back into the {@link HostedChat}.
 * Arguments are never null. {@link dev.memhook.api.chat.MessageMapper#identity()} is the mapper of
 * a host whose messages are {@code ChatMessage}s already.
 *
 * @param <M> the host's message type
 */
public interface MessageMapper<M> {

  /**
   * The {@code ChatMessage}s of one host message, in the order the model produced or reads them,
   * with fresh ids: a model's reply gives its reasoning ({@link ChatRole#REASONING}), its answer
   * ({@link ChatRole#ASSISTANT}) and one {@link ChatRole#TOOL_CALL} per call it makes, of {@link
   * MessageOrigin#MODEL} origin unless the host marked the message as injected ({@link
   * MessageOrigin#SYNTHETIC}); a user's message gives one {@link ChatRole#USER} message of {@code
   * USER} origin. Never throws: a message Memhook has no role for gives an empty list, and any
   * content the host may hold, however malformed (a tool call's arguments that are not JSON, a call
   * that names no tool), gives messages that say what they can.
   *
   * @param callsById the calls already in the conversation or earlier in the same batch, by id, so
   *     that a tool result names the call it answers; returns null for an unknown id
   */
  List<ChatMessage> toChat(M message, Function<String, ToolCall> callsById);

  /** The host message of a user's text, as the host would add it. */
  M user(String text);

  /**
   * The host messages of an injected tool call and its result, in that order: exactly two, whose
   * {@link #toChat} gives a {@link ChatRole#TOOL_CALL} and a {@link ChatRole#TOOL_RESULT} message
   * of {@link MessageOrigin#SYNTHETIC} origin.
   *
   * @throws IllegalArgumentException if the call cannot be expressed in the host's messages (its
   *     arguments cannot be written as JSON, say); the injection then fails
   */
  List<M> injectedPair(ToolCall call, ToolResult result);

  /** The host message carrying {@code result}, answering {@code call}, which the model made. */
  M toolResult(ToolCall call, ToolResult result);

  /** Whether {@code message} is a user's message, the messages a user's turn consists of. */
  boolean isUser(M message);

  /**
   * Why the {@code index}-th tool call the model made in {@code reply} (counting the {@link
   * ChatRole#TOOL_CALL} messages {@link #toChat} gives for it) cannot be run as the host received
   * it, such as a call that names no tool or whose arguments are not one JSON object; empty to run
   * it. The kit answers such a call with an error result of that text, which the model reads. The
   * default runs every call.
   */
  default Optional<String> unreadableCall(M reply, int index) {
    return Optional.empty();
  }

  /**
   * The mapper of a host whose messages are {@code ChatMessage}s: each maps to itself (same id),
   * users and pairs are made with {@link ChatMessage}'s factories, results of the model's calls are
   * {@link MessageOrigin#SYNTHETIC}.
   */
  static MessageMapper<ChatMessage> identity() {
    return IdentityMapper.INSTANCE;
  }
}
