package dev.memhook.core.capture;

import dev.memhook.api.MemoryService;
import dev.memhook.api.capture.ObserveResult;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.nio.file.Path;

/**
 * The child JVM of {@link CaptureCrashTest}: observes events without end and prints {@code A <n>}
 * for each one after {@code observe} returned ACCEPTED, until it is killed.
 */
public final class CaptureCrashChild {

  private CaptureCrashChild() {}

  /** Args: the store directory, the first event number. */
  public static void main(String[] args) {
    Path dir = Path.of(args[0]);
    int first = Integer.parseInt(args[1]);
    MemoryService memory =
        Memhook.builder().directory(dir).embedder(HashingEmbedder.create()).build();
    System.out.println("READY");
    System.out.flush();
    for (int n = first; ; n++) {
      ObserveResult r =
          memory
              .capture()
              .observe(
                  CaptureFixtures.postTool(
                      "crash", n, "Bash", "echo " + CaptureCrashTest.token(n), "ok " + n));
      if (r == ObserveResult.ACCEPTED) {
        System.out.println("A " + n);
        System.out.flush();
      }
    }
  }
}
