package dev.memhook.lucene;

import dev.memhook.api.spi.MemoryStore;
import dev.memhook.testkit.AtomicBatchStoreContract;
import dev.memhook.testkit.DurableStoreContract;
import dev.memhook.testkit.MemoryStoreContract;
import dev.memhook.testkit.PassageVectorsStoreContract;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store contracts against an on-disk {@link LuceneMemoryStore} with group commit and scalar
 * quantization: DURABLE (close commits what the group commit has not yet), ATOMIC_BATCH and
 * PASSAGE_VECTORS.
 */
class LuceneMemoryStoreGroupCommitContractTest extends MemoryStoreContract
    implements AtomicBatchStoreContract, DurableStoreContract, PassageVectorsStoreContract {

  @TempDir Path dir;
  private int stores;

  @Override
  protected MemoryStore newStore() {
    return openStore(dir.resolve("index-" + stores++));
  }

  @Override
  public MemoryStore openStore(Path location) {
    return LuceneMemoryStore.builder()
        .directory(location)
        .groupCommit(Duration.ofMillis(20))
        .scalarQuantization(true)
        .build();
  }
}
