/**
 * Micrometer meters for Memhook: {@link dev.memhook.micrometer.MemhookMetrics}, a {@link
 * dev.memhook.api.trace.MemoryListener} that counts and times what a {@link
 * dev.memhook.api.MemoryService} reports, with bounded tags only. Micrometer types appear in this
 * package's signatures, never in {@code memory-api}.
 */
package dev.memhook.micrometer;
