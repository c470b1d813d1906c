/**
 * Implementor-facing SPIs: {@link dev.memhook.api.spi.MemoryStore}, {@link
 * dev.memhook.api.spi.SessionStore} (capture's session records), {@link
 * dev.memhook.api.spi.Embedder} (with {@link dev.memhook.api.spi.EmbedderProvider} for
 * ServiceLoader discovery) and {@link dev.memhook.api.Reranker}.
 */
package dev.memhook.api.spi;
