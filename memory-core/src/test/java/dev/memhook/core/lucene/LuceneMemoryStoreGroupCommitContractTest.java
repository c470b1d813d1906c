package dev.memhook.core.lucene;

import dev.memhook.api.spi.MemoryStore;
import dev.memhook.testkit.MemoryStoreContract;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.io.TempDir;

/** The store contract against an on-disk {@link LuceneMemoryStore} with group commit and scalar quantization. */
class LuceneMemoryStoreGroupCommitContractTest extends MemoryStoreContract {
  @TempDir Path dir;

  @Override
  protected MemoryStore newStore() {
    return LuceneMemoryStore.builder()
        .directory(dir.resolve("index"))
        .groupCommit(Duration.ofMillis(20))
        .scalarQuantization(true)
        .build();
  }
}
