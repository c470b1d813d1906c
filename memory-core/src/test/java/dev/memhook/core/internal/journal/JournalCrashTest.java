package dev.memhook.core.internal.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.memhook.testkit.Seeds;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The journal's promise under SIGKILL: a child JVM ({@link CrashingAppender}) appends and
 * acknowledges records until it is killed at a random moment; the reopened journal must replay
 * every acknowledged record above its checkpoint, intact, and nothing torn. The same directory goes
 * through every round, so each child also recovers from the previous kill.
 */
class JournalCrashTest {

  private static final int KILLS = 24;

  /** Small, so that the children rotate and delete segments. */
  private static final long SEGMENT_BYTES = 16 << 10;

  @TempDir Path dir;

  @Test
  void everyAcknowledgedRecord_survivesAKill_atARandomMoment() throws Exception {
    long seed = Seeds.seed();
    System.out.println("JournalCrashTest " + Seeds.replay(seed));
    SplittableRandom random = new SplittableRandom(seed);
    Path journalDir = dir.resolve("journal");
    Path childErrors = dir.resolve("child-stderr.log");
    long acknowledged = 0;
    for (int round = 1; round <= KILLS; round++) {
      String context = "round " + round + ", " + Seeds.replay(seed);
      Process child = start(journalDir, random.nextLong(), childErrors);
      Acks acks = new Acks(child.getInputStream());
      int waitFor = random.nextInt(6) == 0 ? 0 : random.nextInt(1, 1_500);
      while (acks.count < waitFor) {
        if (!acks.readLine()) {
          fail("the child ended early (" + context + "): " + Files.readString(childErrors));
        }
      }
      // SIGKILL through the handle: Process.destroyForcibly() would also close our end of the
      // pipe and lose the acknowledgements still in it.
      child.toHandle().destroyForcibly();
      assertTrue(child.waitFor(30, TimeUnit.SECONDS), "the killed child exited; " + context);
      while (acks.readLine()) {
        // acknowledgements still in the pipe count: they were printed after append returned
      }
      acknowledged = Math.max(acknowledged, acks.last);

      try (Journal journal = Journal.open(journalDir, SEGMENT_BYTES)) {
        long applied = journal.appliedThrough();
        long last = journal.lastSequence();
        assertEquals(0, journal.damagedRecords(), context);
        assertTrue(last >= acknowledged, "lost acknowledged " + acknowledged + "; " + context);
        assertTrue(last <= acknowledged + 1, "one unacknowledged append at most; " + context);
        List<Journal.Entry> entries = JournalFiles.replayed(journal);
        List<Long> expected = new ArrayList<>();
        for (long seq = applied + 1; seq <= last; seq++) {
          expected.add(seq);
        }
        assertEquals(expected, JournalFiles.seqs(entries), context);
        for (Journal.Entry entry : entries) {
          assertEquals(CrashingAppender.kindFor(entry.seq()), entry.kind(), context);
          assertArrayEquals(
              CrashingAppender.payloadFor(entry.seq()),
              entry.payload(),
              "record " + entry.seq() + ", " + context);
        }
        long next = last + 1;
        assertEquals(
            next,
            journal.append(CrashingAppender.kindFor(next), CrashingAppender.payloadFor(next)),
            context);
        acknowledged = next;
      }
    }
  }

  private static Process start(Path journalDir, long childSeed, Path errors) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return new ProcessBuilder(
            java,
            "-Xmx128m",
            "-XX:TieredStopAtLevel=1",
            "-Xshare:auto",
            "-cp",
            System.getProperty("java.class.path"),
            CrashingAppender.class.getName(),
            journalDir.toString(),
            Long.toString(SEGMENT_BYTES),
            Long.toString(childSeed))
        .redirectError(ProcessBuilder.Redirect.appendTo(errors.toFile()))
        .start();
  }

  /** Reads the child's {@code ack <seq>} lines; a line cut off by the kill does not count. */
  private static final class Acks {
    private final InputStream in;
    private final StringBuilder line = new StringBuilder();
    int count;
    long last;

    Acks(InputStream in) {
      this.in = in;
    }

    /** Reads one whole line; false at the end of the output. */
    boolean readLine() throws IOException {
      line.setLength(0);
      for (int b = in.read(); b >= 0; b = in.read()) {
        if (b == '\n') {
          String text = line.toString();
          if (text.startsWith("ack ")) {
            long seq = Long.parseLong(text.substring(4));
            if (seq != last + 1 && last != 0) {
              throw new AssertionError("acknowledged " + seq + " after " + last);
            }
            last = seq;
            count++;
          }
          return true;
        }
        line.append((char) b);
      }
      return false;
    }
  }
}
