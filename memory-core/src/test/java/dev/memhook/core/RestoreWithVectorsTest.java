package dev.memhook.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.ExportedMemory;
import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryVector;
import dev.memhook.api.Origin;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RestoreResult;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code exportWithVectors} hands out each memory's vector, and {@code restoreExported} stores a
 * vector of its own space as it is, without calling the embedder, and embeds everything else.
 */
class RestoreWithVectorsTest {
  private static final Scope SCOPE = Scope.of("acme", "vectors");

  @TempDir Path source;
  @TempDir Path target;

  /** The hashing embedder under a model id of the test's choosing, counting every text. */
  private static final class CountingEmbedder implements Embedder {
    private final Embedder delegate = HashingEmbedder.create();
    private final String modelId;
    final AtomicInteger texts = new AtomicInteger();

    CountingEmbedder(String modelId) {
      this.modelId = modelId;
    }

    @Override
    public Embedding embed(String text) {
      texts.incrementAndGet();
      return delegate.embed(text);
    }

    @Override
    public List<Embedding> embedDocuments(List<String> batch) {
      texts.addAndGet(batch.size());
      return delegate.embedDocuments(batch);
    }

    @Override
    public Embedding embedQuery(String text) {
      return delegate.embedQuery(text);
    }

    @Override
    public int dimension() {
      return delegate.dimension();
    }

    @Override
    public String modelId() {
      return modelId;
    }
  }

  private static MemoryService open(Path dir, Embedder embedder) {
    return Memhook.builder().directory(dir).embedder(embedder).build();
  }

  private static List<ExportedMemory> exported(Path dir, List<ForgetRecord> records) {
    List<ExportedMemory> out = new ArrayList<>();
    try (MemoryService memory = open(dir, HashingEmbedder.create())) {
      memory.maintenance().exportWithVectors(out::add);
      memory.maintenance().exportForgotten(records::add);
    }
    return out;
  }

  private static Map<MemoryId, MemoryVector> vectors(List<ExportedMemory> exported) {
    Map<MemoryId, MemoryVector> out = new HashMap<>();
    exported.forEach(e -> out.put(e.memory().id(), e.vector().orElseThrow()));
    return out;
  }

  private static List<Memory> seed(Path dir, int n) {
    List<MemoryDraft> drafts = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      drafts.add(MemoryDraft.of(SCOPE, "vector note " + i + " about canary deploys " + (i % 5)));
    }
    try (MemoryService memory = open(dir, HashingEmbedder.create())) {
      List<Memory> stored = memory.maintenance().rememberAll(drafts);
      Memory gone = memory.remember(MemoryDraft.of(SCOPE, "a memory forgotten before export"));
      memory.forget(gone.id(), "ops", "test");
      return stored;
    }
  }

  @Test
  void aRoundTripIntoTheSameSpace_reusesEveryVector_withoutOneEmbedderCall() {
    List<Memory> stored = seed(source, 600);
    List<ForgetRecord> records = new ArrayList<>();
    List<ExportedMemory> exported = exported(source, records);
    assertEquals(600, exported.size());
    String model = HashingEmbedder.create().modelId();
    exported.forEach(e -> assertEquals(model, e.vector().orElseThrow().modelId()));

    CountingEmbedder counting = new CountingEmbedder(model);
    try (MemoryService memory = open(target, counting)) {
      int before = counting.texts.get(); // what building the service embedded (a warm-up)
      RestoreResult result = memory.maintenance().restoreExported(exported, records, p -> {});
      assertEquals(new RestoreResult(0, 600, 0), result);
      assertEquals(
          1, counting.texts.get() - before, "only the forget record's stand-in text is embedded");
      List<ExportedMemory> again = new ArrayList<>();
      memory.maintenance().exportWithVectors(again::add);
      assertEquals(vectors(exported), vectors(again), "the very vectors, stored as given");
      assertEquals(
          stored.get(42).id(),
          memory
              .recall(new RecallQuery(SCOPE, "vector note 42 about canary deploys 2", 1))
              .ids()
              .get(0));
      assertEquals(records, memory.maintenance().forgotten(SCOPE));
    }
  }

  @Test
  void aRoundTrip_embedsOnlyTheSentencesOfWhatAPersonSaid_andRecallReadsThem() {
    String said = "I moved to Lisbon in May. My brother plays the cello in an orchestra.";
    try (MemoryService memory = open(source, HashingEmbedder.create())) {
      memory.remember(MemoryDraft.builder(SCOPE, said).origin(Origin.user("Ann")).build());
    }
    List<ExportedMemory> exported = exported(source, new ArrayList<>());
    CountingEmbedder counting = new CountingEmbedder(HashingEmbedder.create().modelId());
    try (MemoryService memory = open(target, counting)) {
      int before = counting.texts.get();

      RestoreResult result = memory.maintenance().restoreExported(exported, List.of(), p -> {});

      assertEquals(new RestoreResult(0, 1, 0), result, "the memory's own vector is reused");
      assertEquals(2, counting.texts.get() - before, "its two sentences are embedded");
      String fusion = memory.recall(RecallQuery.of(SCOPE, "who plays the cello")).fusion();
      assertTrue(fusion.contains("passages lifted 1"), fusion);
    }
  }

  @Test
  void vectorsOfAnotherModel_areEmbeddedAgain_andSoIsTextRedactionChanged() {
    seed(source, 300);
    List<ExportedMemory> exported = exported(source, new ArrayList<>());
    CountingEmbedder other = new CountingEmbedder("another-model");
    try (MemoryService memory = open(target, other)) {
      int before = other.texts.get();
      RestoreResult result = memory.maintenance().restoreExported(exported, List.of(), p -> {});
      assertEquals(new RestoreResult(0, 0, 300), result);
      assertEquals(300, other.texts.get() - before);
    }

    Memory secret =
        Memory.builder()
            .id(MemoryId.random())
            .scope(SCOPE)
            .content("the deploy token is ghp_" + "a1B2c3D4e5F6g7H8i9J0".repeat(2))
            .occurredAt(Instant.EPOCH)
            .createdAt(Instant.EPOCH)
            .build();
    float[] values = new float[HashingEmbedder.create().dimension()];
    values[0] = 1;
    ExportedMemory withSecret =
        new ExportedMemory(
            secret, Optional.of(MemoryVector.of(HashingEmbedder.create().modelId(), values)));
    CountingEmbedder same = new CountingEmbedder(HashingEmbedder.create().modelId());
    try (MemoryService memory = open(source, same)) {
      int before = same.texts.get();
      RestoreResult result =
          memory.maintenance().restoreExported(List.of(withSecret), List.of(), p -> {});
      assertEquals(new RestoreResult(0, 0, 1), result, "its vector embeds the unredacted text");
      assertEquals(1, same.texts.get() - before);
      assertTrue(!memory.get(secret.id()).orElseThrow().content().contains("ghp_"));
    }
  }

  @Test
  void restoreOfMemoriesWithoutVectors_embedsEveryOne() {
    seed(source, 10);
    List<ExportedMemory> exported = exported(source, new ArrayList<>());
    CountingEmbedder counting = new CountingEmbedder(HashingEmbedder.create().modelId());
    try (MemoryService memory = open(target, counting)) {
      int before = counting.texts.get();
      List<Memory> plain = exported.stream().map(ExportedMemory::memory).toList();
      assertEquals(0, memory.maintenance().restore(plain, List.of(), p -> {}));
      assertEquals(10, counting.texts.get() - before, "restore without vectors embeds");
    }
  }
}
