package dev.memhook.postgres;

/**
 * Where a {@link PostgresMemoryStore} runs text and related searches ({@link
 * PostgresMemoryStore.Builder#textSearch}). Vector searches always run in the instance's replica.
 */
public enum TextSearch {
  /**
   * In this instance's replica, with the embedded Lucene store's ranking (BM25 over the same
   * code-aware analysis): the default, since it ranks measurably better than PostgreSQL's {@code
   * ts_rank} and costs the database nothing per search.
   */
  REPLICA,
  /**
   * In PostgreSQL ({@code tsvector} with a GIN index, ranked by {@code ts_rank}; related search on
   * GIN-indexed key arrays): every search sees every committed write at once, at the price of a
   * round trip and a weaker text ranking. Vector searches still run in the replica.
   */
  DATABASE
}
