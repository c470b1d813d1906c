package dev.memhook.postgres;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.IncompatibleStoreException;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.lucene.MemoryRecordJson;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The store's writes, each one transaction: a memory row with everything derived from it (record,
 * {@code tsvector}, entity keys, vector, passage vectors), the forget records, and the {@link
 * ChangeFeed} rows of every scope and id a write changed.
 *
 * <h2>Design note</h2>
 *
 * A write first takes a transaction advisory lock on each memory id it writes, in id order, then
 * reads the id's current scope: a memory replaced into another scope changes both scopes, and the
 * lock keeps two writers of one id from each missing the other's scope. The feed is written last,
 * locking scope rows in scope order, so concurrent writes never wait on each other in opposite
 * orders. Every statement names the scope it writes in its WHERE clause, except the by-id lookups
 * of the SPI's global ids (the id's current scope, and the upsert keyed by id).
 *
 * <p>Everything a write could refuse (a vector of the wrong dimension, passages the SPI does not
 * allow, an unpaired surrogate, two memories with one id) is checked before the transaction starts,
 * so a refusal writes nothing. A memory's passages are a column of its row, so every write of the
 * row (a replace, a new version, a delete) writes or drops them with it.
 *
 * <p>Thread-safe: no state besides the immutable schema and codec.
 */
final class RowWrites {
  /**
   * A memory checked and encoded, ready to write; {@code passages} is null for a memory without
   * ({@link PassageBytes}).
   */
  record Row(Memory memory, String record, String terms, byte[] vector, byte[] passages) {}

  private final Schema schema;
  private final RecordCodec codec;
  private final ChangeFeed feed;

  RowWrites(Schema schema, RecordCodec codec, ChangeFeed feed) {
    this.schema = schema;
    this.codec = codec;
    this.feed = feed;
  }

  /**
   * The row of {@code m} with its passages, checked.
   *
   * @throws IllegalArgumentException if the embedding is not of {@code dimension}, the passages
   *     break {@link MemoryStore#checkPassages(Embedding, List)}, or the memory cannot be written
   */
  Row row(Memory m, Embedding e, List<Embedding> passages, int dimension) {
    MemoryStore.checkPassages(e, passages);
    if (e.dimension() != dimension) {
      throw new IllegalArgumentException(
          "the embedding of memory "
              + m.id().value()
              + " has "
              + e.dimension()
              + " dimensions, the store's space "
              + dimension
              + "; nothing was written");
    }
    return new Row(
        m,
        codec.write(m),
        TextTerms.vectorOf(m),
        VectorBytes.encode(e),
        PassageBytes.encode(passages, dimension));
  }

  /**
   * The rows of {@code batch}, each with its passages by id (none for an id not a key), checked.
   *
   * @throws IllegalArgumentException if two memories share an id, {@code passages} names an id not
   *     in the batch, or a memory cannot be written
   */
  List<Row> rows(
      Map<Memory, Embedding> batch, Map<MemoryId, List<Embedding>> passages, int dimension) {
    MemoryStore.checkPassages(batch, passages);
    Set<MemoryId> seen = new HashSet<>();
    List<Row> rows = new ArrayList<>(batch.size());
    for (Map.Entry<Memory, Embedding> e : batch.entrySet()) {
      if (!seen.add(e.getKey().id())) {
        throw new IllegalArgumentException(
            "batch holds two memories with id "
                + e.getKey().id().value()
                + "; nothing was written");
      }
      rows.add(
          row(
              e.getKey(),
              Objects.requireNonNull(e.getValue(), "embedding"),
              passages.getOrDefault(e.getKey().id(), List.of()),
              dimension));
    }
    return rows;
  }

  /**
   * The row of a new version with its passages, checked.
   *
   * @throws IllegalArgumentException if {@code next} supersedes nothing or is not latest, or as
   *     {@link #row} does
   */
  Row newVersionRow(Memory next, Embedding embedding, List<Embedding> passages, int dimension) {
    if (next.supersedes() == null) {
      throw new IllegalArgumentException(
          "memory " + next.id().value() + " supersedes nothing; nothing was written");
    }
    if (!next.latest()) {
      throw new IllegalArgumentException(
          "new version " + next.id().value() + " is not latest; nothing was written");
    }
    return row(next, embedding, passages, dimension);
  }

  /**
   * Checks forget records before a delete.
   *
   * @throws IllegalArgumentException if two name one id, or one holds text no record can
   */
  static void checkAudits(List<ForgetRecord> audits) {
    Set<MemoryId> seen = new HashSet<>();
    for (ForgetRecord audit : audits) {
      if (!seen.add(audit.id())) {
        throw new IllegalArgumentException("two audit records name " + audit.id().value());
      }
      MemoryRecordJson.requireWellFormed(
          audit.actor() + audit.reason(), "forget record of " + audit.id());
    }
  }

  /** Writes {@code rows} (distinct ids) in {@code c}'s transaction, adding to {@code changes}. */
  void put(Connection c, List<Row> rows, ChangeFeed.Changes changes) throws SQLException {
    List<Row> sorted = new ArrayList<>(rows);
    sorted.sort(Comparator.comparing(r -> r.memory().id().value()));
    upsert(c, sorted, changes);
    feed.publish(c, changes);
  }

  /**
   * Marks {@code next.supersedes()} not latest and writes {@code next}, in one transaction on
   * {@code c}.
   *
   * @throws IllegalArgumentException if the superseded memory is not latest in {@code next}'s scope
   *     (the caller rolls back)
   */
  void putNewVersion(Connection c, Row next, ChangeFeed.Changes changes) throws SQLException {
    Memory m = next.memory();
    lockIds(c, List.copyOf(new TreeSet<>(List.of(m.id().value(), m.supersedes().value()))));
    try (PreparedStatement ps =
        c.prepareStatement(
            "UPDATE "
                + schema.table("memhook_memory")
                + " SET latest = false WHERE id = ? AND scope = ? AND latest")) {
      ps.setString(1, m.supersedes().value());
      ps.setString(2, m.scope().value());
      if (ps.executeUpdate() != 1) {
        throw new IllegalArgumentException(
            "memory "
                + m.id().value()
                + " supersedes "
                + m.supersedes().value()
                + ", which is not a latest memory of scope "
                + m.scope().value()
                + "; nothing was written");
      }
    }
    changes.add(m.scope().value(), m.supersedes());
    upsert(c, List.of(next), changes);
    feed.publish(c, changes);
  }

  /**
   * Deletes the memory each record names, if it is in the record's scope, keeping the records of
   * those that existed, in one transaction on {@code c}.
   *
   * @return how many existed
   */
  int delete(Connection c, List<ForgetRecord> audits, ChangeFeed.Changes changes)
      throws SQLException {
    lockIds(c, audits.stream().map(a -> a.id().value()).sorted().toList());
    int deleted = 0;
    for (ForgetRecord a : audits) {
      try (PreparedStatement ps =
          c.prepareStatement(
              "DELETE FROM " + schema.table("memhook_memory") + " WHERE id = ? AND scope = ?")) {
        ps.setString(1, a.id().value());
        ps.setString(2, a.scope().value());
        if (ps.executeUpdate() == 0) {
          continue;
        }
      }
      deleted++;
      changes.add(a.scope().value(), a.id());
      try (PreparedStatement ps =
          c.prepareStatement(
              "INSERT INTO "
                  + schema.table("memhook_forgotten")
                  + " (id, scope, at_second, at_nano, record) VALUES (?, ?, ?, ?, ?)")) {
        ps.setString(1, a.id().value());
        ps.setString(2, a.scope().value());
        ps.setLong(3, a.at().getEpochSecond());
        ps.setInt(4, a.at().getNano());
        ps.setString(5, codec.write(a));
        ps.executeUpdate();
      }
    }
    feed.publish(c, changes);
    return deleted;
  }

  /**
   * Records {@code space} if the store has none yet, on {@code c} in a transaction: two instances
   * attaching at once record one space, and the other compares with it.
   *
   * @throws IncompatibleStoreException if the store holds vectors of another space
   */
  void recordSpace(Connection c, EmbeddingSpace space) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO "
                + schema.table("memhook_space")
                + " (model_id, dimension) VALUES (?, ?) ON CONFLICT (singleton) DO NOTHING")) {
      ps.setString(1, space.modelId());
      ps.setInt(2, space.dimension());
      ps.executeUpdate();
    }
    try (PreparedStatement ps =
            c.prepareStatement("SELECT model_id, dimension FROM " + schema.table("memhook_space"));
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      EmbeddingSpace recorded = new EmbeddingSpace(rs.getString(1), rs.getInt(2));
      if (!recorded.equals(space)) {
        throw new IncompatibleStoreException(
            "the PostgreSQL store in schema '"
                + schema.name()
                + "' holds vectors of "
                + recorded
                + ", not "
                + space
                + ": use the embedder it was written with, or another schema");
      }
    }
  }

  /**
   * Locks the ids of {@code rows} (sorted by id), notes the scopes they are in now, and writes
   * them: three statements whatever the number of rows.
   */
  private void upsert(Connection c, List<Row> rows, ChangeFeed.Changes changes)
      throws SQLException {
    List<String> ids = rows.stream().map(r -> r.memory().id().value()).toList();
    lockIds(c, ids);
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT id, scope FROM " + schema.table("memhook_memory") + " WHERE id = ANY (?)")) {
      ps.setArray(1, c.createArrayOf("text", ids.toArray()));
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) { // moved out of its old scope, or replaced in it
          changes.add(rs.getString(2), MemoryId.of(rs.getString(1)));
        }
      }
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "INSERT INTO "
                + schema.table("memhook_memory")
                + " (id, scope, latest, supersedes, record, terms, concept_keys, file_keys, vector,"
                + " passages) VALUES (?, ?, ?, ?, ?, ?::tsvector, ?, ?, ?, ?)"
                + " ON CONFLICT (id) DO UPDATE SET scope = EXCLUDED.scope,"
                + " latest = EXCLUDED.latest, supersedes = EXCLUDED.supersedes,"
                + " record = EXCLUDED.record, terms = EXCLUDED.terms,"
                + " concept_keys = EXCLUDED.concept_keys, file_keys = EXCLUDED.file_keys,"
                + " vector = EXCLUDED.vector, passages = EXCLUDED.passages")) {
      for (Row r : rows) {
        Memory m = r.memory();
        ps.setString(1, m.id().value());
        ps.setString(2, m.scope().value());
        ps.setBoolean(3, m.latest());
        ps.setString(4, m.supersedes() == null ? null : m.supersedes().value());
        ps.setString(5, r.record());
        ps.setString(6, r.terms());
        ps.setArray(7, c.createArrayOf("text", conceptKeys(m.concepts()).toArray()));
        ps.setArray(8, c.createArrayOf("text", fileKeys(m.files()).toArray()));
        ps.setBytes(9, r.vector());
        ps.setBytes(10, r.passages()); // null: none, and none left of a replaced row's
        ps.addBatch();
        changes.add(m.scope().value(), m.id());
      }
      ps.executeBatch();
    }
  }

  /**
   * Takes the transaction advisory lock of each of {@code sortedIds}, in their order (every writer
   * locks in id order, so two never wait for each other in opposite orders), in one statement:
   * {@code unnest} yields the array's elements in order.
   */
  private static void lockIds(Connection c, List<String> sortedIds) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT pg_advisory_xact_lock(?, hashtext(x))"
                + " FROM unnest(?::text[]) WITH ORDINALITY AS t(x, n) ORDER BY n")) {
      ps.setInt(1, Schema.ID_LOCK_CLASS);
      ps.setArray(2, c.createArrayOf("text", sortedIds.toArray()));
      ps.execute();
    }
  }

  /**
   * Concept keys as related search matches them: lower-cased, distinct. U+0000, which a PostgreSQL
   * text value cannot hold, becomes U+FFFD, in the query keys too.
   */
  static List<String> conceptKeys(Iterable<String> concepts) {
    Set<String> out = new LinkedHashSet<>();
    for (String concept : concepts) {
      out.add(storable(concept.toLowerCase(Locale.ROOT)));
    }
    return List.copyOf(out);
  }

  /** File keys as related search matches them: exact, distinct, U+0000 as U+FFFD. */
  static List<String> fileKeys(Iterable<String> files) {
    Set<String> out = new LinkedHashSet<>();
    for (String file : files) {
      out.add(storable(file));
    }
    return List.copyOf(out);
  }

  private static String storable(String key) {
    return key.replace('\u0000', '\ufffd');
  }
}
