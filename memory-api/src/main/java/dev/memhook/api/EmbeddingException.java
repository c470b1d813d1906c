package dev.memhook.api;

/**
 * The embedder could not embed a text. Check the model files and the text; retrying rarely helps.
 */
public class EmbeddingException extends MemoryException {
  private static final long serialVersionUID = 1L;

  /** An embedding failure. */
  public EmbeddingException(String message, Throwable cause) {
    super(message, cause);
  }

  /** An embedding failure without a cause. */
  public EmbeddingException(String message) {
    super(message);
  }
}
