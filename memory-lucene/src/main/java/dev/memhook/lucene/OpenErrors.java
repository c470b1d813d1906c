package dev.memhook.lucene;

import dev.memhook.api.MemoryStoreException;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.ReadOnlyFileSystemException;
import java.util.Locale;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexFileNames;
import org.apache.lucene.index.IndexFormatTooNewException;
import org.apache.lucene.index.IndexFormatTooOldException;
import org.apache.lucene.index.IndexNotFoundException;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.LockObtainFailedException;

/**
 * What opening an index says when it fails: what is wrong and what to do, one message per cause (a
 * path that is a file, a directory this process may not write, a read-only file system, a damaged
 * index, a lock held elsewhere), rather than one message that lists every possibility.
 *
 * <p>Stateless.
 */
final class OpenErrors {
  private OpenErrors() {}

  /**
   * Checks {@code path} before anything is opened: it must not be a file; read-only, it must be a
   * directory; otherwise, if it exists, writable, and if not, it is created here. Lucene would
   * create it too, but a failure there reads like damage to an index ("no such file") or a full
   * disk, when the path is what is wrong: a parent that is a file, or one nobody may create.
   *
   * @throws MemoryStoreException saying what is wrong and what to do
   */
  static void checkPath(Path path, String location, boolean readOnly) {
    if (Files.exists(path) && !Files.isDirectory(path)) {
      throw new MemoryStoreException(
          "the index path "
              + path.toAbsolutePath()
              + " is a file, not a directory: pass the directory the index lives in (a new one is"
              + " created if absent), or move the file away");
    }
    if (readOnly && !Files.isDirectory(path)) {
      throw new MemoryStoreException(
          "there is no index at "
              + path.toAbsolutePath()
              + " to open read-only: the directory does not exist; check the path");
    }
    if (!readOnly && Files.isDirectory(path) && !Files.isWritable(path)) {
      throw notWritable(location, null, onReadOnlyFileStore(path));
    }
    if (!readOnly && !Files.exists(path)) {
      try {
        Files.createDirectories(path);
      } catch (IOException | SecurityException e) {
        throw new MemoryStoreException(
            "could not create the index directory "
                + path.toAbsolutePath()
                + " ("
                + e
                + "): check the path; its nearest existing parent must be a directory this"
                + " process may write",
            e);
      }
    }
  }

  /**
   * Refuses a directory that holds index files but no commit point: its {@code segments_N} file was
   * lost, so none of its memories can be found. Opened for writing, Lucene would start a new, empty
   * index there and delete those files. Every commit leaves a {@code segments_N} file behind, and a
   * new store commits before it writes a document, so only damage leaves segment files without one.
   *
   * @throws MemoryStoreException saying what is wrong and what to do
   * @throws IOException if the directory cannot be listed
   */
  static void checkCommit(Directory dir, String location) throws IOException {
    if (DirectoryReader.indexExists(dir)) {
      return;
    }
    for (String name : dir.listAll()) {
      if (IndexFileNames.CODEC_FILE_PATTERN.matcher(name).matches()) {
        throw new MemoryStoreException(
            "the "
                + location
                + " is damaged: it holds index files (such as "
                + name
                + ") but no commit point (a segments_N file), so none of its memories can be"
                + " found; restore the index from a backup, or move its files away to start a"
                + " new, empty index there");
      }
    }
  }

  /**
   * Whether Lucene itself threw {@code e} while decoding what it read (such as "Invalid vInt
   * detected" from a damaged terms index), rather than passing on a failure of the file system: the
   * data is malformed, and retrying cannot help. A disk error is thrown by the JDK's I/O, below
   * Lucene, or is a {@link FileSystemException}.
   */
  static boolean malformedData(IOException e) {
    StackTraceElement[] frames = e.getStackTrace();
    return !(e instanceof FileSystemException)
        && frames.length > 0
        && frames[0].getClassName().startsWith("org.apache.lucene.");
  }

  /** The error for {@code e}, thrown while opening the index {@code location}. */
  static MemoryStoreException of(IOException e, String location, boolean readOnly) {
    if (e instanceof LockObtainFailedException) {
      return new MemoryStoreException(
          "the "
              + location
              + " is locked (write.lock): another process or another"
              + " LuceneMemoryStore in this JVM has it open; close that store first or use another"
              + " directory (or open it with readOnly(), which takes no lock)",
          e);
    }
    if (e instanceof IndexNotFoundException && readOnly) {
      return new MemoryStoreException(
          "there is no index at the " + location + " to open read-only: " + e.getMessage(), e);
    }
    if (e instanceof CorruptIndexException
        || e instanceof IndexFormatTooOldException
        || e instanceof IndexFormatTooNewException
        || e instanceof EOFException
        || e instanceof NoSuchFileException
        || malformedData(e)) {
      return new MemoryStoreException(
          "the "
              + location
              + " is damaged ("
              + e.getMessage()
              + "); "
              + (readOnly
                  ? "no readable commit was found: restore the index from a backup"
                  : "open it with readOnly() to export the memories that are still readable, or"
                      + " restore it from a backup"),
          e);
    }
    if (e instanceof AccessDeniedException || isReadOnlyFileSystem(e)) {
      return notWritable(location, e, isReadOnlyFileSystem(e));
    }
    return new MemoryStoreException(
        "could not open the "
            + location
            + ": "
            + e
            + "; check that the disk is available and has free space, then retry",
        e);
  }

  /**
   * The error for a file system that refused a write with the unchecked {@link
   * ReadOnlyFileSystemException} while opening the index {@code location}, as NIO file systems
   * other than the default one do.
   */
  static MemoryStoreException of(ReadOnlyFileSystemException e, String location) {
    return notWritable(location, e, true);
  }

  /** Whether the file store holding {@code path} says it is read-only (a read-only mount). */
  private static boolean onReadOnlyFileStore(Path path) {
    try {
      return Files.getFileStore(path).isReadOnly();
    } catch (IOException e) {
      return false; // then the message for missing permission, which names the other remedy too
    }
  }

  /** Whether {@code e} is the JDK's report of {@code EROFS}: a read-only file system. */
  private static boolean isReadOnlyFileSystem(IOException e) {
    return e instanceof FileSystemException f
        && f.getReason() != null
        && f.getReason().toLowerCase(Locale.ROOT).contains("read-only");
  }

  private static MemoryStoreException notWritable(
      String location, Exception cause, boolean readOnlyFileSystem) {
    String because = cause == null ? "" : " (" + cause + ")";
    return new MemoryStoreException(
        readOnlyFileSystem
            ? "the "
                + location
                + " is read-only: it is on a read-only file system"
                + because
                + "; remount the file system read-write or move the index to a writable disk, or"
                + " open it with readOnly() to read and export it"
            : "the "
                + location
                + " is read-only for this process: it may not write the directory or its files"
                + because
                + "; give the user this process runs as write permission on them, or open it with"
                + " readOnly() to read and export it",
        cause);
  }
}
