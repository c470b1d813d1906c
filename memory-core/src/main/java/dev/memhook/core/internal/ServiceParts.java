package dev.memhook.core.internal;

import dev.memhook.api.RecallOptions;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.SessionStore;
import dev.memhook.api.trace.MemoryListener;
import dev.memhook.core.internal.sanitize.Sanitizer;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;

/**
 * What a {@link LocalMemoryService} is built over: the resources its composition root opened (the
 * store, the embedder, the executor) and the settings it wires them with. The service owns and
 * closes the store, the embedder and the owned executor, in the order {@link ServiceShutdown}
 * states.
 *
 * @param store where memories live, opened
 * @param writes whether the store's writes are acknowledged through the capture journal
 * @param embedder the embedder, loaded
 * @param recall how recall ranks and filters
 * @param clock the service's clock
 * @param executor where hooks recall
 * @param ownedExecutor {@code executor}, when the service created it and shuts it down
 * @param sanitizer what every stored or reported string goes through first
 * @param capture capture's options; empty: the service captures nothing
 * @param journalDirectory where the journal lives unless capture's options name another; empty:
 *     capture's journal is kept in memory
 * @param sessionStore where capture keeps its sessions; empty: beside the journal, or in memory
 * @param listener who hears what the service did
 */
public record ServiceParts(
    MemoryStore store,
    StoreWrites writes,
    Embedder embedder,
    RecallOptions recall,
    Clock clock,
    Executor executor,
    Optional<ExecutorService> ownedExecutor,
    Sanitizer sanitizer,
    Optional<CaptureOptions> capture,
    Optional<Path> journalDirectory,
    Optional<SessionStore> sessionStore,
    MemoryListener listener) {

  /**
   * @throws IllegalArgumentException if the writes are to be journaled without a journal directory,
   *     or a session store is given to a service that captures nothing
   */
  public ServiceParts {
    Objects.requireNonNull(store, "store");
    Objects.requireNonNull(writes, "writes");
    Objects.requireNonNull(embedder, "embedder");
    Objects.requireNonNull(recall, "recall");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(executor, "executor");
    Objects.requireNonNull(ownedExecutor, "ownedExecutor");
    Objects.requireNonNull(sanitizer, "sanitizer");
    Objects.requireNonNull(capture, "capture");
    Objects.requireNonNull(journalDirectory, "journalDirectory");
    Objects.requireNonNull(sessionStore, "sessionStore");
    Objects.requireNonNull(listener, "listener");
    if (writes == StoreWrites.JOURNALED && journalDirectory.isEmpty()) {
      throw new IllegalArgumentException("journaled store writes need a journal directory");
    }
    if (sessionStore.isPresent() && capture.isEmpty()) {
      throw new IllegalArgumentException("a session store needs capture");
    }
  }

  /** How the store's writes are acknowledged. */
  public enum StoreWrites {
    /**
     * Through the capture journal ({@link dev.memhook.core.internal.store.LoggedStore}): for a
     * store the builder opened on a directory with a group commit, whose own commits lag.
     */
    JOURNALED,
    /** By the store itself, when its write returns. */
    DIRECT
  }
}
