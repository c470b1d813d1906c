package dev.memhook.api.trace;

/**
 * What happened to the events meant for {@link MemoryListener}s since the service was built.
 *
 * <p>Immutable and thread-safe.
 *
 * @param delivered listener calls that returned normally
 * @param failed listener calls that threw (the exception is logged and otherwise ignored)
 * @param dropped events not delivered because the listeners fell too far behind
 */
public record ListenerStats(long delivered, long failed, long dropped) {}
