package dev.memhook.core.internal.journal;

import static java.nio.file.StandardOpenOption.CREATE;
import static java.nio.file.StandardOpenOption.WRITE;

import dev.memhook.api.MemoryStoreException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The exclusive hold of one journal directory: an OS file lock on {@code journal.lock}, so that one
 * service (in any process) writes the journal. Released by {@link #close()}, which is idempotent.
 * Thread-safe.
 */
final class DirectoryLock {

  static final String FILE_NAME = "journal.lock";

  /**
   * The directories held in this JVM. A POSIX record lock belongs to the process, and closing any
   * descriptor of the lock file drops it, so a second open in the same JVM must not even open the
   * lock file: it is refused here first. This mirrors the process's own lock table; it is not
   * configuration, and two services in one JVM only meet here if they share a directory.
   */
  private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();

  private final Path directory;
  private final FileChannel channel;
  private boolean released;

  private DirectoryLock(Path directory, FileChannel channel) {
    this.directory = directory;
    this.channel = channel;
  }

  /**
   * Locks {@code directory}, a real path, at once or not at all.
   *
   * @throws MemoryStoreException if another journal holds it, or the lock file cannot be opened
   */
  static DirectoryLock acquire(Path directory) {
    if (!HELD.add(directory)) {
      throw heldElsewhere(directory);
    }
    FileChannel channel = null;
    try {
      channel = FileChannel.open(directory.resolve(FILE_NAME), CREATE, WRITE);
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null;
      }
      if (lock == null) {
        throw heldElsewhere(directory);
      }
      return new DirectoryLock(directory, channel);
    } catch (IOException e) {
      undo(directory, channel, e);
      throw new MemoryStoreException(
          "could not lock the journal directory "
              + directory
              + " ("
              + e
              + "); check that it is writable and retry",
          e);
    } catch (RuntimeException | Error e) {
      undo(directory, channel, e);
      throw e;
    }
  }

  private static void undo(Path directory, FileChannel channel, Throwable failure) {
    try {
      if (channel != null) {
        channel.close();
      }
    } catch (IOException suppressed) {
      failure.addSuppressed(suppressed);
    } finally {
      HELD.remove(directory);
    }
  }

  private static MemoryStoreException heldElsewhere(Path directory) {
    return new MemoryStoreException(
        "the journal directory "
            + directory
            + " is locked ("
            + FILE_NAME
            + "): another service holds it, in this JVM or another process; close that service"
            + " first or give this one another directory");
  }

  /** Releases the lock; closing the channel drops the OS lock. Idempotent. */
  synchronized void close() throws IOException {
    if (released) {
      return;
    }
    released = true;
    try {
      channel.close();
    } finally {
      HELD.remove(directory);
    }
  }
}
