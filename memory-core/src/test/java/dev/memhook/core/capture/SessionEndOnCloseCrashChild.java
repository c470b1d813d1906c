package dev.memhook.core.capture;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryService;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.capture.Consolidation;
import dev.memhook.api.capture.Consolidator;
import dev.memhook.api.capture.Session;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The child JVM of {@link SessionEndOnCloseCrashTest}: observes a session without its end event and
 * closes the service; when close's end of the session reaches the consolidator, it prints {@code AT
 * CONSOLIDATING} and waits there to be killed.
 */
public final class SessionEndOnCloseCrashChild {

  private SessionEndOnCloseCrashChild() {}

  /** Args: the service directory. */
  public static void main(String[] args) {
    MemoryService memory =
        Memhook.builder()
            .directory(Path.of(args[0]))
            .embedder(HashingEmbedder.create())
            .capture(
                CaptureOptions.builder()
                    .consolidator(new StopHere())
                    .consolidatorTimeout(Duration.ofMinutes(10))
                    .closeTimeout(Duration.ofMinutes(10))
                    .build())
            .build();
    memory
        .capture()
        .observe(CaptureFixtures.prompt("s1", 0, SessionEndOnCloseCrashTest.PREFERENCE));
    memory.capture().observe(CaptureFixtures.prompt("s1", 1, SessionEndOnCloseCrashTest.DECISION));
    memory.close();
    System.exit(3); // never killed: the parent failed the test already
  }

  /** Tells the parent close is ending the session, and waits there for the kill. */
  private static final class StopHere implements Consolidator {
    @Override
    public List<Consolidation> consolidate(Session session, List<Memory> observations)
        throws InterruptedException {
      System.out.println("AT CONSOLIDATING " + session.id() + " " + session.status());
      System.out.flush();
      Thread.sleep(Duration.ofMinutes(10).toMillis());
      System.exit(3);
      return List.of();
    }
  }
}
