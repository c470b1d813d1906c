/**
 * Internal: how captured observations are compressed and how a session's observations are
 * consolidated into durable memories. {@link SyntheticCompressor} is the local compressor, {@link
 * GuardedCompressor} puts a provider's compressor under a budget, a timeout and checks, and {@link
 * HeuristicConsolidator} is the local consolidator. Not exported; nothing outside {@code
 * memory-core} may depend on it.
 */
package dev.memhook.core.internal.compress;
