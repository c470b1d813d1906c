/**
 * What stores outside {@code memory-core} share with the Lucene store about stored records: {@link
 * dev.memhook.core.store.MemoryRecordJson}.
 */
package dev.memhook.core.store;
