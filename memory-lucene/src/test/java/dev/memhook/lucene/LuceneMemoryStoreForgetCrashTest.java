package dev.memhook.lucene;

import static dev.memhook.lucene.LuceneStoreFixtures.A;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.memhook.api.MemoryId;
import dev.memhook.testkit.Seeds;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Forget erases even if the process dies right after {@code delete} returned, before the purge, in
 * either commit mode: a child JVM ({@link ForgetThenHang}, the default ten-minute purge delay)
 * forgets a memory and is killed (SIGKILL) as soon as it says so; no file of its index holds the
 * memory's record readably, and once the index is reopened the purge the child owed runs by itself
 * and leaves no file holding anything of it. Under group commit the forget commits whatever the
 * policy, and with it the writes pending before it, as {@code LuceneMemoryStore#delete} documents.
 */
class LuceneMemoryStoreForgetCrashTest {
  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(ForgetThenHang.CommitMode.class)
  void aForgetThatReturned_leavesNoTrace_afterTheProcessIsKilled(ForgetThenHang.CommitMode mode)
      throws Exception {
    long seed = Seeds.seed();
    String token = IndexFiles.uniqueToken(new Random(seed));
    Path index = dir.resolve("index");
    Path stderr = dir.resolve("child.err");
    Process child =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                ForgetThenHang.class.getName(),
                index.toString(),
                token,
                Long.toString(seed),
                mode.name())
            .redirectError(stderr.toFile())
            .start();
    try (BufferedReader out =
            new BufferedReader(
                new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        OutputStream in = child.getOutputStream()) {
      awaitLine(out, ForgetThenHang.STORED, stderr);
      assertFalse(
          IndexFiles.filesContaining(index, token).isEmpty(),
          "the record is on disk before the forget; " + Seeds.replay(seed));
      assertFalse(
          IndexFiles.termsContaining(index, IndexFiles.termPrefix(token)).isEmpty(),
          "the terms are on disk before the forget; " + Seeds.replay(seed));
      in.write("forget\n".getBytes(StandardCharsets.UTF_8));
      in.flush();
      awaitLine(out, ForgetThenHang.FORGOTTEN, stderr);
      child.destroyForcibly();
      assertTrue(child.waitFor(30, TimeUnit.SECONDS), "the child died");
    } finally {
      child.destroyForcibly();
    }

    // killed between the forget and its purge: the record is unreadable, the purge is pending
    LuceneMemoryStoreForgetErasesTest.assertNoReadableRecord(index, token, seed);
    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder()
            .directory(index)
            .purgeDelay(Duration.ofMillis(200))
            .idleMerge(Duration.ZERO)
            .build()) {
      assertTrue(store.get(MemoryId.of("secret")).isEmpty(), "the forget is durable");
      assertEquals(
          30,
          store.count(A),
          "the other memories are durable, pending ones by the forget's commit");
      assertEquals(1, store.forgotten(A).size(), "the audit record is durable");
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      // the purge commits, then refreshes the searchers, which deletes the old files: wait for both
      while ((!IndexFiles.termsContaining(index, IndexFiles.termPrefix(token)).isEmpty()
              || !IndexFiles.filesContaining(index, token).isEmpty())
          && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      // the purge the killed process owed ran after reopening, by itself
      assertEquals(List.of(), IndexFiles.filesContaining(index, token), "files after the purge");
      assertEquals(
          new TreeSet<String>(),
          IndexFiles.termsContaining(index, IndexFiles.termPrefix(token)),
          "terms after the purge; " + Seeds.replay(seed));
      LuceneMemoryStoreForgetErasesTest.assertNoReadableRecord(index, token, seed);
      assertTrue(store.get(MemoryId.of("secret")).isEmpty(), "nothing forgotten comes back");
      assertEquals(30, store.count(A));
    }
    assertEquals(List.of(), IndexFiles.filesContaining(index, token), "files after closing");
  }

  /** Reads lines until {@code expected}; fails with the child's stderr if it ends first. */
  private static void awaitLine(BufferedReader out, String expected, Path stderr)
      throws IOException {
    for (String line = out.readLine(); line != null; line = out.readLine()) {
      if (line.equals(expected)) {
        return;
      }
    }
    fail("the child ended before printing " + expected + ":\n" + Files.readString(stderr));
  }
}
