package dev.memhook.core.internal.inject;

import dev.memhook.api.spi.MemoryStore;

class HookExampleFlowOnInMemoryStoreTest extends HookExampleFlowContract {
  @Override
  MemoryStore newStore() {
    return new dev.memhook.core.store.InMemoryMemoryStore();
  }
}
