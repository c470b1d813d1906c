package dev.memhook.core.internal.inject;

import dev.memhook.api.spi.MemoryStore;

class HookConcurrencyPropertyOnLuceneStoreTest extends HookConcurrencyPropertyContract {
  @Override
  MemoryStore newStore() {
    return dev.memhook.core.lucene.LuceneMemoryStore.inMemory();
  }
}
