/**
 * How the data path logs what comes in floods: {@link WarnLimiter} thins a run of like warnings to
 * one line per interval. Used by injection, capture and compression alike. Internal: not exported;
 * nothing outside {@code memory-core} may depend on it.
 */
package dev.memhook.core.internal.logging;
