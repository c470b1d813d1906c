/**
 * Internal: the store as the service writes to it — the embedded store's writes acknowledged
 * through the write-ahead journal ({@link dev.memhook.core.internal.store.LoggedStore}), their
 * checkpoints and their replay. Not exported; nothing outside {@code memory-core} may depend on it.
 */
package dev.memhook.core.internal.store;
