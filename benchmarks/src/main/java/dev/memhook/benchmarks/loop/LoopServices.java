package dev.memhook.benchmarks.loop;

import dev.memhook.api.HookOptions;
import dev.memhook.api.MemoryService;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.capture.Consolidator;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.trace.MemoryListener;
import dev.memhook.benchmarks.Unowned;
import dev.memhook.core.Memhook;
import dev.memhook.core.Redaction;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * Opens the services of one run: each lifetime a new {@link MemoryService} on a directory, built as
 * {@code memhook hook} builds its own (the embedded store in the directory, the built-in redaction,
 * default capture into the default scope), all sharing one embedder so the model is loaded once per
 * run. Closing this closes the embedder. Not thread-safe.
 */
final class LoopServices implements AutoCloseable {

  /** How long a replay waits for capture to store what it was given before closing. */
  static final Duration FLUSH_TIMEOUT = Duration.ofMinutes(2);

  private final Embedder embedder;
  private final Duration recallTimeout;
  private final Consolidator consolidator;

  /**
   * @param embedder the shared embedder, owned from now on
   * @param recallTimeout how long a hook's callback waits for recall: longer than the library's
   *     default, so a loaded machine does not turn into misses (timeouts are counted apart)
   * @param consolidator a provider consolidator capture uses, or null for the local one
   */
  LoopServices(Embedder embedder, Duration recallTimeout, Consolidator consolidator) {
    this.embedder = Objects.requireNonNull(embedder, "embedder");
    this.recallTimeout = Objects.requireNonNull(recallTimeout, "recallTimeout");
    this.consolidator = consolidator;
  }

  /** A new service lifetime on {@code dir}, whose clock is {@code clock}. */
  MemoryService open(Path dir, Clock clock) {
    return Memhook.builder()
        .directory(dir)
        .embedder(Unowned.embedder(embedder))
        .clock(clock)
        .redaction(Redaction.defaults())
        .capture(
            consolidator == null
                ? CaptureOptions.defaults()
                : CaptureOptions.builder().consolidator(consolidator).build())
        .build();
  }

  /**
   * The default hook options but the recall timeout, with {@code listener}; capture into {@code
   * sessionId} if not null.
   */
  HookOptions hookOptions(MemoryListener listener, String sessionId) {
    HookOptions.Builder b = HookOptions.builder().recallTimeout(recallTimeout).listener(listener);
    if (sessionId != null) {
      b.sessionId(sessionId);
    }
    return b.build();
  }

  @Override
  public void close() {
    embedder.close();
  }
}
