package dev.memhook.testkit;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Origin;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.api.spi.TextHits;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The data the store contracts ({@link MemoryStoreContract} with {@link StoreWriteContract} and
 * {@link StoreSearchContract}, {@link DurableStoreContract}, {@link AtomicBatchStoreContract})
 * write: one embedding space, near-orthogonal unit vectors and memories with every optional
 * component at a plain default. Public so that a store's own tests can write the same data.
 *
 * <p>Stateless and thread-safe.
 */
public final class StoreFixtures {

  /** The dimension of the contracts' vectors. */
  public static final int DIMENSION = 16;

  /** The model id the contracts attach with. */
  public static final String MODEL_ID = "contract-test-model";

  /** The space every contract store is attached to. */
  public static final EmbeddingSpace SPACE = new EmbeddingSpace(MODEL_ID, DIMENSION);

  /** Another space of the same dimension, which a store holding {@link #SPACE} vectors refuses. */
  public static final EmbeddingSpace OTHER_MODEL = new EmbeddingSpace("other-model", DIMENSION);

  /** When every contract memory happened and was stored, unless a test says otherwise. */
  public static final Instant T0 = Instant.parse("2024-01-01T10:00:00Z");

  /** The scope most contract memories live in. */
  public static final Scope A = Scope.of("tenant-a");

  /** A second scope, which searches of {@link #A} must never see. */
  public static final Scope B = Scope.of("tenant-b");

  /**
   * Words that the contract's random memories are made of; none shares a stem with another. For
   * {@link StoreSearchContract}'s randomised text search.
   */
  static final List<String> WORDS =
      List.of(
          "kafka",
          "redis",
          "postgres",
          "gradle",
          "flutter",
          "nginx",
          "terraform",
          "grpc",
          "spark",
          "docker",
          "helm",
          "vault",
          "consul",
          "envoy",
          "istio",
          "jenkins");

  /** Words that no random memory holds. */
  static final List<String> ABSENT = List.of("quokka", "marimba", "zephyr");

  private StoreFixtures() {}

  /**
   * A unit vector that points mostly along axis {@code axis % DIMENSION}, slightly tilted towards
   * the next axis (by more for each further multiple of {@code DIMENSION}), so that the nearest
   * neighbour of {@code vector(i)} among {@code vector(0..DIMENSION-1)} is {@code vector(i)}.
   */
  public static Embedding vector(int axis) {
    float[] v = new float[DIMENSION];
    v[Math.floorMod(axis, DIMENSION)] = 1f;
    v[Math.floorMod(axis + 1, DIMENSION)] = 0.1f * (1 + Math.floorMod(axis / DIMENSION, 3));
    return Embedding.of(v).normalized();
  }

  /** The zero vector of {@link #DIMENSION} dimensions. */
  public static Embedding zeroVector() {
    return Embedding.of(new float[DIMENSION]);
  }

  /** A unit vector of {@code DIMENSION + 1} dimensions: outside {@link #SPACE}. */
  public static Embedding vectorOfTheWrongDimension() {
    float[] v = new float[DIMENSION + 1];
    v[0] = 1f;
    return Embedding.of(v);
  }

  /**
   * A latest, version-1 memory of type {@link MemoryType#FACT} in {@code scope} with the given id
   * and content, a summary cut from the content, no title, origin {@code user:contract} and both
   * instants {@link #T0}.
   */
  public static Memory memory(String id, Scope scope, String content) {
    return Memory.builder()
        .id(MemoryId.of(id))
        .scope(scope)
        .type(MemoryType.FACT)
        .title("")
        .summary(content.length() > 80 ? content.substring(0, 80) : content)
        .content(content)
        .origin(Origin.user("contract"))
        .occurredAt(T0)
        .createdAt(T0)
        .build();
  }

  /**
   * Version {@code previous.version() + 1} of {@code previous}: a new id and content, superseding
   * it.
   */
  public static Memory nextVersion(Memory previous, String id, String content) {
    return memory(id, previous.scope(), content).toBuilder()
        .version(previous.version() + 1)
        .supersedes(previous.id())
        .build();
  }

  /**
   * What {@code store} shows of the memories named by {@code ids} and of a few searches: every
   * record found by id, the count of {@link #A} and {@link #B}, and the ids each search of {@link
   * #A} returns (text for each of {@code words}, vector for each of {@code axes}, related for
   * {@code concepts}). Two observations are equal when a write in between changed none of it.
   */
  public static Observation observe(
      MemoryStore store,
      List<String> ids,
      List<String> words,
      List<Integer> axes,
      Set<String> concepts) {
    Map<String, Memory> records = new LinkedHashMap<>();
    store
        .getAll(ids.stream().map(MemoryId::of).toList())
        .forEach((id, m) -> records.put(id.value(), m));
    Map<String, List<String>> text = new LinkedHashMap<>();
    for (String word : words) {
      text.put(word, ids(store.searchText(A, word, 100)));
    }
    Map<Integer, List<String>> vector = new LinkedHashMap<>();
    for (int axis : axes) {
      vector.put(axis, ids(store.searchVector(A, vector(axis), 100)));
    }
    List<String> related = ids(store.searchRelated(A, concepts, Set.of(), 100));
    return new Observation(records, store.count(A), store.count(B), text, vector, related);
  }

  /**
   * What {@link #observe} saw.
   *
   * @param records the memories found, by id
   * @param countA the number of latest memories in {@link #A}
   * @param countB the number of latest memories in {@link #B}
   * @param textHits the ids of each text search, by query
   * @param vectorHits the ids of each vector search, by axis
   * @param relatedHits the ids of the related search
   */
  public record Observation(
      Map<String, Memory> records,
      long countA,
      long countB,
      Map<String, List<String>> textHits,
      Map<Integer, List<String>> vectorHits,
      List<String> relatedHits) {}

  /** The ids of {@code hits}, in order. */
  public static List<String> ids(TextHits hits) {
    return ids(hits.hits());
  }

  /** The ids of {@code hits}, in order. */
  public static List<String> ids(List<StoreHit> hits) {
    return hits.stream().map(h -> h.id().value()).toList();
  }
}
