package dev.memhook.core.internal;

import static com.google.common.base.Preconditions.checkState;

/**
 * Whether a {@link LocalMemoryService} is still open, shared by the service and its views so that
 * each of their methods refuses work after close with the same message.
 *
 * <p>Thread-safe: closing is a volatile write, seen by every later check.
 */
final class Liveness {

  private volatile boolean closed;

  /**
   * Marks the service closed.
   *
   * @return whether this call closed it (false if it was closed already)
   */
  synchronized boolean close() {
    if (closed) {
      return false;
    }
    closed = true;
    return true;
  }

  /**
   * @throws IllegalStateException if the service is closed
   */
  void check() {
    checkState(!closed, "memory service is closed");
  }
}
