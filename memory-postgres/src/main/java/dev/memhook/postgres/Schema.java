package dev.memhook.postgres;

import dev.memhook.api.IncompatibleStoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The store's tables in one PostgreSQL schema, and their migration.
 *
 * <h2>Design note</h2>
 *
 * {@link #migrate} runs in one transaction under {@code pg_advisory_xact_lock} on a key derived
 * from the schema name: two stores starting at once on an empty database take turns, the second
 * finds the first's tables and the version it recorded in {@code memhook_schema}, and nothing is
 * created twice (without the lock, two concurrent {@code CREATE TABLE IF NOT EXISTS} can both pass
 * the check and one fails on the catalog's unique index). Migrations only add: each is a list of
 * statements applied once, in order, and recorded with its version in the same transaction, so a
 * failure leaves the schema at the previous version. A schema recorded at a version newer than this
 * code knows is refused rather than written with an old layout.
 *
 * <p>A schema already at {@link #VERSION} is opened without any DDL, existence being read from the
 * catalog, so an application whose database user may only read and write the tables (the schema
 * migrated by its owner) opens it; only a migration needs the privilege to create.
 *
 * <p>Identifiers cannot be statement parameters, so the schema name is checked against {@link
 * #VALID_NAME} (a plain lower-case identifier) and quoted; every value is a parameter.
 *
 * <p>Immutable and thread-safe.
 */
final class Schema {
  /** A schema name the store accepts: an unquoted PostgreSQL identifier of at most 63 bytes. */
  static final Pattern VALID_NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

  /** The advisory lock class of migrations; the schema's hash is the other half of the key. */
  static final int MIGRATION_LOCK_CLASS = 0x6d686d31;

  /** The advisory lock class of writes to one memory id. */
  static final int ID_LOCK_CLASS = 0x6d686d32;

  private final String name;

  Schema(String name) {
    if (!VALID_NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "schema must match " + VALID_NAME.pattern() + ", got '" + name + "'");
    }
    this.name = name;
  }

  String name() {
    return name;
  }

  /**
   * The {@code LISTEN}/{@code NOTIFY} channel of the store's change feed: {@code memhook_} and the
   * schema name, cut to PostgreSQL's 63-byte identifier limit. Two long schema names that share
   * their first 55 characters share a channel; each wake-up is then checked against the schema's
   * own feed, so that costs a query and nothing else.
   */
  String channel() {
    String channel = "memhook_" + name;
    return channel.length() <= 63 ? channel : channel.substring(0, 63);
  }

  /** {@code table} qualified by the schema. */
  String table(String table) {
    return '"' + name + "\"." + table;
  }

  /**
   * The migrations, by version starting at 1; {@code %s.} is replaced by the quoted schema. 1: the
   * memories, forget records, scope change values and the embedding space. Then: the change feed,
   * capture's session records ({@link PostgresSessionStore}), and the memories' passage vectors.
   */
  private static final List<List<String>> MIGRATIONS =
      List.of(
          List.of(
              "CREATE SEQUENCE %s.memhook_change",
              "CREATE TABLE %s.memhook_memory ("
                  + " id text PRIMARY KEY,"
                  + " scope text NOT NULL,"
                  + " latest boolean NOT NULL,"
                  + " supersedes text,"
                  + " record text NOT NULL,"
                  + " terms tsvector NOT NULL,"
                  + " concept_keys text[] NOT NULL,"
                  + " file_keys text[] NOT NULL,"
                  + " vector bytea NOT NULL)",
              "CREATE INDEX memhook_memory_scope ON %s.memhook_memory (scope, latest)",
              "CREATE INDEX memhook_memory_terms ON %s.memhook_memory USING gin (terms)",
              "CREATE INDEX memhook_memory_concepts ON %s.memhook_memory USING gin (concept_keys)",
              "CREATE INDEX memhook_memory_files ON %s.memhook_memory USING gin (file_keys)",
              "CREATE TABLE %s.memhook_forgotten ("
                  + " seq bigserial PRIMARY KEY,"
                  + " id text NOT NULL,"
                  + " scope text NOT NULL,"
                  + " at_second bigint NOT NULL,"
                  + " at_nano integer NOT NULL,"
                  + " record text NOT NULL)",
              "CREATE INDEX memhook_forgotten_scope ON %s.memhook_forgotten"
                  + " (scope, at_second, at_nano, seq)",
              "CREATE TABLE %s.memhook_scope ("
                  + " scope text PRIMARY KEY,"
                  + " changed bigint NOT NULL)",
              "CREATE TABLE %s.memhook_space ("
                  + " singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),"
                  + " model_id text NOT NULL,"
                  + " dimension integer NOT NULL)"),
          // 2: the change feed local replicas follow (ChangeFeed)
          List.of(
              "CREATE TABLE %s.memhook_feed ("
                  + " scope text NOT NULL,"
                  + " seq bigint NOT NULL,"
                  + " id text NOT NULL,"
                  + " at timestamptz NOT NULL DEFAULT clock_timestamp(),"
                  + " PRIMARY KEY (scope, seq))",
              "CREATE INDEX memhook_feed_at ON %s.memhook_feed (at)",
              "CREATE TABLE %s.memhook_feed_floor ("
                  + " singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),"
                  + " seq bigint NOT NULL)",
              "INSERT INTO %s.memhook_feed_floor (seq) VALUES (0)"),
          // 3: capture's session records (PostgresSessionStore)
          List.of(
              "CREATE TABLE %s.memhook_session ("
                  + " session_id text PRIMARY KEY,"
                  + " scope text NOT NULL,"
                  + " record text NOT NULL,"
                  + " updated_at timestamptz NOT NULL DEFAULT now())",
              "CREATE INDEX memhook_session_scope ON %s.memhook_session (scope)",
              "CREATE TABLE %s.memhook_session_observation ("
                  + " session_id text NOT NULL,"
                  + " seq bigserial NOT NULL,"
                  + " memory_id text NOT NULL,"
                  + " PRIMARY KEY (session_id, memory_id))",
              "CREATE INDEX memhook_session_observation_order"
                  + " ON %s.memhook_session_observation (session_id, seq)"),
          // 4: passage vectors (PassageBytes), NULL for a memory stored without, as for every row
          // an older version wrote; a nullable column without a default is added without
          // rewriting the table
          List.of("ALTER TABLE %s.memhook_memory ADD COLUMN passages bytea"));

  /** The version this code writes. */
  static final int VERSION = MIGRATIONS.size();

  /**
   * Creates or migrates the schema to {@link #VERSION}; idempotent and safe to run from several
   * JVMs at once.
   *
   * @throws IncompatibleStoreException if the schema was written by a newer version
   * @throws SQLException if PostgreSQL failed; the transaction is rolled back
   */
  void migrate(Connection c) throws SQLException {
    boolean autoCommit = c.getAutoCommit();
    c.setAutoCommit(false);
    try {
      try (PreparedStatement lock =
          c.prepareStatement("SELECT pg_advisory_xact_lock(?, hashtext(?))")) {
        lock.setInt(1, MIGRATION_LOCK_CLASS);
        lock.setString(2, name);
        lock.execute();
      }
      try (Statement s = c.createStatement()) {
        if (!schemaExists(c)) {
          s.execute("CREATE SCHEMA \"" + name + '"');
        }
        if (!versionTableExists(c)) {
          s.execute(
              "CREATE TABLE "
                  + table("memhook_schema")
                  + " (version integer PRIMARY KEY,"
                  + " applied_at timestamptz NOT NULL DEFAULT now())");
        }
      }
      int current = currentVersion(c);
      if (current > VERSION) {
        throw new IncompatibleStoreException(
            "PostgreSQL schema '"
                + name
                + "' is at version "
                + current
                + ", written by a newer Memhook; this one knows up to "
                + VERSION
                + ": upgrade Memhook, or use another schema");
      }
      for (int v = current + 1; v <= VERSION; v++) {
        try (Statement s = c.createStatement()) {
          for (String sql : MIGRATIONS.get(v - 1)) {
            s.execute(sql.replace("%s.", '"' + name + "\"."));
          }
        }
        try (PreparedStatement record =
            c.prepareStatement(
                "INSERT INTO " + table("memhook_schema") + " (version) VALUES (?)")) {
          record.setInt(1, v);
          record.executeUpdate();
        }
      }
      c.commit();
    } catch (SQLException | RuntimeException e) {
      c.rollback();
      throw e;
    } finally {
      c.setAutoCommit(autoCommit);
    }
  }

  private boolean schemaExists(Connection c) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("SELECT 1 FROM pg_catalog.pg_namespace WHERE nspname = ?")) {
      ps.setString(1, name);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }

  /**
   * Whether {@code memhook_schema} exists, read from the catalog: {@code CREATE TABLE IF NOT
   * EXISTS} would need the privilege to create in the schema even when the table is there.
   */
  private boolean versionTableExists(Connection c) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT 1 FROM pg_catalog.pg_class t"
                + " JOIN pg_catalog.pg_namespace n ON n.oid = t.relnamespace"
                + " WHERE n.nspname = ? AND t.relname = 'memhook_schema'")) {
      ps.setString(1, name);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }

  private int currentVersion(Connection c) throws SQLException {
    try (Statement s = c.createStatement();
        ResultSet rs =
            s.executeQuery("SELECT coalesce(max(version), 0) FROM " + table("memhook_schema"))) {
      rs.next();
      return rs.getInt(1);
    }
  }
}
