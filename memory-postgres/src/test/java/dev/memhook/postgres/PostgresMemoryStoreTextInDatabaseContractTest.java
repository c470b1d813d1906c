package dev.memhook.postgres;

/**
 * The store contracts with text and related searches in PostgreSQL ({@link TextSearch#DATABASE}).
 */
class PostgresMemoryStoreTextInDatabaseContractTest extends PostgresMemoryStoreContractTest {
  @Override
  TextSearch textSearch() {
    return TextSearch.DATABASE;
  }
}
