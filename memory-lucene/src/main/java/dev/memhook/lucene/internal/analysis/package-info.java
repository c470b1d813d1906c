/**
 * Internal: the Lucene store's analysis chains ({@code CodeAwareAnalyzer}), and the small tokenizer
 * ({@code SimpleTokens}) and derived-text rules ({@code DerivedText}) that memory-core shares with
 * the store. Not part of the API and free to change between versions: only memory-core and
 * memory-postgres may depend on it ({@code ModuleBoundariesTest}), and a module descriptor will
 * export it to those two modules alone. Stores elsewhere use {@link
 * dev.memhook.lucene.CodeAwareTerms}.
 */
package dev.memhook.lucene.internal.analysis;
