package dev.memhook.core.internal;

import dev.memhook.api.ImportProgress;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.core.internal.observe.DocumentEmbedder;
import dev.memhook.core.internal.observe.MemoryIntake;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * {@code MemoryMaintenance.rememberAll}: every draft through {@link MemoryIntake} first (so a
 * rejected draft stores nothing), then per batch of {@link #BATCH} one {@link
 * Embedder#embedDocuments} call and one {@link MemoryStore#putAll} (one store write: a durable
 * store commits once per batch), then a progress report; the next batch is embedded while one is
 * written ({@link ImportPipeline}). Stateless and thread-safe; concurrent imports and remembers
 * interleave by batch.
 */
final class BatchImport {

  /**
   * Memories per batch: large enough that the model's batches and the store's commit are amortised
   * (the embedder batches internally, 32 texts per model call by default), small enough that a
   * progress report comes every second or two with the local model.
   */
  static final int BATCH = 256;

  private final MemoryStore store;
  private final DocumentEmbedder documents;
  private final MemoryIntake intake;

  BatchImport(MemoryStore store, DocumentEmbedder documents, MemoryIntake intake) {
    this.store = store;
    this.documents = documents;
    this.intake = intake;
  }

  List<Memory> rememberAll(List<MemoryDraft> drafts, Consumer<ImportProgress> progress) {
    Objects.requireNonNull(progress, "progress");
    List<MemoryDraft> all = List.copyOf(drafts);
    long start = System.nanoTime();
    List<Memory> memories = new ArrayList<>(all.size());
    for (int i = 0; i < all.size(); i++) {
      try {
        memories.add(intake.newMemory(all.get(i)));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "drafts[" + i + "]: " + e.getMessage() + "; nothing was stored", e);
      }
    }
    ImportPipeline.run(
        memories,
        BATCH,
        documents::embedAll,
        store,
        stored ->
            progress.accept(
                new ImportProgress(
                    stored, memories.size(), Duration.ofNanos(System.nanoTime() - start))));
    return List.copyOf(memories);
  }
}
