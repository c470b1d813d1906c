package dev.memhook.core.store;

import dev.memhook.api.spi.MemoryStore;
import dev.memhook.testkit.MemoryStoreContract;

class InMemoryMemoryStoreContractTest extends MemoryStoreContract {
  @Override
  protected MemoryStore newStore() {
    return new InMemoryMemoryStore();
  }
}
