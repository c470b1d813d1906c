package dev.memhook.api;

/**
 * The store could not read or write. Retrying may help for a transient I/O error; for a corrupt or
 * locked index, close and reopen the service. Nothing was half-written.
 */
public class MemoryStoreException extends MemoryException {
  private static final long serialVersionUID = 1L;

  /** A store failure. */
  public MemoryStoreException(String message, Throwable cause) {
    super(message, cause);
  }

  /** A store failure without a cause. */
  public MemoryStoreException(String message) {
    super(message);
  }
}
