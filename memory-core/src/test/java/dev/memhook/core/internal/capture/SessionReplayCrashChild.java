package dev.memhook.core.internal.capture;

import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.SessionStore;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The child JVM of {@link SessionReplayCrashTest}: runs {@link SessionReplayScript} over a service
 * in the given directory with the default file session store, and at the given {@link
 * SessionReplayScript.Point} prints {@code AT <point>} and waits there, on capture's worker thread,
 * to be killed.
 */
public final class SessionReplayCrashChild {

  private static volatile SessionReplayScript.Point armed;

  private SessionReplayCrashChild() {}

  /** Args: the service directory, the crash point. */
  public static void main(String[] args) throws InterruptedException {
    Path dir = Path.of(args[0]);
    SessionReplayScript.Point point = SessionReplayScript.Point.valueOf(args[1]);
    SessionStore sessions =
        new KillPointSessionStore(
            FileSessionStore.open(
                dir.resolve(Memhook.JOURNAL_DIRECTORY).resolve(SessionReplayScript.SESSIONS)));
    MemoryService memory =
        Memhook.builder()
            .directory(dir)
            .embedder(new KillPointEmbedder())
            .sessionStore(sessions)
            .build();
    SessionReplayScript.runUpTo(memory, point, () -> armed = point);
    Thread.sleep(Duration.ofMinutes(10).toMillis());
    System.exit(3); // never killed: the parent failed the test already
  }

  /** Tells the parent the crash point is reached, and waits there for the kill. */
  private static void stopHere(SessionReplayScript.Point point) {
    if (armed != point) {
      return;
    }
    System.out.println("AT " + point);
    System.out.flush();
    try {
      Thread.sleep(Duration.ofMinutes(10).toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    System.exit(3);
  }

  /** The file store, stopping at {@code BEFORE_APPEND} and {@code AFTER_SAVE}. */
  private static final class KillPointSessionStore implements SessionStore {
    private final SessionStore delegate;

    KillPointSessionStore(SessionStore delegate) {
      this.delegate = delegate;
    }

    @Override
    public boolean shared() {
      return delegate.shared();
    }

    @Override
    public List<String> loadAll() {
      return delegate.loadAll();
    }

    @Override
    public Optional<String> load(String sessionId) {
      return delegate.load(sessionId);
    }

    @Override
    public void save(String sessionId, Scope scope, String record) {
      delegate.save(sessionId, scope, record);
      stopHere(SessionReplayScript.Point.AFTER_SAVE);
    }

    @Override
    public void appendObservations(String sessionId, List<MemoryId> ids) {
      stopHere(SessionReplayScript.Point.BEFORE_APPEND);
      delegate.appendObservations(sessionId, ids);
    }

    @Override
    public List<MemoryId> observations(String sessionId) {
      return delegate.observations(sessionId);
    }

    @Override
    public void close() {
      delegate.close();
    }
  }

  /** The hashing embedder, stopping at {@code MID_CONSOLIDATION}: before the decision's memory. */
  private static final class KillPointEmbedder implements Embedder {
    private final Embedder delegate = HashingEmbedder.create();

    @Override
    public Embedding embed(String text) {
      if (text.contains(SessionReplayScript.SECOND_CONSOLIDATED)) {
        stopHere(SessionReplayScript.Point.MID_CONSOLIDATION);
      }
      return delegate.embed(text);
    }

    @Override
    public int dimension() {
      return delegate.dimension();
    }

    @Override
    public String modelId() {
      return delegate.modelId();
    }

    @Override
    public void close() {}
  }
}
