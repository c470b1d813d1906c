package dev.memhook.api.chat;

/** The role of a message in a conversation. */
public enum ChatRole {
  /** A person's message. */
  USER,
  /** The model's visible answer. */
  ASSISTANT,
  /** The model's reasoning, when the host exposes it. */
  REASONING,
  /** An assistant message that calls a tool; {@link ChatMessage#toolCall()} holds the call. */
  TOOL_CALL,
  /** A tool's result; {@link ChatMessage#toolCall()} holds the call it answers. */
  TOOL_RESULT,
  /** Instructions from the host. */
  SYSTEM
}
