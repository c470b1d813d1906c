package dev.memhook.api;

import dev.memhook.api.trace.InjectionReceipt;
import java.util.List;
import java.util.Set;

/**
 * One attachment of a {@link MemoryService} to one chat service, with its own record of the memory
 * ids it has injected. An id is injected at most once per hook, however the callbacks interleave.
 * The hook's first injection before a send loop carries, first, the standing memories of its scopes
 * ({@link StandingProfile}, within {@link HookOptions#standingChars()}); every later one only what
 * its messages recalled.
 *
 * <p>Thread-safe. {@link #dispose()} and {@link #close()} are the same, idempotent operation: they
 * unregister both callbacks and the {@code get_memory} tool, and a disposed hook never injects
 * again. A callback already running, or waiting for its turn, when the hook is disposed completes
 * without injecting; once {@code dispose()} returns, no injection starts. An injection another
 * thread is already handing to the chat service is waited for: {@code dispose()} returns after that
 * {@code injectToolCall} has returned.
 */
public interface MemoryHook extends AutoCloseable {

  /** A random id naming this hook in logs and listener events. */
  String id();

  /** The scope this hook captures into: {@link HookOptions#captureScope()}. */
  Scope scope();

  /** The scopes this hook recalls from, in order of preference: {@link HookOptions#scopes()}. */
  List<Scope> scopes();

  /** A snapshot of the ids this hook has injected, in injection order; unmodifiable. */
  Set<MemoryId> injectedIds();

  /**
   * This hook's most recent injection receipts, latest versions, oldest first: at most {@value
   * #MAX_RECEIPTS}. They answer "why was memory X injected, or not, in this conversation?" ({@link
   * InjectionReceipt#about(MemoryId)}).
   */
  List<InjectionReceipt> receipts();

  /** The most receipts {@link #receipts()} keeps. */
  int MAX_RECEIPTS = 256;

  /** Whether {@link #dispose()} has been called. */
  boolean isDisposed();

  /**
   * Unregisters both callbacks and the tool; when it returns, no injection starts. Idempotent. It
   * never waits for a recall, only for an injection another thread is handing to the chat service
   * (its {@code injectToolCall} to return), so a chat service must not call it from another thread
   * while holding a lock its {@code injectToolCall} needs. Called on the thread that is injecting
   * (from within {@code injectToolCall}), it does not wait.
   */
  void dispose();

  /** Same as {@link #dispose()}. */
  @Override
  default void close() {
    dispose();
  }
}
