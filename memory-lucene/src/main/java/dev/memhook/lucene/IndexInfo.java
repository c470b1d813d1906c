package dev.memhook.lucene;

import dev.memhook.api.MemoryStoreException;
import dev.memhook.api.spi.EmbeddingSpace;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexNotFoundException;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.StandardDirectoryReader;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.Lock;
import org.apache.lucene.store.LockObtainFailedException;
import org.apache.lucene.store.NIOFSDirectory;
import org.apache.lucene.store.NativeFSLockFactory;
import org.apache.lucene.store.NoLockFactory;

/**
 * What the last commit of a {@link LuceneMemoryStore} directory says about itself, read without
 * opening a store: for operators' tools (statistics, a health check), beside a store that another
 * process may hold open.
 *
 * <p>An immutable value; thread-safe. {@code format} and {@code space} are null when the index
 * records none (an index created before formats were recorded, or one no embedder was attached to
 * yet); the counts are at least 0.
 *
 * @param format the index format the commit records, or null; this Memhook reads {@link
 *     LuceneMemoryStore#INDEX_FORMAT}
 * @param space the embedding space of the vectors the index holds, or null if none is recorded
 * @param segments the number of segments of the commit
 * @param documents the live documents of the commit: every version of every memory, and one audit
 *     document per forgotten memory
 * @param sizeBytes the total size of the commit's files
 * @param writeLocked whether a writer (a store opened for writing, in this or another process)
 *     holds the directory's index lock
 */
public record IndexInfo(
    String format,
    EmbeddingSpace space,
    int segments,
    long documents,
    long sizeBytes,
    boolean writeLocked) {

  /** Checks the counts. */
  public IndexInfo {
    if (segments < 0 || documents < 0 || sizeBytes < 0) {
      throw new IllegalArgumentException(
          "counts must be >= 0, got segments "
              + segments
              + ", documents "
              + documents
              + ", size "
              + sizeBytes);
    }
  }

  /** Whether this Memhook reads the recorded format (an index that records none is read too). */
  public boolean formatSupported() {
    return format == null || IndexSchema.FORMAT.equals(format);
  }

  /**
   * Reads the last commit of the index in {@code directory}. It takes no lock and writes nothing,
   * except that telling whether a writer holds the index lock means trying to take it for a moment
   * (and releasing it at once): a writer opening in that moment fails to open and can retry.
   *
   * @throws MemoryStoreException if the directory holds no index, or its commit cannot be read (the
   *     message says what to do)
   */
  public static IndexInfo read(Path directory) {
    Objects.requireNonNull(directory, "directory");
    if (!Files.isDirectory(directory)) {
      throw new MemoryStoreException(
          "no store at " + directory + ": the directory does not exist; check the path");
    }
    try (Directory dir = FSDirectory.open(directory, NativeFSLockFactory.INSTANCE)) {
      // A writer beside this reader may commit, and delete the files of the commit just read,
      // between reading the commit and measuring its files. Lucene's FindSegmentsFile retries the
      // body on an I/O error when a newer commit has appeared meanwhile, as its readers do.
      Measured measured;
      try {
        measured =
            new SegmentInfos.FindSegmentsFile<Measured>(dir) {
              @Override
              protected Measured doBody(String segmentsFile) throws IOException {
                SegmentInfos infos = SegmentInfos.readCommit(dir, segmentsFile);
                long live = 0;
                long bytes = dir.fileLength(segmentsFile);
                for (SegmentCommitInfo segment : infos) {
                  live += segment.info.maxDoc() - segment.getDelCount() - segment.getSoftDelCount();
                  bytes += segment.sizeInBytes();
                }
                return new Measured(infos, live, bytes);
              }
            }.run();
      } catch (IndexNotFoundException e) {
        throw new MemoryStoreException(
            "no index in " + directory + ": nothing was ever stored there; check the path", e);
      }
      SegmentInfos commit = measured.commit();
      long documents = measured.documents();
      long size = measured.bytes();
      Map<String, String> userData = commit.getUserData();
      String model = userData.get(IndexMetadata.USER_DATA_MODEL);
      String dimension = userData.get(IndexMetadata.USER_DATA_DIMENSION);
      EmbeddingSpace space =
          model == null || dimension == null
              ? null
              : new EmbeddingSpace(model, Integer.parseInt(dimension));
      return new IndexInfo(
          userData.get(IndexMetadata.USER_DATA_FORMAT),
          space,
          commit.size(),
          documents,
          size,
          writeLocked(dir));
    } catch (IOException | RuntimeException e) {
      if (e instanceof MemoryStoreException m) {
        throw m;
      }
      throw new MemoryStoreException(
          "the index in "
              + directory
              + " cannot be read ("
              + e
              + "); open it read-only to export what is readable, then import that into a new"
              + " directory",
          e);
    }
  }

  /**
   * Reads every file of the last commit of the index in {@code directory} once and checks its
   * checksum, without a lock, and says which segments fail: empty for a sound index. Takes time
   * proportional to the index's size.
   *
   * @return a description of each damaged segment, naming it and what is wrong
   * @throws MemoryStoreException if the commit itself cannot be read
   */
  public static List<String> damagedSegments(Path directory) {
    Objects.requireNonNull(directory, "directory");
    List<String> damaged = new ArrayList<>();
    try (Directory dir = new NIOFSDirectory(directory, NoLockFactory.INSTANCE)) {
      SegmentInfos commit = SegmentInfos.readLatestCommit(dir);
      for (SegmentCommitInfo segment : commit) {
        SegmentInfos one = commit.clone();
        one.clear();
        one.add(segment.clone());
        try (DirectoryReader reader = StandardDirectoryReader.open(dir, one, null, null, null)) {
          for (LeafReaderContext leaf : reader.leaves()) {
            leaf.reader().checkIntegrity();
          }
        } catch (IOException | RuntimeException e) {
          damaged.add("segment " + segment.info.name + ": " + e.getMessage());
        }
      }
      return List.copyOf(damaged);
    } catch (IOException e) {
      throw new MemoryStoreException(
          "the commit of the index in "
              + directory
              + " cannot be read ("
              + e
              + "); the index cannot be rescued by a read-only open: restore a backup or an export",
          e);
    }
  }

  private static boolean writeLocked(Directory dir) {
    try {
      Lock lock = dir.obtainLock(IndexWriter.WRITE_LOCK_NAME);
      lock.close();
      return false;
    } catch (LockObtainFailedException e) {
      return true;
    } catch (IOException e) {
      // the lock file cannot be made (a read-only directory): no writer can hold it either
      return false;
    }
  }

  /** One commit as read, with its live documents and the bytes of its files. */
  private record Measured(SegmentInfos commit, long documents, long bytes) {}
}
