package dev.memhook.api.capture;

/** Where a captured session is in its life. */
public enum SessionStatus {
  /** Events arrive. */
  ACTIVE,
  /** A {@link LifecycleEventType#SESSION_END} event ended it; it was consolidated. */
  COMPLETED,
  /**
   * No event arrived for longer than the idle limit; it was consolidated like an ended one. An
   * event captured after that makes it active again.
   */
  ABANDONED,
  /**
   * The service closed while the session was open ({@code CaptureOptions.endSessionsOnClose}); it
   * was consolidated like an ended one. An event captured after that, in a later lifetime of the
   * service, makes it active again: a new segment of the same session, ended in turn by a {@link
   * LifecycleEventType#SESSION_END}, the idle limit or the next close, and consolidated then with
   * every observation of the session.
   */
  CLOSED
}
