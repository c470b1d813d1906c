package dev.memhook.core.internal.journal;

import java.io.BufferedOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * The child process of {@link JournalCrashTest}: opens the journal, then appends records forever,
 * printing {@code ack <seq>} after each append returns, until the parent kills it. Records are
 * {@link #kindFor} and {@link #payloadFor} their sequence number, so the parent can check them.
 *
 * <p>Arguments: the journal directory, the segment size, a seed for when to mark records applied.
 */
final class CrashingAppender {

  private CrashingAppender() {}

  public static void main(String[] args) {
    Path directory = Path.of(args[0]);
    long segmentBytes = Long.parseLong(args[1]);
    SplittableRandom random = new SplittableRandom(Long.parseLong(args[2]));
    PrintStream out =
        new PrintStream(new BufferedOutputStream(System.out), false, StandardCharsets.US_ASCII);
    Journal journal = Journal.open(directory, segmentBytes);
    out.println("open " + journal.lastSequence() + " " + journal.appliedThrough());
    out.flush();
    while (true) {
      long seq = journal.lastSequence() + 1;
      long appended = journal.append(kindFor(seq), payloadFor(seq));
      if (appended != seq) {
        throw new AssertionError("expected sequence " + seq + ", got " + appended);
      }
      out.println("ack " + seq);
      out.flush();
      if (random.nextInt(40) == 0) {
        long applied = seq - random.nextInt(200);
        if (applied > journal.appliedThrough()) {
          journal.markApplied(applied);
        }
      }
      if (random.nextInt(100) == 0) {
        journal.sync();
      }
    }
  }

  static byte kindFor(long seq) {
    return (byte) (seq % 7);
  }

  /** Mostly small payloads, one in eight of several KiB, all derived from {@code seq}. */
  static byte[] payloadFor(long seq) {
    SplittableRandom random = new SplittableRandom(seq * 0x9E3779B97F4A7C15L);
    int length = random.nextInt(8) == 0 ? random.nextInt(3_000, 9_000) : random.nextInt(0, 700);
    byte[] payload = new byte[length];
    random.nextBytes(payload);
    return payload;
  }
}
