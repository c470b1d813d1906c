package dev.memhook.api.chat;

/** Who produced a message: hooks scan user and model messages and ignore synthetic ones. */
public enum MessageOrigin {
  /** Typed or sent by a person. */
  USER,
  /** Produced by the model. */
  MODEL,
  /** Produced by the host or a library on the model's behalf, such as an injected tool call. */
  SYNTHETIC
}
