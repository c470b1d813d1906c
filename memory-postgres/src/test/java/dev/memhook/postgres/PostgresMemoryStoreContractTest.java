package dev.memhook.postgres;

import dev.memhook.api.spi.MemoryStore;
import dev.memhook.testkit.AtomicBatchStoreContract;
import dev.memhook.testkit.DurableStoreContract;
import dev.memhook.testkit.MemoryStoreContract;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;

/**
 * The store contracts against a real PostgreSQL ({@link TestDatabase}): DURABLE and ATOMIC_BATCH.
 * Each store gets a schema of its own; a location of the durable contract maps to one schema, which
 * the reopen finds again.
 */
class PostgresMemoryStoreContractTest extends MemoryStoreContract
    implements AtomicBatchStoreContract, DurableStoreContract {

  private final Map<Path, String> schemaOf = new ConcurrentHashMap<>();

  @Override
  protected MemoryStore newStore() {
    return TestDatabase.newStore();
  }

  @Override
  public MemoryStore openStore(Path location) {
    String schema = schemaOf.computeIfAbsent(location, l -> TestDatabase.newSchema());
    return PostgresMemoryStore.builder()
        .dataSource(TestDatabase.dataSource())
        .schema(schema)
        .build();
  }

  @AfterEach
  void dropSchemas() throws Exception {
    TestDatabase.dropSchemas();
  }
}
