package dev.memhook.api;

/** Where a captured session is in its life. */
public enum SessionStatus {
  /** Events arrive. */
  ACTIVE,
  /** A {@link HookType#SESSION_END} event ended it; it was consolidated. */
  COMPLETED,
  /** No event arrived for longer than the idle limit; it was consolidated like an ended one. */
  ABANDONED
}
