/**
 * {@link dev.memhook.postgres.PostgresMemoryStore}: memories kept in PostgreSQL over the host's
 * {@code DataSource}, and its session store.
 *
 * <p>The "requires-automatic" lint is suppressed here only: the PostgreSQL driver is an automatic
 * module, named by its manifest.
 */
@SuppressWarnings("requires-automatic")
module dev.memhook.postgres {
  requires transitive dev.memhook.api;
  requires transitive java.sql;
  requires dev.memhook.lucene;
  requires com.github.benmanes.caffeine;
  requires org.postgresql.jdbc;
  requires org.slf4j;

  exports dev.memhook.postgres;
}
