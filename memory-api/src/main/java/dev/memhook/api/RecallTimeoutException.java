package dev.memhook.api;

/**
 * A hook's recall did not finish within its {@link HookOptions#recallTimeout()}; nothing was
 * injected.
 */
public class RecallTimeoutException extends MemoryException {
  private static final long serialVersionUID = 1L;

  /** A timeout, described. */
  public RecallTimeoutException(String message) {
    super(message);
  }
}
