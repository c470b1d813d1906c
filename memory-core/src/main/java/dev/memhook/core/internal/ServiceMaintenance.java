package dev.memhook.core.internal;

import dev.memhook.api.ExportResult;
import dev.memhook.api.ExportedMemory;
import dev.memhook.api.ForgetRecord;
import dev.memhook.api.ImportProgress;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryMaintenance;
import dev.memhook.api.MemoryVector;
import dev.memhook.api.RestoreResult;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.MemoryStore;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The {@link MemoryMaintenance} view of a {@link LocalMemoryService}: checks its arguments and that
 * the service is open, then hands each call to the part that does it ({@link BatchImport}, {@link
 * Restore}, {@link ServiceWriter} or the store).
 *
 * <p>Thread-safe: every part it calls is.
 */
final class ServiceMaintenance implements MemoryMaintenance {

  private final Liveness liveness;
  private final MemoryStore store;
  private final String modelId;
  private final ServiceWriter writes;
  private final BatchImport imports;
  private final Restore restores;

  ServiceMaintenance(
      Liveness liveness,
      MemoryStore store,
      String modelId,
      ServiceWriter writes,
      BatchImport imports,
      Restore restores) {
    this.liveness = Objects.requireNonNull(liveness, "liveness");
    this.store = Objects.requireNonNull(store, "store");
    this.modelId = Objects.requireNonNull(modelId, "modelId");
    this.writes = Objects.requireNonNull(writes, "writes");
    this.imports = Objects.requireNonNull(imports, "imports");
    this.restores = Objects.requireNonNull(restores, "restores");
  }

  @Override
  public List<Memory> rememberAll(List<MemoryDraft> drafts, Consumer<ImportProgress> progress) {
    Objects.requireNonNull(drafts, "drafts");
    Objects.requireNonNull(progress, "progress");
    liveness.check();
    return imports.rememberAll(drafts, progress);
  }

  @Override
  public List<Memory> rememberAll(List<MemoryDraft> drafts) {
    return rememberAll(drafts, p -> {});
  }

  @Override
  public int restore(
      List<Memory> memories, List<ForgetRecord> forgotten, Consumer<ImportProgress> progress) {
    Objects.requireNonNull(memories, "memories");
    Objects.requireNonNull(forgotten, "forgotten");
    Objects.requireNonNull(progress, "progress");
    liveness.check();
    return restores.restore(memories, forgotten, progress);
  }

  @Override
  public RestoreResult restoreExported(
      List<ExportedMemory> memories,
      List<ForgetRecord> forgotten,
      Consumer<ImportProgress> progress) {
    Objects.requireNonNull(memories, "memories");
    Objects.requireNonNull(forgotten, "forgotten");
    Objects.requireNonNull(progress, "progress");
    liveness.check();
    return restores.restoreExported(memories, forgotten, progress);
  }

  @Override
  public ExportResult exportWithVectors(Consumer<? super ExportedMemory> sink) {
    Objects.requireNonNull(sink, "sink");
    liveness.check();
    return store.exportWithVectors(
        (m, v) ->
            sink.accept(new ExportedMemory(m, v.map(e -> MemoryVector.of(modelId, e.toArray())))));
  }

  @Override
  public ExportResult export(Consumer<? super Memory> sink) {
    Objects.requireNonNull(sink, "sink");
    liveness.check();
    return store.export(sink);
  }

  @Override
  public long exportForgotten(Consumer<? super ForgetRecord> sink) {
    Objects.requireNonNull(sink, "sink");
    liveness.check();
    return store.exportForgotten(sink);
  }

  @Override
  public long count(Scope scope) {
    Objects.requireNonNull(scope, "scope");
    liveness.check();
    return store.count(scope);
  }

  @Override
  public long unreadableRecords() {
    liveness.check();
    return store.unreadableRecords();
  }

  @Override
  public void purge() {
    liveness.check();
    store.purge();
  }

  @Override
  public void compact() {
    liveness.check();
    store.compact();
  }

  @Override
  public List<MemoryId> sources(MemoryId id) {
    Objects.requireNonNull(id, "id");
    liveness.check();
    return writes.sources(id);
  }

  @Override
  public List<ForgetRecord> forgotten(Scope scope) {
    Objects.requireNonNull(scope, "scope");
    liveness.check();
    return store.forgotten(scope);
  }
}
