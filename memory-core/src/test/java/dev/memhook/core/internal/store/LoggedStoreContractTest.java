package dev.memhook.core.internal.store;

import dev.memhook.api.spi.MemoryStore;
import dev.memhook.core.internal.journal.Journal;
import dev.memhook.core.internal.journal.JournalCursor;
import dev.memhook.testkit.AtomicBatchStoreContract;
import dev.memhook.testkit.MemoryStoreContract;
import dev.memhook.testkit.PassageVectorsStoreContract;

/**
 * The store contracts against a logged store, so that every call goes through its journal (on the
 * heap here) to the store it wraps and answers as that store would: over an in-memory Lucene store
 * that keeps passages ({@link PassageKeepingStore}), so ATOMIC_BATCH and PASSAGE_VECTORS.
 */
class LoggedStoreContractTest extends MemoryStoreContract
    implements AtomicBatchStoreContract, PassageVectorsStoreContract {
  @Override
  protected MemoryStore newStore() {
    return LoggedStore.open(PassageKeepingStore.inMemory(), new JournalCursor(Journal.inMemory()));
  }
}
