package dev.memhook.core.internal.journal;

import static java.nio.file.StandardOpenOption.READ;
import static java.nio.file.StandardOpenOption.WRITE;

import java.io.IOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Forcing journal files to the disk through channels of their own, never the appenders' channel: an
 * interrupt of the syncing thread then closes only its own channel, and the force is simply tried
 * again. Stateless.
 */
final class Fsync {
  private static final Logger LOG = LoggerFactory.getLogger(Fsync.class);

  private static final boolean WINDOWS =
      System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");

  /** Tries before an interrupt storm fails a force. */
  private static final int MAX_ATTEMPTS = 3;

  private Fsync() {}

  /**
   * Forces {@code file}'s data (and the length needed to read it) to the disk and returns whether
   * an interrupt arrived meanwhile; the interrupt flag is then cleared and the caller restores it.
   *
   * @param mayBeDeleted whether a missing file is fine (a retired segment deleted as applied)
   */
  static boolean file(Path file, boolean mayBeDeleted) throws IOException {
    boolean interrupted = false;
    for (int attempt = 1; ; attempt++) {
      try (FileChannel channel = FileChannel.open(file, WRITE)) {
        channel.force(false);
        return interrupted;
      } catch (ClosedByInterruptException e) {
        interrupted |= Thread.interrupted();
        if (attempt == MAX_ATTEMPTS) {
          throw e;
        }
      } catch (NoSuchFileException e) {
        if (mayBeDeleted) {
          return interrupted;
        }
        throw e;
      }
    }
  }

  /**
   * Makes the names of files created in {@code directory} durable. Windows cannot open a directory
   * for this, and elsewhere a failure is only logged, as Lucene does: the data itself is forced.
   */
  static void directory(Path directory) {
    if (WINDOWS) {
      return;
    }
    try (FileChannel channel = FileChannel.open(directory, READ)) {
      channel.force(true);
    } catch (IOException e) {
      LOG.debug("Could not force the journal directory {}", directory, e);
    }
  }
}
