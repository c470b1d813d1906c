package dev.memhook.postgres;

import dev.memhook.api.spi.MemoryStore;
import dev.memhook.testkit.AtomicBatchStoreContract;
import dev.memhook.testkit.DurableStoreContract;
import dev.memhook.testkit.MemoryStoreContract;
import dev.memhook.testkit.PassageVectorsStoreContract;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;

/**
 * The store contracts against a real PostgreSQL ({@link TestDatabase}): DURABLE, ATOMIC_BATCH and
 * PASSAGE_VECTORS, with searches in the local replica ({@link TextSearch#REPLICA}, the default);
 * {@link PostgresMemoryStoreTextInDatabaseContractTest} runs them with text and related searches in
 * PostgreSQL. Each store gets a schema of its own; a location of the durable contract maps to one
 * schema, which the reopen finds again.
 */
class PostgresMemoryStoreContractTest extends MemoryStoreContract
    implements AtomicBatchStoreContract, DurableStoreContract, PassageVectorsStoreContract {

  private final Map<Path, String> schemaOf = new ConcurrentHashMap<>();

  /** Where this run's stores search text. */
  TextSearch textSearch() {
    return TextSearch.REPLICA;
  }

  @Override
  protected MemoryStore newStore() {
    return PostgresMemoryStore.builder()
        .dataSource(TestDatabase.dataSource())
        .schema(TestDatabase.newSchema())
        .textSearch(textSearch())
        .build();
  }

  @Override
  public MemoryStore openStore(Path location) {
    String schema = schemaOf.computeIfAbsent(location, l -> TestDatabase.newSchema());
    return PostgresMemoryStore.builder()
        .dataSource(TestDatabase.dataSource())
        .schema(schema)
        .textSearch(textSearch())
        .build();
  }

  @AfterEach
  void dropSchemas() throws Exception {
    TestDatabase.dropSchemas();
  }
}
