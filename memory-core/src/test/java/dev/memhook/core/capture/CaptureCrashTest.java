package dev.memhook.core.capture;

import static dev.memhook.core.capture.CaptureFixtures.flush;
import static dev.memhook.core.capture.CaptureFixtures.observations;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryService;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.testkit.Seeds;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An event {@code observe} accepted survives a SIGKILL of the JVM at any moment: a child JVM
 * observes events without end and is killed after a random number of them; on reopen, every event
 * it reported accepted is processed, none twice.
 */
class CaptureCrashTest {

  private static final int KILLS = 6;
  private static final Pattern TOKEN = Pattern.compile("crz[a-j]+");

  @TempDir Path dir;

  static String token(int n) {
    StringBuilder sb = new StringBuilder("crz");
    for (char c : Integer.toString(n).toCharArray()) {
      sb.append((char) ('a' + (c - '0')));
    }
    return sb.toString();
  }

  @Test
  void everyAcceptedEvent_isProcessedAfterASigkill() throws Exception {
    long seed = Seeds.seed();
    Random random = new Random(seed);
    Set<String> acknowledged = new HashSet<>();
    int next = 0;
    for (int kill = 0; kill < KILLS; kill++) {
      int stopAfter = 1 + random.nextInt(kill % 2 == 0 ? 50 : 3_000);
      next = runAndKill(next, stopAfter, acknowledged, seed);
      try (MemoryService memory = open()) {
        flush(memory);
        Set<String> stored = new HashSet<>();
        for (Memory m : observations(memory)) {
          Matcher t = TOKEN.matcher(m.content());
          assertTrue(t.find(), m.content());
          assertTrue(
              stored.add(t.group()), "stored twice: " + t.group() + " " + Seeds.replay(seed));
        }
        Set<String> lost = new HashSet<>(acknowledged);
        lost.removeAll(stored);
        assertEquals(Set.of(), lost, "accepted and lost after kill " + kill + Seeds.replay(seed));
      }
    }
  }

  private MemoryService open() {
    return Memhook.builder().directory(dir).embedder(HashingEmbedder.create()).build();
  }

  /** Runs the child until it reported {@code stopAfter} accepted events, then SIGKILLs it. */
  private int runAndKill(int first, int stopAfter, Set<String> acknowledged, long seed)
      throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(CaptureCrashChild.class.getName());
    command.add(dir.toString());
    command.add(Integer.toString(first));
    Path errors = Files.createTempFile("capture-crash-child", ".err");
    Process child = new ProcessBuilder(command).redirectError(errors.toFile()).start();
    int last = first;
    int seen = 0;
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null) {
        if (line.startsWith("A ")) {
          int n = Integer.parseInt(line.substring(2));
          acknowledged.add(token(n));
          last = n;
          if (++seen >= stopAfter) {
            break;
          }
        }
      }
      child.destroyForcibly();
      assertTrue(child.waitFor(30, TimeUnit.SECONDS), "child did not die");
      if (seen < stopAfter) {
        String err = Files.readString(errors);
        throw new AssertionError("child stopped early: " + err + Seeds.replay(seed));
      }
    }
    Files.deleteIfExists(errors);
    return last + 1;
  }
}
