/**
 * Internal: how captured observations are compressed and how a session's observations are
 * consolidated into durable memories. {@link SyntheticCompressor} is the local compressor and
 * {@link HeuristicConsolidator} the local consolidator; {@link GuardedCompressor} and {@link
 * GuardedConsolidator} put a provider's compressor or consolidator under a budget, a timeout and
 * checks ({@link ProviderGuard}), falling back to the local one. Not exported; nothing outside
 * {@code memory-core} may depend on it.
 */
package dev.memhook.core.internal.compress;
