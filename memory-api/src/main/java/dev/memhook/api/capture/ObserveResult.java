package dev.memhook.api.capture;

/** What {@code MemoryCapture.observe} did with an event. */
public enum ObserveResult {
  /** Accepted: it will be processed, and it survives a crash of the JVM from now on. */
  ACCEPTED,
  /**
   * Recognised as a redelivery of an event accepted before; nothing new is stored. A redelivery
   * recognised only later, by the pipeline, is reported {@link #ACCEPTED} and still stored once.
   */
  DUPLICATE,
  /**
   * Not accepted: the queue was full and the policy is {@link
   * dev.memhook.api.capture.ShedPolicy#DROP_NEWEST}, or the capture journal could not take the
   * event (a disk that is full or failing; logged). Counted in {@link CaptureStats#shed()}.
   */
  SHED
}
