package dev.memhook.postgres;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryStoreException;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.api.spi.TextHits;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's reads and its text and related searches, each one statement (so one snapshot), with
 * the scope in the WHERE clause of every statement that has one to filter by.
 *
 * <p>Thread-safe; the only state is the set of records found unreadable, each counted once (by
 * memory id, a memory's passages by its id, or a forget record's text), a concurrent set.
 */
final class MemoryReads {
  private static final Logger LOG = LoggerFactory.getLogger(MemoryReads.class);

  /**
   * Rows fetched per round trip while exporting, so an export does not hold the table in memory.
   */
  private static final int EXPORT_FETCH_SIZE = 256;

  private final Schema schema;
  private final RecordCodec codec;
  private final Set<String> unreadable = ConcurrentHashMap.newKeySet();

  MemoryReads(Schema schema, RecordCodec codec) {
    this.schema = schema;
    this.codec = codec;
  }

  long unreadable() {
    return unreadable.size();
  }

  Optional<Memory> get(Connection c, MemoryId id) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT record, latest FROM " + schema.table("memhook_memory") + " WHERE id = ?")) {
      ps.setString(1, id.value());
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return Optional.empty();
        }
        try {
          return Optional.of(codec.readMemory(rs.getString(1), rs.getBoolean(2)));
        } catch (RuntimeException e) {
          unreadable.add("memory:" + id.value());
          throw new MemoryStoreException(
              "the record of memory " + id.value() + " is unreadable: " + e.getMessage(), e);
        }
      }
    }
  }

  Map<MemoryId, Memory> getAll(Connection c, Collection<MemoryId> ids) throws SQLException {
    Map<String, Memory> found = new HashMap<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT id, record, latest FROM "
                + schema.table("memhook_memory")
                + " WHERE id = ANY (?)")) {
      ps.setArray(1, c.createArrayOf("text", ids.stream().map(MemoryId::value).toArray()));
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          Memory m = readOrSkip(rs.getString(1), rs.getString(2), rs.getBoolean(3));
          if (m != null) {
            found.put(rs.getString(1), m);
          }
        }
      }
    }
    Map<MemoryId, Memory> out = new LinkedHashMap<>();
    for (MemoryId id : ids) {
      Memory m = found.get(id.value());
      if (m != null) {
        out.put(id, m);
      }
    }
    return out;
  }

  /**
   * The best passage cosine to {@code unitQuery} of each of {@code ids} that is a latest memory of
   * {@code scope} stored with passages, keyed in the order asked: one statement by primary key, so
   * bounded by the ids. A row whose passages cannot be read is left out, logged and counted as
   * unreadable.
   */
  Map<MemoryId, Double> passageCosines(
      Connection c, Scope scope, Collection<MemoryId> ids, float[] unitQuery) throws SQLException {
    Map<String, Double> found = new HashMap<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT id, passages FROM "
                + schema.table("memhook_memory")
                + " WHERE id = ANY (?) AND scope = ? AND latest AND passages IS NOT NULL")) {
      ps.setArray(1, c.createArrayOf("text", ids.stream().map(MemoryId::value).toArray()));
      ps.setString(2, scope.value());
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          String id = rs.getString(1);
          try {
            found.put(id, PassageBytes.bestCosine(rs.getBytes(2), unitQuery));
          } catch (IllegalArgumentException e) {
            if (unreadable.add("passages:" + id)) {
              LOG.warn("the passages of memory {} are unreadable: {}", id, e.getMessage());
            }
          }
        }
      }
    }
    Map<MemoryId, Double> out = new LinkedHashMap<>();
    for (MemoryId id : ids) {
      Double cosine = found.get(id.value());
      if (cosine != null) {
        out.putIfAbsent(id, cosine);
      }
    }
    return out;
  }

  List<ForgetRecord> forgotten(Connection c, Scope scope) throws SQLException {
    List<ForgetRecord> out = new ArrayList<>();
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT record FROM "
                + schema.table("memhook_forgotten")
                + " WHERE scope = ? ORDER BY at_second, at_nano, seq")) {
      ps.setString(1, scope.value());
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          ForgetRecord r = readForgetOrSkip(rs.getString(1));
          if (r != null) {
            out.add(r);
          }
        }
      }
    }
    return out;
  }

  long count(Connection c, Scope scope) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT count(*) FROM "
                + schema.table("memhook_memory")
                + " WHERE scope = ? AND latest")) {
      ps.setString(1, scope.value());
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /** Every memory of every scope; needs a transaction, so that the driver fetches by cursor. */
  long[] export(Connection c, Consumer<? super Memory> sink) throws SQLException {
    long exported = 0;
    long skipped = 0;
    try (PreparedStatement ps =
        c.prepareStatement("SELECT id, record, latest FROM " + schema.table("memhook_memory"))) {
      ps.setFetchSize(EXPORT_FETCH_SIZE);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          Memory m = readOrSkip(rs.getString(1), rs.getString(2), rs.getBoolean(3));
          if (m == null) {
            skipped++;
          } else {
            sink.accept(m);
            exported++;
          }
        }
      }
    }
    return new long[] {exported, skipped};
  }

  /** Every forget record of every scope; needs a transaction, as {@link #export} does. */
  long exportForgotten(Connection c, Consumer<? super ForgetRecord> sink) throws SQLException {
    long exported = 0;
    try (PreparedStatement ps =
        c.prepareStatement("SELECT record FROM " + schema.table("memhook_forgotten"))) {
      ps.setFetchSize(EXPORT_FETCH_SIZE);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          ForgetRecord r = readForgetOrSkip(rs.getString(1));
          if (r != null) {
            sink.accept(r);
            exported++;
          }
        }
      }
    }
    return exported;
  }

  /**
   * Ranks the scope's latest memories by {@code ts_rank} over the disjunction of {@code terms},
   * scaled to the sum of the terms' shares, and bounds it by {@link TextTerms#ceiling}.
   */
  TextHits searchText(Connection c, Scope scope, List<String> terms, int k) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT m.id, ts_rank('"
                + TextTerms.RANK_WEIGHTS
                + "'::float4[], m.terms, q.query, 0) * ? AS rank FROM "
                + schema.table("memhook_memory")
                + " m, CAST(? AS tsquery) AS q(query)"
                + " WHERE m.scope = ? AND m.latest AND m.terms @@ q.query"
                + " ORDER BY rank DESC, m.id LIMIT ?")) {
      ps.setDouble(1, terms.size());
      ps.setString(2, TextTerms.disjunction(terms));
      ps.setString(3, scope.value());
      ps.setInt(4, k);
      List<StoreHit> hits = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          hits.add(new StoreHit(MemoryId.of(rs.getString(1)), rs.getDouble(2)));
        }
      }
      return hits.isEmpty() ? TextHits.none() : new TextHits(hits, TextTerms.ceiling(terms.size()));
    }
  }

  /** The scope's latest memories sharing concept or file keys, by how many they share. */
  List<StoreHit> searchRelated(
      Connection c, Scope scope, List<String> conceptKeys, List<String> fileKeys, int k)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT id, (SELECT count(*) FROM unnest(concept_keys) AS k WHERE k = ANY (?))"
                + " + (SELECT count(*) FROM unnest(file_keys) AS f WHERE f = ANY (?)) AS shared"
                + " FROM "
                + schema.table("memhook_memory")
                + " WHERE scope = ? AND latest AND (concept_keys && ? OR file_keys && ?)"
                + " ORDER BY shared DESC, id LIMIT ?")) {
      Array concepts = c.createArrayOf("text", conceptKeys.toArray());
      Array files = c.createArrayOf("text", fileKeys.toArray());
      ps.setArray(1, concepts);
      ps.setArray(2, files);
      ps.setString(3, scope.value());
      ps.setArray(4, concepts);
      ps.setArray(5, files);
      ps.setInt(6, k);
      List<StoreHit> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(new StoreHit(MemoryId.of(rs.getString(1)), rs.getLong(2)));
        }
      }
      return out;
    }
  }

  private Memory readOrSkip(String id, String record, boolean latest) {
    try {
      return codec.readMemory(record, latest);
    } catch (RuntimeException e) {
      unreadable.add("memory:" + id);
      return null;
    }
  }

  private ForgetRecord readForgetOrSkip(String record) {
    try {
      return codec.readForget(record);
    } catch (RuntimeException e) {
      unreadable.add("forget:" + record);
      return null;
    }
  }
}
