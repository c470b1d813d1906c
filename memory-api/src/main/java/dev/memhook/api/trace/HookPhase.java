package dev.memhook.api.trace;

/** The two moments in a send loop when a hook recalls and injects. */
public enum HookPhase {
  /** At the start of each send loop, for new user messages. */
  BEFORE_SEND_LOOP,
  /** After each model reply, for new model reasoning. */
  AFTER_SEND
}
