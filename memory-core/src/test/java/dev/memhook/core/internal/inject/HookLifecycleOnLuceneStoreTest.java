package dev.memhook.core.internal.inject;

import dev.memhook.api.spi.MemoryStore;

class HookLifecycleOnLuceneStoreTest extends HookLifecycleContract {
  @Override
  MemoryStore newStore() {
    return dev.memhook.core.lucene.LuceneMemoryStore.inMemory();
  }
}
