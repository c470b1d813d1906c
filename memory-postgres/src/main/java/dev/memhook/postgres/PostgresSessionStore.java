package dev.memhook.postgres;

import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.SessionStore;
import dev.memhook.lucene.MemoryRecordJson;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Capture's session records in PostgreSQL, beside a {@link PostgresMemoryStore}'s memories (same
 * data source, same schema), so that every service instance over the database sees and continues
 * the sessions every other one captured. Get one from {@link PostgresMemoryStore#sessionStore()}
 * and hand it to {@code Memhook.builder().sessionStore(..)}.
 *
 * <h2>Contract</h2>
 *
 * As {@link SessionStore} states, and:
 *
 * <ul>
 *   <li><b>Tables</b>: {@code memhook_session} (one row per session: its id, scope and record) and
 *       {@code memhook_session_observation} (one row per session and observation id, in append
 *       order), created by the store's schema migration.
 *   <li><b>Shared</b>: {@link #shared()} is true. Every instance writes the sessions it captures;
 *       capture in every other instance reads them when it lists sessions, when an event of a
 *       session arrives (so a conversation a load balancer moves to another instance continues its
 *       session, with its counts and its last turn as context), and before it ends one as idle. Two
 *       instances capturing events of one session at the same moment each write the whole record,
 *       and the later write wins (its counts may miss the other's events); the observation ids of
 *       both are kept.
 *   <li><b>Durability</b>: each call is one statement or one transaction, committed when it
 *       returns; appending several ids is all-or-none.
 *   <li><b>Text</b>: a record or session id is stored as PostgreSQL {@code text}, character for
 *       character, up to PostgreSQL's limit of 1 GB. PostgreSQL text cannot hold U+0000, and UTF-8
 *       cannot hold an unpaired surrogate: such a string is refused with {@link
 *       IllegalArgumentException} before anything is sent, and what was stored stays. (Capture's
 *       records escape U+0000 in their JSON; a session id holding one stays in its instance's
 *       memory, counted as a refused write.)
 *   <li><b>Threads and errors</b>: thread-safe, one pooled connection per call; a database failure
 *       is a {@link dev.memhook.api.MemoryStoreException} saying whether to retry. {@link #close()}
 *       never closes the data source.
 * </ul>
 */
public final class PostgresSessionStore implements SessionStore {

  private final Jdbc jdbc;
  private final Schema schema;
  private volatile boolean closed;

  PostgresSessionStore(Jdbc jdbc, Schema schema) {
    this.jdbc = jdbc;
    this.schema = schema;
  }

  /** True: several instances share the records. */
  @Override
  public boolean shared() {
    return true;
  }

  @Override
  public List<String> loadAll() {
    checkOpen();
    String sql = "SELECT record FROM " + schema.table("memhook_session");
    return jdbc.read(
        "read the session records",
        c -> {
          List<String> records = new ArrayList<>();
          try (PreparedStatement ps = c.prepareStatement(sql);
              ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
              records.add(rs.getString(1));
            }
          }
          return records;
        });
  }

  @Override
  public Optional<String> load(String sessionId) {
    Objects.requireNonNull(sessionId, "sessionId");
    checkOpen();
    if (!storable(sessionId)) {
      return Optional.empty(); // no record can have this id
    }
    String sql = "SELECT record FROM " + schema.table("memhook_session") + " WHERE session_id = ?";
    return jdbc.read(
        "read the record of session " + sessionId,
        c -> {
          try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, sessionId);
            try (ResultSet rs = ps.executeQuery()) {
              return rs.next() ? Optional.of(rs.getString(1)) : Optional.<String>empty();
            }
          }
        });
  }

  @Override
  public void save(String sessionId, Scope scope, String record) {
    Objects.requireNonNull(scope, "scope");
    requireStorable(sessionId, "the id of session " + sessionId);
    requireStorable(record, "the record of session " + sessionId);
    checkOpen();
    String sql =
        "INSERT INTO "
            + schema.table("memhook_session")
            + " (session_id, scope, record) VALUES (?, ?, ?)"
            + " ON CONFLICT (session_id) DO UPDATE SET scope = EXCLUDED.scope,"
            + " record = EXCLUDED.record, updated_at = now()";
    jdbc.inTransaction(
        "write the record of session " + sessionId,
        c -> {
          try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, sessionId);
            ps.setString(2, scope.value());
            ps.setString(3, record);
            return ps.executeUpdate();
          }
        });
  }

  @Override
  public void appendObservations(String sessionId, List<MemoryId> ids) {
    requireStorable(sessionId, "the id of session " + sessionId);
    List<MemoryId> copy = List.copyOf(ids);
    checkOpen();
    if (copy.isEmpty()) {
      return;
    }
    String sql =
        "INSERT INTO "
            + schema.table("memhook_session_observation")
            + " (session_id, memory_id) VALUES (?, ?) ON CONFLICT DO NOTHING";
    jdbc.inTransaction(
        "record " + copy.size() + " observations of session " + sessionId,
        c -> {
          try (PreparedStatement ps = c.prepareStatement(sql)) {
            // one row at a time, in order: the sequence numbers them in the order given
            for (MemoryId id : copy) {
              ps.setString(1, sessionId);
              ps.setString(2, id.value());
              ps.executeUpdate();
            }
          }
          return null;
        });
  }

  @Override
  public List<MemoryId> observations(String sessionId) {
    Objects.requireNonNull(sessionId, "sessionId");
    checkOpen();
    if (!storable(sessionId)) {
      return List.of();
    }
    String sql =
        "SELECT memory_id FROM "
            + schema.table("memhook_session_observation")
            + " WHERE session_id = ? ORDER BY seq";
    return jdbc.read(
        "read the observations of session " + sessionId,
        c -> {
          List<MemoryId> out = new ArrayList<>();
          try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, sessionId);
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                out.add(MemoryId.of(rs.getString(1)));
              }
            }
          }
          return out;
        });
  }

  /** Marks this view closed; the data source and the memory store stay open. */
  @Override
  public void close() {
    closed = true;
  }

  @Override
  public String toString() {
    return "PostgresSessionStore[schema=" + schema.name() + "]";
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("the session store is closed");
    }
  }

  private static boolean storable(String text) {
    if (text.indexOf('\u0000') >= 0) {
      return false;
    }
    try {
      MemoryRecordJson.requireWellFormed(text, "text");
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static void requireStorable(String text, String what) {
    Objects.requireNonNull(text, "sessionId or record");
    if (text.indexOf('\u0000') >= 0) {
      throw new IllegalArgumentException(
          what
              + " holds U+0000, which PostgreSQL text cannot keep; nothing was written, and what"
              + " was stored before stays");
    }
    MemoryRecordJson.requireWellFormed(text, what);
  }
}
