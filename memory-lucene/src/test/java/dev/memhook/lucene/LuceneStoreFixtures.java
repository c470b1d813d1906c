package dev.memhook.lucene;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.StoreHit;
import dev.memhook.api.spi.TextHits;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;

/** The stores, memories, vectors and vocabularies the {@link LuceneMemoryStore} tests share. */
final class LuceneStoreFixtures {
  static final int DIM = 8;
  static final EmbeddingSpace SPACE = new EmbeddingSpace("test-model", DIM);
  static final Scope A = Scope.of("acme", "alice");
  static final Scope B = Scope.of("acme", "bob");
  static final Instant T0 = Instant.parse("2024-03-01T12:00:00Z");

  static final List<String> WORDS =
      List.of(
          "kafka",
          "postgres",
          "redis",
          "deploy",
          "rollback",
          "latency",
          "oauth",
          "schema",
          "migration",
          "retry",
          "timeout",
          "parseUserId",
          "E0425",
          "mvn");
  static final List<String> CONCEPTS = List.of("auth", "db", "cache", "ci", "infra");
  static final List<String> FILES = List.of("pom.xml", "src/A.java", "src/b/C.java", "README.md");

  static LuceneMemoryStore open(Path index) {
    LuceneMemoryStore store = LuceneMemoryStore.builder().directory(index).build();
    store.attach(SPACE);
    return store;
  }

  static LuceneMemoryStore inMemory() {
    LuceneMemoryStore store = LuceneMemoryStore.inMemory();
    store.attach(SPACE);
    return store;
  }

  static Memory memory(String id, Scope scope, String content) {
    return Memory.builder()
        .id(MemoryId.of(id))
        .scope(scope)
        .type(MemoryType.FACT)
        .content(content)
        .occurredAt(T0)
        .createdAt(T0)
        .build();
  }

  static Memory randomMemory(Random random, String id, Scope scope) {
    return memory(id, scope, randomWords(random, 3 + random.nextInt(6))).toBuilder()
        .title(randomWords(random, 2))
        .concepts(List.of(CONCEPTS.get(random.nextInt(CONCEPTS.size()))))
        .files(List.of(FILES.get(random.nextInt(FILES.size()))))
        .build();
  }

  static String randomWords(Random random, int n) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      sb.append(WORDS.get(random.nextInt(WORDS.size()))).append(' ');
    }
    return sb.toString().trim();
  }

  static Embedding vector(int axis) {
    float[] v = new float[DIM];
    v[Math.floorMod(axis, DIM)] = 1f;
    v[Math.floorMod(axis + 1, DIM)] = 0.05f * (1 + Math.floorMod(axis / DIM, 5));
    return Embedding.of(v);
  }

  /** A vector with {@code x} and {@code y} on its first two axes, zero elsewhere. */
  static Embedding axes(float x, float y) {
    float[] v = new float[DIM];
    v[0] = x;
    v[1] = y;
    return Embedding.of(v);
  }

  static Embedding randomVector(Random random) {
    return randomVector(random, DIM);
  }

  static Embedding randomVector(Random random, int dim) {
    float[] v = new float[dim];
    for (int i = 0; i < dim; i++) {
      v[i] = (float) random.nextGaussian();
    }
    return Embedding.of(v);
  }

  static List<String> ids(TextHits hits) {
    return ids(hits.hits());
  }

  static List<String> ids(List<StoreHit> hits) {
    return hits.stream().map(h -> h.id().value()).collect(Collectors.toList());
  }

  private LuceneStoreFixtures() {}
}
