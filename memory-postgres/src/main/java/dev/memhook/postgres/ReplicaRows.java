package dev.memhook.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The memory rows a local replica copies: a scope's latest memories in full, or the current state
 * of the ids a feed delta names. Call inside a snapshot transaction ({@link Jdbc#inSnapshot}) with
 * the {@link ChangeFeed} read, so rows and position agree.
 *
 * <p>Thread-safe: no state besides the immutable schema.
 */
final class ReplicaRows {
  /** Rows fetched per round trip while loading a scope, and handed to the replica per batch. */
  static final int BATCH = 512;

  /** One memory row as stored. */
  record Row(String id, String scope, boolean latest, String record, byte[] vector) {}

  /** Receives a scope's rows a batch at a time. */
  @FunctionalInterface
  interface Batches {
    void accept(List<Row> batch) throws SQLException;
  }

  private final Schema schema;

  ReplicaRows(Schema schema) {
    this.schema = schema;
  }

  /** Streams the latest memories of {@code scope} to {@code sink}, {@link #BATCH} at a time. */
  void latestOf(Connection c, String scope, Batches sink) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT id, record, vector FROM "
                + schema.table("memhook_memory")
                + " WHERE scope = ? AND latest")) {
      ps.setFetchSize(BATCH); // a cursor, since the caller's transaction is open
      ps.setString(1, scope);
      try (ResultSet rs = ps.executeQuery()) {
        List<Row> batch = new ArrayList<>(BATCH);
        while (rs.next()) {
          batch.add(new Row(rs.getString(1), scope, true, rs.getString(2), rs.getBytes(3)));
          if (batch.size() == BATCH) {
            sink.accept(batch);
            batch = new ArrayList<>(BATCH);
          }
        }
        if (!batch.isEmpty()) {
          sink.accept(batch);
        }
      }
    }
  }

  /** The rows of those of {@code ids} that exist, by id, wherever they are. */
  Map<String, Row> current(Connection c, Collection<String> ids) throws SQLException {
    Map<String, Row> out = new HashMap<>();
    if (ids.isEmpty()) {
      return out;
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT id, scope, latest, record, vector FROM "
                + schema.table("memhook_memory")
                + " WHERE id = ANY (?)")) {
      ps.setArray(1, c.createArrayOf("text", ids.toArray()));
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.put(
              rs.getString(1),
              new Row(
                  rs.getString(1),
                  rs.getString(2),
                  rs.getBoolean(3),
                  rs.getString(4),
                  rs.getBytes(5)));
        }
      }
    }
    return out;
  }
}
