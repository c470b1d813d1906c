/**
 * Which failures of memory work are contained (reported, and the host's turn goes on) and which
 * must reach the host: {@link FatalErrors}. Used by injection and capture alike. Internal: not
 * exported; nothing outside {@code memory-core} may depend on it.
 */
package dev.memhook.core.internal.failure;
