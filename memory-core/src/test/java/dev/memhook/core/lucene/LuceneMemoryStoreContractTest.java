package dev.memhook.core.lucene;

import dev.memhook.api.spi.MemoryStore;
import dev.memhook.testkit.MemoryStoreContract;

/** The store contract against the in-memory {@link LuceneMemoryStore}. */
class LuceneMemoryStoreContractTest extends MemoryStoreContract {
  @Override
  protected MemoryStore newStore() {
    return LuceneMemoryStore.inMemory();
  }
}
