package dev.memhook.api.spi;

/**
 * What a {@link MemoryStore} guarantees beyond the contract every store keeps. A store declares its
 * capabilities in {@link MemoryStore#capabilities()}; callers that need one check it once, when
 * they are built, rather than finding out at run time. {@code dev.memhook.testkit} runs the
 * contract tests of each capability a store declares.
 */
public enum StoreCapability {
  /**
   * What a write stored when it returned is there again after {@link MemoryStore#close()} and a
   * reopen of the same location (and, for a store that says so, after the process is killed).
   */
  DURABLE,
  /**
   * {@link MemoryStore#putAll} is all-or-none: after it returns every memory of the batch is
   * visible; if it throws, none of them was written and what the store held before is unchanged.
   */
  ATOMIC_BATCH,
  /**
   * The store keeps the passage vectors given to the three-argument {@link MemoryStore#put(
   * dev.memhook.api.Memory, Embedding, java.util.List) put}, {@link MemoryStore#putAll(
   * java.util.Map, java.util.Map) putAll} and {@link MemoryStore#putNewVersion(
   * dev.memhook.api.Memory, Embedding, java.util.List) putNewVersion} with their memory, and {@link
   * MemoryStore#passageCosines} answers from them. A store without it keeps none and answers
   * nothing; recall then ranks memories by their whole vectors only.
   */
  PASSAGE_VECTORS
}
