package dev.memhook.postgres;

import dev.memhook.api.MemoryId;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The store's change feed, which every instance's local replicas follow: written by each write
 * transaction, read by catch-ups, pruned by age.
 *
 * <h2>Design note</h2>
 *
 * A write appends one row to {@code memhook_feed} per scope and memory id it changed (stored,
 * superseded, moved out of the scope, forgotten), numbered from one database sequence, sets the
 * scope's row of {@code memhook_scope} to the highest number it took, and sends a {@code NOTIFY} on
 * {@link Schema#channel()} whose payload is the scope; all in the write's transaction, so a change,
 * its feed row and its notification become visible together, at commit.
 *
 * <p>Sequence numbers are taken in one order and committed in another, so a reader that saw 11
 * committed could still later see 10 commit and skip it. Within one scope that cannot happen: a
 * write locks the scope's row first and takes its numbers while holding the lock until commit, so
 * the writes of one scope take their numbers in commit order. Replicas are per scope, and each
 * keeps a cursor per scope: the scope's {@code changed} value as of its last catch-up; catching up
 * reads, in one snapshot, the scope's {@code changed} value and the distinct ids of the feed rows
 * between the cursor and it. Those ids are then read in their current state (the memory row decides
 * whether the id is in the scope and latest), so replaying a change twice, or two changes of one id
 * at once, converges on the same state: nothing is lost or applied twice.
 *
 * <p>Rows older than the retention are pruned ({@link #prune}), and {@code memhook_feed_floor}
 * keeps the highest number pruned. A replica whose cursor is below the floor may have missed a
 * pruned row and reloads its scope instead ({@link Delta#complete()} is false); one that is behind
 * the retention only because it was disconnected pays one reload of each scope it holds.
 *
 * <p>Scope rows are locked in scope order, after the write's advisory locks on its memory ids, so
 * concurrent writes never wait for each other in opposite orders. Thread-safe: no state besides the
 * immutable schema.
 */
final class ChangeFeed {
  /** What one write changed: the memory ids, by scope; both in their natural order. */
  static final class Changes {
    private final Map<String, Set<String>> byScope = new TreeMap<>();

    void add(String scope, MemoryId id) {
      byScope.computeIfAbsent(scope, s -> new TreeSet<>()).add(id.value());
    }

    /** The scopes changed, in order. */
    Set<String> scopes() {
      return byScope.keySet();
    }

    boolean isEmpty() {
      return byScope.isEmpty();
    }
  }

  /**
   * What changed in one scope after a cursor.
   *
   * @param changed the scope's position now (0 for a scope never written)
   * @param complete false when the feed can no longer say everything that changed after the cursor
   *     (rows pruned, or a position below the cursor, as after a restore): reload the scope
   * @param ids the ids changed after the cursor, in no particular order; empty unless complete
   */
  record Delta(long changed, boolean complete, List<String> ids) {}

  private final Schema schema;

  ChangeFeed(Schema schema) {
    this.schema = schema;
  }

  /** Appends {@code changes} to the feed and notifies the followers, in {@code c}'s transaction. */
  void publish(Connection c, Changes changes) throws SQLException {
    if (changes.isEmpty()) {
      return;
    }
    for (Map.Entry<String, Set<String>> e : changes.byScope.entrySet()) {
      String scope = e.getKey();
      try (PreparedStatement lock =
          c.prepareStatement(
              "INSERT INTO "
                  + schema.table("memhook_scope")
                  + " AS s (scope, changed) VALUES (?, 0)"
                  + " ON CONFLICT (scope) DO UPDATE SET changed = s.changed")) {
        lock.setString(1, scope);
        lock.executeUpdate();
      }
      try (PreparedStatement append =
          c.prepareStatement(
              "WITH appended AS (INSERT INTO "
                  + schema.table("memhook_feed")
                  + " (scope, seq, id) SELECT ?, nextval(?::regclass), x FROM unnest(?::text[]) AS x"
                  + " RETURNING seq) UPDATE "
                  + schema.table("memhook_scope")
                  + " SET changed = (SELECT max(seq) FROM appended) WHERE scope = ?")) {
        append.setString(1, scope);
        append.setString(2, schema.table("memhook_change"));
        append.setArray(3, c.createArrayOf("text", e.getValue().toArray()));
        append.setString(4, scope);
        append.executeUpdate();
      }
    }
    try (PreparedStatement notify =
        c.prepareStatement("SELECT pg_notify(?, x) FROM unnest(?::text[]) AS x")) {
      notify.setString(1, schema.channel());
      notify.setArray(2, c.createArrayOf("text", changes.scopes().toArray()));
      notify.execute();
    }
  }

  /** What changed in {@code scope} after {@code cursor}; call in a snapshot transaction. */
  Delta since(Connection c, String scope, long cursor) throws SQLException {
    long changed;
    long floor;
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT coalesce((SELECT changed FROM "
                + schema.table("memhook_scope")
                + " WHERE scope = ?), 0), (SELECT seq FROM "
                + schema.table("memhook_feed_floor")
                + ")")) {
      ps.setString(1, scope);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        changed = rs.getLong(1);
        floor = rs.getLong(2);
      }
    }
    if (changed == cursor) {
      return new Delta(changed, true, List.of());
    }
    if (changed < cursor || cursor < floor) {
      return new Delta(changed, false, List.of());
    }
    List<String> ids = new java.util.ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT DISTINCT id FROM "
                + schema.table("memhook_feed")
                + " WHERE scope = ? AND seq > ? AND seq <= ?")) {
      ps.setString(1, scope);
      ps.setLong(2, cursor);
      ps.setLong(3, changed);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          ids.add(rs.getString(1));
        }
      }
    }
    return new Delta(changed, true, ids);
  }

  /** The position of each of {@code scopes} that was ever written. */
  Map<String, Long> positions(Connection c, Collection<String> scopes) throws SQLException {
    Map<String, Long> out = new HashMap<>();
    if (scopes.isEmpty()) {
      return out;
    }
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT scope, changed FROM "
                + schema.table("memhook_scope")
                + " WHERE scope = ANY (?)")) {
      ps.setArray(1, c.createArrayOf("text", scopes.toArray()));
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.put(rs.getString(1), rs.getLong(2));
        }
      }
    }
    return out;
  }

  /**
   * Deletes the feed rows older than {@code retention} and raises the floor past them, in {@code
   * c}'s transaction.
   *
   * @return how many rows were deleted
   */
  long prune(Connection c, Duration retention) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "WITH gone AS (DELETE FROM "
                + schema.table("memhook_feed")
                + " WHERE at < clock_timestamp() - ? * interval '1 millisecond' RETURNING seq)"
                + " UPDATE "
                + schema.table("memhook_feed_floor")
                + " SET seq = greatest(seq, (SELECT coalesce(max(seq), 0) FROM gone))"
                + " RETURNING (SELECT count(*) FROM gone)")) {
      ps.setLong(1, retention.toMillis());
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getLong(1) : 0;
      }
    }
  }
}
