/**
 * Internal: the analysis chains of the Lucene store. Not exported; nothing outside {@code
 * memory-core} may depend on it.
 */
package dev.memhook.core.internal.index;
