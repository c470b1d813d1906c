package dev.memhook.core.durability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.testkit.Seeds;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write that returned survives a SIGKILL of the JVM, and no write is half applied: a child JVM
 * remembers, updates, imports batches and forgets from two threads, acknowledging each write on
 * standard output, and is killed at a random moment; the parent then reopens the directory and
 * checks every acknowledged write, and that the store holds no batch in part and no memory with two
 * latest versions. The service checkpoints (commits the index) every second and at once on a
 * forget, so over a dozen kills at random times some land inside an append, some inside a commit
 * and some inside a replay of the previous kill's log. Every run draws new kill times; {@code
 * -Dmemhook.crashKills=N} runs more kills in one run, for a longer search.
 */
class WriteCrashTest {

  private static final int KILLS = Integer.getInteger("memhook.crashKills", 12);

  /** Kills at a random moment of the child's start rather than of its writing. */
  private static final int EARLY_KILLS = 3;

  /** Writes the child's main thread acknowledges before a later kill's clock starts. */
  private static final int MIN_MAIN_WRITES = 10;

  @TempDir Path dir;

  /** What the children acknowledged, across kills. */
  private final Map<String, String> remembered = new HashMap<>(); // id -> token

  private final Map<String, String> superseded = new HashMap<>(); // previous id -> next id
  private final Set<String> forgotten = new HashSet<>();

  /** Ids a child was about to forget when it was killed: gone or not. */
  private final Set<String> mayBeForgotten = new HashSet<>();

  @Test
  void everyAcknowledgedWrite_survivesASigkill_andNoneIsHalfApplied() throws Exception {
    long seed = Seeds.seed();
    Random random = new Random(seed);
    for (int kill = 0; kill < KILLS; kill++) {
      // the first kills come at a random moment of the child's start: opening, replaying the
      // previous kill's log, or its first writes; the others once it is writing
      boolean early = kill < EARLY_KILLS;
      long killAfterMillis = early ? 300 + random.nextInt(2_500) : random.nextInt(2_000);
      int lines = runAndKill(random.nextLong(), "k" + kill + "x", early, killAfterMillis, seed);
      try (MemoryService memory = open()) {
        check(memory, "after kill " + kill + " (" + lines + " acknowledged)" + Seeds.replay(seed));
      }
    }
    assertFalse(acknowledgedBatches.isEmpty(), "no batch was acknowledged");
    assertFalse(forgotten.isEmpty(), "no forget was acknowledged");
  }

  private MemoryService open() {
    return Memhook.builder().directory(dir).embedder(HashingEmbedder.create()).build();
  }

  private void check(MemoryService memory, String when) {
    Map<String, Memory> all = new HashMap<>();
    Map<String, Integer> latestOf = new HashMap<>();
    memory.maintenance().export(m -> all.put(m.id().value(), m));
    for (Map.Entry<String, String> r : remembered.entrySet()) {
      if (forgotten.contains(r.getKey()) || mayBeForgotten.contains(r.getKey())) {
        continue;
      }
      Memory m = all.get(r.getKey());
      assertTrue(m != null, "acknowledged and lost: " + r.getKey() + " " + when);
      assertTrue(m.content().contains(r.getValue()), m.content() + " " + when);
    }
    for (Map.Entry<String, String> u : superseded.entrySet()) {
      if (forgotten.contains(u.getKey()) || mayBeForgotten.contains(u.getKey())) {
        continue;
      }
      Memory previous = all.get(u.getKey());
      assertTrue(previous != null, "superseded version lost: " + u.getKey() + " " + when);
      assertFalse(previous.latest(), "still latest after an acknowledged update " + when);
    }
    for (String id : forgotten) {
      assertEquals(
          Optional.empty(), memory.get(MemoryId.of(id)), "forgotten and back: " + id + when);
    }
    for (Memory m : all.values()) {
      if (m.supersedes() != null && m.latest()) {
        latestOf.merge(m.supersedes().value(), 1, Integer::sum);
        Memory previous = all.get(m.supersedes().value());
        assertTrue(
            previous == null || !previous.latest(),
            "two latest versions: " + m.supersedes() + " and " + m.id() + " " + when);
      }
      if (m.supersedes() != null) {
        // also of updates never acknowledged: a later child may forget their versions
        previousOf.put(m.id().value(), m.supersedes().value());
      }
      if (m.version() == 1 && m.attributes().containsKey("batch")) {
        batchOf.put(m.id().value(), m.attributes().get("batch"));
      }
    }
    for (Map.Entry<String, Integer> b : batchSizes.entrySet()) {
      long present =
          all.values().stream()
              .filter(m -> m.version() == 1 && b.getKey().equals(m.attributes().get("batch")))
              .count();
      long gone =
          batchOf.entrySet().stream()
              .filter(e -> e.getValue().equals(b.getKey()) && !all.containsKey(e.getKey()))
              .filter(e -> forgotten.contains(e.getKey()) || mayBeForgotten.contains(e.getKey()))
              .count();
      long total = present + gone;
      if (acknowledgedBatches.contains(b.getKey())) {
        assertEquals(b.getValue().longValue(), total, "acknowledged batch " + b.getKey() + when);
      } else {
        assertTrue(
            total == 0 || total == b.getValue(),
            "a batch in part: " + b.getKey() + " has " + total + " of " + b.getValue() + when);
      }
    }
    latestOf.forEach((id, n) -> assertEquals(1, n, "two new versions of " + id + " " + when));
  }

  /** Each batch member's key, once seen; for the forgets of batch members. */
  private final Map<String, String> batchOf = new HashMap<>();

  /** Batch sizes as the child announced them before importing (acknowledged or not). */
  private final Map<String, Integer> batchSizes = new HashMap<>();

  private final Set<String> acknowledgedBatches = new HashSet<>();

  /** Next id to previous id, to forget the versions a forget erases with the latest. */
  private final Map<String, String> previousOf = new HashMap<>();

  /**
   * Runs a child and SIGKILLs it: {@code early}, {@code killAfterMillis} after it started, whatever
   * it is doing (opening, replaying, writing); otherwise {@code killAfterMillis} after its main
   * thread acknowledged {@value #MIN_MAIN_WRITES} writes, so that every round writes something
   * however slow the machine is.
   *
   * @return how many writes the child acknowledged
   */
  private int runAndKill(long childSeed, String run, boolean early, long killAfterMillis, long seed)
      throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(WriteCrashChild.class.getName());
    command.add(dir.toString());
    command.add(Long.toString(childSeed));
    command.add(run);
    Path errors = Files.createTempFile("write-crash-child", ".err");
    Process child = new ProcessBuilder(command).redirectError(errors.toFile()).start();
    AtomicBoolean killed = new AtomicBoolean();
    if (early) {
      CompletableFuture.delayedExecutor(killAfterMillis, TimeUnit.MILLISECONDS)
          .execute(
              () -> {
                killed.set(true);
                child.destroyForcibly();
              });
    }
    int acknowledged = 0;
    int mainWrites = 0;
    long deadline = Long.MAX_VALUE;
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = nextLine(out, killed)) != null) {
        if (line.equals("READY")) {
          continue;
        }
        record(line);
        acknowledged += Character.isUpperCase(line.charAt(0)) ? 1 : 0;
        if (!line.startsWith("R ") || line.contains(" " + run + "m")) {
          mainWrites++;
        }
        if (!early && deadline == Long.MAX_VALUE && mainWrites >= MIN_MAIN_WRITES) {
          deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(killAfterMillis);
        }
        if (System.nanoTime() >= deadline) {
          killed.set(true);
          break;
        }
      }
      child.destroyForcibly();
      assertTrue(child.waitFor(30, TimeUnit.SECONDS), "child did not die");
      if (!killed.get()) {
        throw new AssertionError(
            "child stopped by itself: " + Files.readString(errors) + Seeds.replay(seed));
      }
    } finally {
      child.destroyForcibly();
      Files.deleteIfExists(errors);
    }
    return acknowledged;
  }

  /**
   * The child's next line, or null at its end; a watchdog's kill may close the stream under the
   * read, which ends it too.
   */
  private static String nextLine(BufferedReader out, AtomicBoolean killed) throws IOException {
    try {
      return out.readLine();
    } catch (IOException e) {
      if (killed.get()) {
        return null;
      }
      throw e;
    }
  }

  private void record(String line) {
    String[] f = line.split(" ");
    switch (f[0]) {
      case "R" -> remembered.put(f[1], f[2]);
      case "U" -> {
        superseded.put(f[1], f[2]);
        previousOf.put(f[2], f[1]);
        remembered.put(f[2], f[3]);
      }
      case "b" -> batchSizes.put(f[1], Integer.parseInt(f[2]));
      case "B" -> acknowledgedBatches.add(f[1]);
      case "f", "F" -> {
        // a forget erases every version the forgotten one supersedes; one that was not
        // acknowledged may or may not have happened
        Set<String> into = f[0].equals("F") ? forgotten : mayBeForgotten;
        String first = f[1];
        for (String id = f[1]; id != null; id = previousOf.get(id)) {
          into.add(id);
          first = id;
        }
        if (!f[2].equals("-")) {
          batchOf.put(first, f[2]);
        }
      }
      default -> throw new AssertionError("unexpected line from the child: " + line);
    }
  }
}
