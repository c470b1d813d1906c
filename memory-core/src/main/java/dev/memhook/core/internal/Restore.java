package dev.memhook.core.internal;

import com.google.common.base.Throwables;
import com.google.common.util.concurrent.ThreadFactoryBuilder;
import com.google.common.util.concurrent.Uninterruptibles;
import dev.memhook.api.ExportedMemory;
import dev.memhook.api.ForgetRecord;
import dev.memhook.api.ImportProgress;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryVector;
import dev.memhook.api.RestoreResult;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.core.internal.observe.DocumentEmbedder;
import dev.memhook.core.internal.observe.EmbeddingText;
import dev.memhook.core.internal.observe.MemoryIntake;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * {@code MemoryMaintenance.restore} and {@code restoreExported}: every memory through {@link
 * MemoryIntake#restored} first (so a rejected one stores nothing; a large list on several threads,
 * {@link #inParts}), then per batch of {@link BatchImport#BATCH} one {@link
 * Embedder#embedDocuments} call for the memories whose exported vector cannot be reused and one
 * {@link MemoryStore#putAll}, overlapped as {@link BatchImport}'s ({@link ImportPipeline}).
 *
 * <p>A forget record is restored the only way the store SPI keeps one: as the audit of deleting a
 * memory of its id. So each record gets a stand-in memory holding no text of the forgotten one, and
 * one {@link MemoryStore#deleteAll} erases every stand-in and keeps the records, exactly as a
 * forget would have. Stateless and thread-safe.
 */
final class Restore {

  /** How many memories one thread sanitizes at a time in {@link #inParts}. */
  static final int INTAKE_PART = 256;

  /** The whole text of a forget record's stand-in: nothing of the forgotten memory. */
  static final String STAND_IN = "forgotten memory";

  private final MemoryStore store;
  private final DocumentEmbedder documents;
  private final Embedder embedder;
  private final MemoryIntake intake;

  Restore(MemoryStore store, DocumentEmbedder documents, MemoryIntake intake) {
    this.store = store;
    this.documents = documents;
    this.embedder = documents.embedder();
    this.intake = intake;
  }

  int restore(
      List<Memory> memories, List<ForgetRecord> forgotten, Consumer<ImportProgress> progress) {
    List<ExportedMemory> plain = new ArrayList<>(memories.size());
    memories.forEach(m -> plain.add(ExportedMemory.withoutVector(m)));
    return restoreExported(plain, forgotten, progress).skippedForgotten();
  }

  /**
   * Restores {@code memories}, each with the vector it carries where that vector is of this
   * service's space and was made from the text that is stored (redaction changed nothing it
   * embeds), and embedded otherwise.
   */
  RestoreResult restoreExported(
      List<ExportedMemory> memories,
      List<ForgetRecord> forgotten,
      Consumer<ImportProgress> progress) {
    List<ExportedMemory> given = List.copyOf(memories);
    List<ForgetRecord> records = List.copyOf(forgotten);
    Objects.requireNonNull(progress, "progress");
    EmbeddingSpace space = embedder.space();
    Set<MemoryId> ids = new HashSet<>();
    for (int i = 0; i < given.size(); i++) {
      MemoryId id = given.get(i).memory().id();
      if (!ids.add(id)) {
        throw new IllegalArgumentException(
            "memories[" + i + "]: a second memory with id " + id + "; nothing was stored");
      }
    }
    Memory[] cleaned = new Memory[given.size()];
    Embedding[] kept = new Embedding[given.size()]; // the exported vector, where it still fits
    IllegalArgumentException[] refused = new IllegalArgumentException[given.size()];
    inParts(
        given.size(),
        i -> {
          ExportedMemory exported = given.get(i);
          try {
            cleaned[i] = intake.restored(exported.memory());
          } catch (IllegalArgumentException e) {
            refused[i] = e;
            return;
          }
          Optional<MemoryVector> vector = exported.vector();
          if (vector.isPresent()
              && inSpace(vector.get(), space)
              && EmbeddingText.of(cleaned[i]).equals(EmbeddingText.of(exported.memory()))) {
            kept[i] = Embedding.of(vector.get().toArray());
          }
        });
    List<Memory> clean = new ArrayList<>(given.size());
    Map<MemoryId, Embedding> reused = new HashMap<>();
    for (int i = 0; i < given.size(); i++) {
      if (refused[i] != null) { // the first refused memory in the list's order is reported
        throw new IllegalArgumentException(
            "memories[" + i + "]: " + refused[i].getMessage() + "; nothing was stored", refused[i]);
      }
      clean.add(cleaned[i]);
      if (kept[i] != null) {
        reused.put(cleaned[i].id(), kept[i]);
      }
    }
    Set<MemoryId> recordIds = new HashSet<>();
    for (int i = 0; i < records.size(); i++) {
      MemoryId id = records.get(i).id();
      if (ids.contains(id) || !recordIds.add(id)) {
        throw new IllegalArgumentException(
            "forgotten["
                + i
                + "]: "
                + id
                + " is also a restored memory or another forget record; nothing was stored");
      }
    }
    int total = clean.size() + records.size();
    long start = System.nanoTime();
    ImportPipeline.run(
        clean,
        BatchImport.BATCH,
        batch -> documents.embedAll(batch, reused),
        store,
        stored ->
            progress.accept(
                new ImportProgress(stored, total, Duration.ofNanos(System.nanoTime() - start))));
    int skipped = restoreRecords(records);
    if (!records.isEmpty()) {
      progress.accept(
          new ImportProgress(total, total, Duration.ofNanos(System.nanoTime() - start)));
    }
    return new RestoreResult(skipped, reused.size(), clean.size() - reused.size());
  }

  /**
   * Runs {@code step} for every index below {@code size}: on the calling thread for a small list,
   * otherwise in parts of {@link #INTAKE_PART} on short-lived daemon threads, one per processor,
   * that end with the call. Sanitizing a memory, and checking that its exported vector still fits
   * the sanitized text, need nothing but the memory itself, and come before the first write.
   */
  static void inParts(int size, IntConsumer step) {
    int threads = Math.min(Runtime.getRuntime().availableProcessors(), size / INTAKE_PART);
    if (threads <= 1) {
      for (int i = 0; i < size; i++) {
        step.accept(i);
      }
      return;
    }
    AtomicInteger nextPart = new AtomicInteger();
    Runnable work =
        () -> {
          for (int from = nextPart.getAndIncrement() * INTAKE_PART;
              from < size;
              from = nextPart.getAndIncrement() * INTAKE_PART) {
            for (int i = from; i < Math.min(size, from + INTAKE_PART); i++) {
              step.accept(i);
            }
          }
        };
    ExecutorService pool =
        Executors.newFixedThreadPool(
            threads - 1,
            new ThreadFactoryBuilder().setNameFormat("memhook-restore-%d").setDaemon(true).build());
    try {
      List<Future<?>> helpers = new ArrayList<>(threads - 1);
      for (int t = 1; t < threads; t++) {
        helpers.add(pool.submit(work));
      }
      work.run(); // the caller takes parts too
      for (Future<?> helper : helpers) {
        try {
          Uninterruptibles.getUninterruptibly(helper); // parts are short: wait them out
        } catch (ExecutionException e) {
          Throwables.throwIfUnchecked(e.getCause()); // as the step threw it
          throw new IllegalStateException(e.getCause());
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private static boolean inSpace(MemoryVector vector, EmbeddingSpace space) {
    return vector.modelId().equals(space.modelId()) && vector.dimension() == space.dimension();
  }

  private int restoreRecords(List<ForgetRecord> records) {
    if (records.isEmpty()) {
      return 0;
    }
    Map<MemoryId, Memory> held = store.getAll(records.stream().map(ForgetRecord::id).toList());
    List<ForgetRecord> kept = new ArrayList<>(records.size());
    Map<Memory, Embedding> standIns = new LinkedHashMap<>();
    Embedding vector = embedder.embed(STAND_IN);
    for (ForgetRecord r : records) {
      if (held.containsKey(r.id())) {
        continue;
      }
      kept.add(r);
      standIns.put(
          Memory.builder()
              .id(r.id())
              .scope(r.scope())
              .content(STAND_IN)
              .occurredAt(r.at())
              .createdAt(r.at())
              .build(),
          vector);
    }
    if (!kept.isEmpty()) {
      store.putAll(standIns);
      store.deleteAll(kept);
    }
    return records.size() - kept.size();
  }
}
