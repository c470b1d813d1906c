package dev.memhook.core.internal.inject;

import dev.memhook.api.spi.MemoryStore;

class HookConcurrencyPropertyOnInMemoryStoreTest extends HookConcurrencyPropertyContract {
  @Override
  MemoryStore newStore() {
    return new dev.memhook.core.store.InMemoryMemoryStore();
  }
}
