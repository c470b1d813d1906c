package dev.memhook.core.internal;

import dev.memhook.api.ForgetMode;
import dev.memhook.api.ForgetRecord;
import dev.memhook.api.HookOptions;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryMaintenance;
import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecallResult;
import dev.memhook.api.Scope;
import dev.memhook.api.StandingProfile;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.capture.MemoryCapture;
import dev.memhook.api.chat.ChatService;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.trace.CaptureEvent;
import dev.memhook.api.trace.MemoryTrace;
import dev.memhook.core.internal.capture.CaptureInputs;
import dev.memhook.core.internal.capture.CapturePipeline;
import dev.memhook.core.internal.capture.CaptureStorage;
import dev.memhook.core.internal.capture.OpenCapture;
import dev.memhook.core.internal.inject.AsyncMemoryHook;
import dev.memhook.core.internal.inject.GetMemoryTool;
import dev.memhook.core.internal.inject.HookDisposal;
import dev.memhook.core.internal.inject.HookEvents;
import dev.memhook.core.internal.inject.HookParts;
import dev.memhook.core.internal.inject.StandingProfiles;
import dev.memhook.core.internal.notify.ListenerDispatch;
import dev.memhook.core.internal.notify.ReceiptBook;
import dev.memhook.core.internal.observe.DocumentEmbedder;
import dev.memhook.core.internal.observe.MemoryIntake;
import dev.memhook.core.internal.recall.RecallEngine;
import dev.memhook.core.internal.recall.VectorSideThreads;
import dev.memhook.core.internal.sanitize.Sanitizer;
import dev.memhook.core.internal.store.ServiceStorage;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;

/**
 * The {@link MemoryService} that {@code Memhook.builder()} builds: it wires the data path in order,
 * observe ({@link MemoryIntake}: validate, sanitize, complete) → store ({@link ServiceWriter}:
 * embed, put, version, erase) → index (the store's) → recall ({@link RecallEngine}) → inject
 * ({@link AsyncMemoryHook}, {@link GetMemoryTool}).
 *
 * <p>Thread-safe. Owns the store, the embedder and, when it created it, the executor.
 */
public final class LocalMemoryService implements MemoryService {

  private final MemoryStore store;
  private final Embedder embedder;
  private final RecallEngine engine;

  /** Where a recall's vector side runs beside its text search; closed with the service. */
  private final VectorSideThreads vectorSideThreads = new VectorSideThreads();

  private final StandingProfiles standing;
  private final RecallWarmUp warmUp;
  private final MemoryIntake intake;
  private final ServiceWriter writes;
  private final BatchImport imports;
  private final Restore restores;
  private final Clock clock;
  private final Optional<ExecutorService> ownedExecutor;

  /** What every hook of the service shares. */
  private final HookParts hookParts;

  /** Live hooks by chat service identity; guarded by itself. */
  private final Map<ChatService, AsyncMemoryHook> hooks = new IdentityHashMap<>();

  /** The service's listeners, on their own thread. */
  private final ListenerDispatch dispatch;

  /** The most recent receipts of every hook. */
  private final ReceiptBook receipts = new ReceiptBook(MemoryTrace.MAX_RECENT_RECEIPTS);

  /** Empty when the service captures nothing (read-only, or built without capture). */
  private final Optional<CapturePipeline> capture;

  private final Liveness liveness = new Liveness();
  private final ServiceCapture captureView;
  private final ServiceMaintenance maintenance;
  private final ServiceTrace trace;

  /** Wires the service over {@code parts}, which it owns from now on. */
  public LocalMemoryService(ServiceParts parts) {
    Objects.requireNonNull(parts, "parts");
    this.dispatch = new ListenerDispatch(parts.listener());
    this.embedder = parts.embedder();
    this.clock = parts.clock();
    this.ownedExecutor = parts.ownedExecutor();
    Sanitizer sanitizer = parts.sanitizer();
    Optional<Path> journalDir =
        parts.capture().map(CaptureOptions::journalDirectory).or(parts::journalDirectory);
    ServiceStorage storage =
        ServiceStorage.open(
            parts.store(),
            parts.writes() == ServiceParts.StoreWrites.JOURNALED,
            parts.capture().isPresent(),
            journalDir);
    this.store = storage.store();
    this.intake = new MemoryIntake(clock, sanitizer);
    this.engine = new RecallEngine(this.store, embedder, parts.recall(), clock, vectorSideThreads);
    this.standing = new StandingProfiles(this.store);
    this.warmUp = new RecallWarmUp(engine);
    DocumentEmbedder documents = DocumentEmbedder.forStore(embedder, this.store);
    this.writes = new ServiceWriter(this.store, documents, intake);
    this.imports = new BatchImport(this.store, documents, intake);
    this.restores = new Restore(this.store, documents, intake);
    try {
      this.store.attach(embedder.space());
      storage.replay();
      // last: the pipeline's worker starts at once and may store consolidated memories through this
      this.capture =
          parts
              .capture()
              .map(
                  options ->
                      OpenCapture.start(
                          new CaptureInputs(
                              options,
                              clock,
                              sanitizer,
                              this.store,
                              embedder,
                              intake,
                              writes,
                              event -> dispatch.publish(l -> l.captured(event))),
                          new CaptureStorage(
                              // opened with capture, the storage has a journal
                              storage.cursor().orElseThrow(),
                              storage.captureOwnsJournal()
                                  ? CaptureStorage.JournalOwner.CAPTURE
                                  : CaptureStorage.JournalOwner.LOGGED_STORE,
                              journalDir,
                              parts.sessionStore())));
      storage.replayed();
    } catch (RuntimeException | Error e) {
      storage.abandon();
      throw e;
    }
    this.hookParts =
        new HookParts(
            this.store, engine::recall, standing, capture, sanitizer, parts.executor(), clock);
    this.captureView = new ServiceCapture(liveness, capture);
    this.maintenance =
        new ServiceMaintenance(liveness, this.store, embedder.modelId(), writes, imports, restores);
    this.trace = new ServiceTrace(receipts, dispatch);
  }

  @Override
  public Memory remember(MemoryDraft draft) {
    Objects.requireNonNull(draft, "draft");
    checkOpen();
    return writes.remember(draft);
  }

  @Override
  public Memory update(MemoryId id, MemoryDraft draft) {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(draft, "draft");
    checkOpen();
    return writes.update(id, draft);
  }

  @Override
  public Optional<Memory> get(MemoryId id) {
    Objects.requireNonNull(id, "id");
    checkOpen();
    return store.get(id);
  }

  /**
   * Warms the recall path once, when the service is built (see {@link RecallWarmUp}).
   *
   * @param searchStore whether the store may be searched: for a store the builder opened, never for
   *     one the host handed over
   */
  public void warmUp(boolean searchStore) {
    warmUp.atBuild(searchStore);
  }

  @Override
  public RecallResult recall(RecallQuery query) {
    Objects.requireNonNull(query, "query");
    checkOpen();
    return engine.recall(query);
  }

  @Override
  public StandingProfile standing(Scope scope, int maxChars) {
    Objects.requireNonNull(scope, "scope");
    StandingProfile.checkBudget(maxChars);
    checkOpen();
    return standing.of(scope, maxChars);
  }

  @Override
  public List<ForgetRecord> forget(MemoryId id, String actor, String reason, ForgetMode mode) {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(actor, "actor");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(mode, "mode");
    checkOpen();
    MemoryIntake.ForgetRequest request = intake.forgetRequest(actor, reason);
    Optional<ServiceWriter.Forgotten> forgotten = writes.forget(id, request, mode);
    if (forgotten.isEmpty()) {
      return List.of();
    }
    Set<String> capturedSessions = forgotten.get().capturedSessions();
    // outside the write lock: erasing waits for capture, whose consolidation may write
    if (capture.isPresent() && !capturedSessions.isEmpty()) {
      capture.get().forgotten(capturedSessions);
    }
    CaptureEvent event =
        new CaptureEvent(
            CaptureEvent.Kind.MEMORY_FORGOTTEN,
            clock.instant(),
            null,
            null,
            id,
            "forgotten by " + request.actor());
    dispatch.publish(l -> l.captured(event));
    return forgotten.get().records();
  }

  @Override
  public MemoryCapture capture() {
    return captureView;
  }

  @Override
  public MemoryMaintenance maintenance() {
    return maintenance;
  }

  @Override
  public MemoryTrace trace() {
    return trace;
  }

  @Override
  public MemoryHook hookInto(ChatService chat, HookOptions options) {
    Objects.requireNonNull(chat, "chat");
    Objects.requireNonNull(options, "options");
    checkOpen();
    warmUp.forHook(options.scopes());
    synchronized (hooks) {
      if (hooks.containsKey(chat)) {
        throw new IllegalStateException(
            "this service already has a live hook on "
                + chat
                + "; dispose it before hooking in again");
      }
      AsyncMemoryHook hook =
          new AsyncMemoryHook(
              chat,
              options,
              hookParts,
              new HookEvents(options.listener(), dispatch, receipts),
              this::hookDisposed);
      hooks.put(chat, hook);
      return hook;
    }
  }

  /** The service's {@link HookDisposal}: forgets {@code hook}, unless another replaced it. */
  private void hookDisposed(ChatService chat, AsyncMemoryHook hook) {
    synchronized (hooks) {
      hooks.remove(chat, hook);
    }
  }

  @Override
  public void close() {
    if (!liveness.close()) {
      return;
    }
    List<AsyncMemoryHook> live;
    synchronized (hooks) {
      live = new ArrayList<>(hooks.values());
    }
    try {
      ServiceShutdown.close(live, capture, ownedExecutor, store, embedder, dispatch);
    } finally {
      vectorSideThreads.close();
    }
  }

  private void checkOpen() {
    liveness.check();
  }

  @Override
  public String toString() {
    return "MemoryService[store="
        + store
        + ", embedder="
        + embedder.modelId()
        + ", "
        + engine.options()
        + "]";
  }
}
