package dev.memhook.core.lucene;

import dev.memhook.api.spi.MemoryStore;
import dev.memhook.testkit.MemoryStoreContract;
import java.nio.file.Path;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.io.TempDir;

/** Runs the store contract against both variants of {@link LuceneMemoryStore}. */
class LuceneMemoryStoreContractTest {

  @Nested
  class InMemory extends MemoryStoreContract {
    @Override
    protected MemoryStore newStore() {
      return LuceneMemoryStore.inMemory();
    }
  }

  @Nested
  class OnDisk extends MemoryStoreContract {
    @TempDir Path dir;

    @Override
    protected MemoryStore newStore() {
      return LuceneMemoryStore.builder().directory(dir.resolve("index")).build();
    }
  }

  @Nested
  class OnDiskGroupCommitQuantized extends MemoryStoreContract {
    @TempDir Path dir;

    @Override
    protected MemoryStore newStore() {
      return LuceneMemoryStore.builder()
          .directory(dir.resolve("index"))
          .groupCommit(java.time.Duration.ofMillis(20))
          .scalarQuantization(true)
          .build();
    }
  }
}
