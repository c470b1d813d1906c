package dev.memhook.api.chat;

/** A handle that undoes a registration. {@link #remove()} is idempotent and thread-safe. */
@FunctionalInterface
public interface Registration extends AutoCloseable {
  /** Undoes the registration; later calls do nothing. */
  void remove();

  /** Same as {@link #remove()}. */
  @Override
  default void close() {
    remove();
  }
}
