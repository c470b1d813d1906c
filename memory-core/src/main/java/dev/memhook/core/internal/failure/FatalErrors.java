package dev.memhook.core.internal.failure;

/**
 * The one rule for what memory work on the host's path may contain: everything it throws, except an
 * error that says the JVM itself may not go on.
 *
 * <h2>Design note</h2>
 *
 * A memory failure never breaks or stalls the host's turn (docs/ARCHITECTURE.md, the hook
 * contract), so the last line of defence around such work catches {@link Throwable}, not only
 * {@link RuntimeException}: an {@link AssertionError} from a test double, a {@link LinkageError}
 * from a half-deployed plug-in or a {@link StackOverflowError} from input nested without end fails
 * only the work that threw it, and is reported. A {@link StackOverflowError} is a {@link
 * VirtualMachineError}, but it is thrown to the thread that overflowed, unwinds that thread's
 * frames and leaves the JVM sound, so it is contained like any other failure. Every other {@link
 * VirtualMachineError} ({@link OutOfMemoryError}, {@link InternalError}, {@link UnknownError}) says
 * the JVM may not be able to go on: it is <em>fatal</em>, and is passed on to the host rather than
 * reported as if memory alone had failed. Passing it on never means stalling: whoever catches it
 * still completes what the host waits for (exceptionally) and releases what it holds.
 *
 * <p>Stateless.
 */
public final class FatalErrors {

  private FatalErrors() {}

  /**
   * Whether {@code t} must reach the host: a {@link VirtualMachineError} other than a {@link
   * StackOverflowError}.
   */
  public static boolean fatal(Throwable t) {
    return t instanceof VirtualMachineError && !(t instanceof StackOverflowError);
  }

  /**
   * Throws {@code t} if it is {@linkplain #fatal fatal}; otherwise returns, and the caller contains
   * it.
   */
  public static void rethrowIfFatal(Throwable t) {
    if (fatal(t)) {
      throw (VirtualMachineError) t;
    }
  }
}
