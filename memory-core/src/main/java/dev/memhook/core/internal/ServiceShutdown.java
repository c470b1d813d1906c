package dev.memhook.core.internal;

import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.core.internal.capture.CapturePipeline;
import dev.memhook.core.internal.inject.AsyncMemoryHook;
import dev.memhook.core.internal.notify.ListenerDispatch;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The order a {@link LocalMemoryService} closes its parts in, and what it does when one fails:
 * hooks first (no new recall starts), then capture (it ends and consolidates the sessions it holds
 * open, and its worker may still write to the store), then the executor the builder created, the
 * store, the embedder, and the listeners last (they may be told of what closing did). A part that
 * fails to close is logged and the rest still close.
 *
 * <p>Nothing is interrupted: a thread in file I/O (a searcher refresh flushing index files, a
 * journal fsync) that is interrupted closes the channel in use and fails the index writer or the
 * journal. Stateless.
 */
final class ServiceShutdown {
  private static final Logger LOG = LoggerFactory.getLogger(ServiceShutdown.class);

  /** How long closing waits for the recalls running on the executor the builder created. */
  private static final Duration EXECUTOR_CLOSE_WAIT = Duration.ofSeconds(5);

  private ServiceShutdown() {}

  /**
   * Closes every part, in the order of the class note.
   *
   * @param capture empty if the service captures nothing
   * @param ownedExecutor empty if the host supplied the executor (the host shuts it down)
   */
  static void close(
      List<AsyncMemoryHook> hooks,
      Optional<CapturePipeline> capture,
      Optional<ExecutorService> ownedExecutor,
      MemoryStore store,
      Embedder embedder,
      ListenerDispatch dispatch) {
    hooks.forEach(AsyncMemoryHook::dispose);
    if (capture.isPresent()) {
      try {
        capture.get().close();
      } catch (RuntimeException e) {
        LOG.warn("closing capture failed", e);
      }
    }
    if (ownedExecutor.isPresent()) {
      // Waiting tasks were dropped by the hooks' disposal; one still running after the wait meets
      // a closed store and fails.
      ownedExecutor.get().shutdown();
      try {
        ownedExecutor.get().awaitTermination(EXECUTOR_CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    try {
      store.close();
    } catch (RuntimeException e) {
      LOG.warn("closing the store failed", e);
    }
    try {
      embedder.close();
    } catch (RuntimeException e) {
      LOG.warn("closing the embedder failed", e);
    }
    dispatch.close();
  }
}
