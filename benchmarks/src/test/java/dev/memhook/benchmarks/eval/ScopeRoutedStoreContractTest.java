package dev.memhook.benchmarks.eval;

import dev.memhook.api.spi.MemoryStore;
import dev.memhook.lucene.LuceneMemoryStore;
import dev.memhook.testkit.MemoryStoreContract;
import dev.memhook.testkit.PassageVectorsStoreContract;

/**
 * The harness's one-index-per-conversation store keeps the store contract, and PASSAGE_VECTORS as
 * the Lucene stores it routes to do.
 */
class ScopeRoutedStoreContractTest extends MemoryStoreContract
    implements PassageVectorsStoreContract {
  @Override
  protected MemoryStore newStore() {
    return new ScopeRoutedStore(LuceneMemoryStore::inMemory);
  }
}
