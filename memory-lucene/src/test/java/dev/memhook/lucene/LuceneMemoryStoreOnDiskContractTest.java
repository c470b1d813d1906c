package dev.memhook.lucene;

import dev.memhook.api.spi.MemoryStore;
import dev.memhook.testkit.AtomicBatchStoreContract;
import dev.memhook.testkit.DurableStoreContract;
import dev.memhook.testkit.MemoryStoreContract;
import dev.memhook.testkit.PassageVectorsStoreContract;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store contracts against an on-disk {@link LuceneMemoryStore} with its defaults (a commit per
 * write): DURABLE, ATOMIC_BATCH and PASSAGE_VECTORS.
 */
class LuceneMemoryStoreOnDiskContractTest extends MemoryStoreContract
    implements AtomicBatchStoreContract, DurableStoreContract, PassageVectorsStoreContract {

  @TempDir Path dir;
  private int stores;

  @Override
  protected MemoryStore newStore() {
    return openStore(dir.resolve("index-" + stores++));
  }

  @Override
  public MemoryStore openStore(Path location) {
    return LuceneMemoryStore.builder().directory(location).build();
  }
}
