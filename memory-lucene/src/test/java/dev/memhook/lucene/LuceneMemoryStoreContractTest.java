package dev.memhook.lucene;

import dev.memhook.api.spi.MemoryStore;
import dev.memhook.testkit.AtomicBatchStoreContract;
import dev.memhook.testkit.MemoryStoreContract;
import dev.memhook.testkit.PassageVectorsStoreContract;

/**
 * The store contracts against {@link LuceneMemoryStore#inMemory()}: a heap directory, ATOMIC_BATCH
 * and PASSAGE_VECTORS.
 */
class LuceneMemoryStoreContractTest extends MemoryStoreContract
    implements AtomicBatchStoreContract, PassageVectorsStoreContract {
  @Override
  protected MemoryStore newStore() {
    return LuceneMemoryStore.inMemory();
  }
}
