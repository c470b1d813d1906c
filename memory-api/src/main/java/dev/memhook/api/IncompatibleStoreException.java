package dev.memhook.api;

/**
 * A store holds vectors from another embedding model or dimension than the embedder now configured.
 * Fix the configuration (use the model the store was built with) or rebuild the store; vector
 * spaces are never mixed.
 */
public class IncompatibleStoreException extends MemoryException {
  private static final long serialVersionUID = 1L;

  /** A mismatch, described. */
  public IncompatibleStoreException(String message) {
    super(message);
  }
}
