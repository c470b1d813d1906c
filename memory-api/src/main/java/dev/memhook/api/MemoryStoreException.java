package dev.memhook.api;

/**
 * The store could not read or write. Retrying may help for a transient failure ({@link
 * #retriable()}: the store unreachable, a conflict, a busy server); for a corrupt or locked index,
 * close and reopen the service. Nothing was half-written.
 */
public class MemoryStoreException extends MemoryException {
  private static final long serialVersionUID = 1L;

  private final boolean retriable;

  /** A store failure, not known to be transient. */
  public MemoryStoreException(String message, Throwable cause) {
    this(message, cause, false);
  }

  /** A store failure without a cause, not known to be transient. */
  public MemoryStoreException(String message) {
    super(message);
    this.retriable = false;
  }

  /**
   * A store failure that says whether it is transient.
   *
   * @param retriable whether the same call may succeed if made again later, unchanged
   */
  public MemoryStoreException(String message, Throwable cause, boolean retriable) {
    super(message, cause);
    this.retriable = retriable;
  }

  /**
   * Whether the failure is known to be transient, so that the same call, made again later, may
   * succeed: the store's server unreachable, a write conflict, the server out of connections. False
   * when the store cannot tell, or when retrying cannot help. Either way nothing was half-written.
   */
  public boolean retriable() {
    return retriable;
  }
}
