package dev.memhook.postgres;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.StoreHit;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Exact vector search over each scope's latest vectors, held in memory per scope.
 *
 * <h2>Design note</h2>
 *
 * Every write to a scope sets that scope's row of {@code memhook_scope} to a fresh value of one
 * database sequence, in the write's own transaction. A search first reads that value (one primary
 * key lookup); if the cached copy of the scope was loaded at the same value it is current, and
 * otherwise the scope's latest vectors are loaded again, together with the value, in one statement,
 * so one snapshot. Values are never reused, so any change committed after a load shows as a
 * different value, also one made through another JVM: a search reflects every write that committed
 * before it started, at the price of one round trip per search and a full reload of a scope after a
 * change. Scopes are evicted by count (Caffeine, least recently used first).
 *
 * <p>Thread-safe. Two searches that both find a scope stale may both load it; the later {@code put}
 * wins, and a search that then finds an older copy loads again.
 */
final class ScopeVectorCache implements VectorIndex {
  private final Jdbc jdbc;
  private final Schema schema;
  private final int dimension;
  private final Cache<String, ScopeVectors> scopes;

  ScopeVectorCache(Jdbc jdbc, Schema schema, int dimension, long maxScopes) {
    this.jdbc = jdbc;
    this.schema = schema;
    this.dimension = dimension;
    this.scopes = Caffeine.newBuilder().maximumSize(maxScopes).build();
  }

  @Override
  public List<StoreHit> search(Scope scope, Embedding unitQuery, int k) {
    ScopeVectors vectors = current(scope);
    return vectors == null ? List.of() : vectors.nearest(unitQuery, k);
  }

  @Override
  public void clear() {
    scopes.invalidateAll();
  }

  private ScopeVectors current(Scope scope) {
    return jdbc.read(
        "check the vectors of scope " + scope.value(),
        c -> {
          Long changed = null;
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT changed FROM " + schema.table("memhook_scope") + " WHERE scope = ?")) {
            ps.setString(1, scope.value());
            try (ResultSet rs = ps.executeQuery()) {
              if (rs.next()) {
                changed = rs.getLong(1);
              }
            }
          }
          if (changed == null) {
            return null;
          }
          ScopeVectors cached = scopes.getIfPresent(scope.value());
          if (cached != null && cached.changed == changed) {
            return cached;
          }
          ScopeVectors loaded = load(c, scope);
          if (loaded != null) {
            scopes.put(scope.value(), loaded);
          }
          return loaded;
        });
  }

  private ScopeVectors load(Connection c, Scope scope) throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement(
            "SELECT s.changed, m.id, m.vector FROM "
                + schema.table("memhook_scope")
                + " s LEFT JOIN "
                + schema.table("memhook_memory")
                + " m ON m.scope = s.scope AND m.latest WHERE s.scope = ?")) {
      ps.setString(1, scope.value());
      try (ResultSet rs = ps.executeQuery()) {
        long changed = 0;
        boolean any = false;
        List<String> ids = new ArrayList<>();
        List<float[]> units = new ArrayList<>();
        while (rs.next()) {
          any = true;
          changed = rs.getLong(1);
          String id = rs.getString(2);
          if (id == null) {
            continue;
          }
          float[] unit = unit(decode(rs.getBytes(3)));
          if (unit != null) {
            ids.add(id);
            units.add(unit);
          }
        }
        return any ? new ScopeVectors(changed, ids, units, dimension) : null;
      }
    }
  }

  /** The little-endian float32 encoding of {@code e}, as the {@code vector} column holds it. */
  static byte[] encode(Embedding e) {
    ByteBuffer b = ByteBuffer.allocate(e.dimension() * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < e.dimension(); i++) {
      b.putFloat(e.get(i));
    }
    return b.array();
  }

  private static float[] decode(byte[] bytes) {
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    float[] out = new float[bytes.length / Float.BYTES];
    b.asFloatBuffer().get(out);
    return out;
  }

  /** {@code v} scaled to unit length, or null for a zero vector, which no query is near. */
  private static float[] unit(float[] v) {
    double sum = 0;
    for (float x : v) {
      sum += x * x;
    }
    if (sum == 0) {
      return null;
    }
    double norm = Math.sqrt(sum);
    for (int i = 0; i < v.length; i++) {
      v[i] = (float) (v[i] / norm);
    }
    return v;
  }

  /** One scope's latest unit vectors as loaded at one change value. Immutable once built. */
  private static final class ScopeVectors {
    final long changed;
    private final String[] ids;
    private final float[] values;
    private final int dimension;

    ScopeVectors(long changed, List<String> ids, List<float[]> units, int dimension) {
      this.changed = changed;
      this.ids = ids.toArray(new String[0]);
      this.dimension = dimension;
      this.values = new float[ids.size() * dimension];
      for (int i = 0; i < units.size(); i++) {
        System.arraycopy(units.get(i), 0, values, i * dimension, dimension);
      }
    }

    List<StoreHit> nearest(Embedding unitQuery, int k) {
      if (k <= 0 || ids.length == 0) {
        return List.of();
      }
      float[] q = unitQuery.toArray();
      Comparator<StoreHit> worstFirst =
          Comparator.comparingDouble(StoreHit::score)
              .thenComparing(h -> h.id().value(), Comparator.reverseOrder());
      PriorityQueue<StoreHit> best = new PriorityQueue<>(Math.min(k, ids.length) + 1, worstFirst);
      for (int i = 0; i < ids.length; i++) {
        double dot = 0;
        int base = i * dimension;
        for (int d = 0; d < dimension; d++) {
          dot += q[d] * values[base + d];
        }
        if (best.size() < k) {
          best.add(new StoreHit(MemoryId.of(ids[i]), dot));
        } else if (dot > best.peek().score()) {
          best.poll();
          best.add(new StoreHit(MemoryId.of(ids[i]), dot));
        }
      }
      List<StoreHit> out = new ArrayList<>(best);
      out.sort(worstFirst.reversed());
      return out;
    }
  }
}
