package dev.memhook.core.internal.inject;

import dev.memhook.api.spi.MemoryStore;

class GetMemoryToolOnInMemoryStoreTest extends GetMemoryToolContract {
  @Override
  MemoryStore newStore() {
    return new dev.memhook.core.store.InMemoryMemoryStore();
  }
}
