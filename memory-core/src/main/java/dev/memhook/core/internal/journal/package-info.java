/**
 * Internal: the write-ahead journal every accepted write of the library goes through (see {@link
 * dev.memhook.core.internal.journal.Journal}). Not exported; nothing outside {@code memory-core}
 * may depend on it.
 */
package dev.memhook.core.internal.journal;
