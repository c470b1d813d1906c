package dev.memhook.api.capture;

/** What {@code observe} does when the capture queue is full. */
public enum ShedPolicy {
  /**
   * The new event is not accepted ({@link dev.memhook.api.capture.ObserveResult#SHED}); the queue
   * is kept. The default.
   */
  DROP_NEWEST,
  /**
   * The oldest queued event is dropped to make room and the new one is accepted. A dropped event
   * was already written to the capture log: if the JVM crashes before later events are processed,
   * the next open may still process it.
   */
  DROP_OLDEST,
  /**
   * The calling thread processes the event itself, with what waits in the queue: it blocks until
   * they are stored. The event is accepted once it is in the capture log, so {@code observe}
   * answers {@link dev.memhook.api.capture.ObserveResult#ACCEPTED} even if storing it then fails;
   * such an event is counted failed and is retried when the service next opens. A hook capturing
   * its conversation drops the newest instead: a host's turn never waits for capture.
   */
  CALLER_RUNS
}
