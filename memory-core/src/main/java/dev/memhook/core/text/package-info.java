/**
 * Text analysis that stores outside {@code memory-core} share with the Lucene store: {@link
 * dev.memhook.core.text.CodeAwareTerms}.
 */
package dev.memhook.core.text;
