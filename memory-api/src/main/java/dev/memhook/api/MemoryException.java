package dev.memhook.api;

/**
 * A run-time failure inside Memhook (store, embedder, recall), as opposed to a caller mistake,
 * which is an {@link IllegalArgumentException}, {@link IllegalStateException} or {@link
 * NullPointerException}. Subtypes say what to do about it.
 */
public class MemoryException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** A failure with a message that says what to do. */
  public MemoryException(String message) {
    super(message);
  }

  /** A failure with a message and its cause. */
  public MemoryException(String message, Throwable cause) {
    super(message, cause);
  }
}
