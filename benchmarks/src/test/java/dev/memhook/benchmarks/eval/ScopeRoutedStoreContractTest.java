package dev.memhook.benchmarks.eval;

import dev.memhook.api.spi.MemoryStore;
import dev.memhook.lucene.LuceneMemoryStore;
import dev.memhook.testkit.MemoryStoreContract;

/** The harness's one-index-per-conversation store keeps the store contract. */
class ScopeRoutedStoreContractTest extends MemoryStoreContract {
  @Override
  protected MemoryStore newStore() {
    return new ScopeRoutedStore(LuceneMemoryStore::inMemory);
  }
}
