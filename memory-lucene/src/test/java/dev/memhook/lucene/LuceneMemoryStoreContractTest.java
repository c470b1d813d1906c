package dev.memhook.lucene;

import dev.memhook.api.spi.MemoryStore;
import dev.memhook.testkit.AtomicBatchStoreContract;
import dev.memhook.testkit.MemoryStoreContract;

/**
 * The store contracts against {@link LuceneMemoryStore#inMemory()}: a heap directory, ATOMIC_BATCH.
 */
class LuceneMemoryStoreContractTest extends MemoryStoreContract
    implements AtomicBatchStoreContract {
  @Override
  protected MemoryStore newStore() {
    return LuceneMemoryStore.inMemory();
  }
}
