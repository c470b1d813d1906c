/**
 * Memhook's public API: the {@link dev.memhook.api.MemoryService}, its hooks, and the immutable
 * values it takes and returns. Chat hosts implement {@link dev.memhook.api.chat}; stores and
 * embedders implement {@link dev.memhook.api.spi}.
 */
package dev.memhook.api;
