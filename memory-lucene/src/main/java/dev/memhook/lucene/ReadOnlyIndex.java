package dev.memhook.lucene;

import java.io.EOFException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.StandardDirectoryReader;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.NoLockFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens an index for reading only: a reader on its last commit, no writer and no lock, so it works
 * on a read-only directory and beside a writer in another process.
 *
 * <h2>Design note</h2>
 *
 * A read-only open is how a damaged index is rescued, so it salvages what it can: if the whole
 * commit does not open or does not match its checksums (a segment file truncated or corrupt; every
 * file is read once to check them, see {@link #checkIntegrity}), it opens each segment on its own
 * and keeps those that open and match, logging each one it leaves out and counting its documents as
 * unreadable ({@link UnreadableRecords#skippedSegment}). Only a commit that cannot be read at all
 * (its {@code segments_N} file damaged) fails the open. A segment is kept or left out whole: a
 * segment whose postings or doc values are damaged would lose memories from searches and lookups
 * without a trace, so what is kept is only what matches its checksums.
 *
 * <p>Stateless.
 */
final class ReadOnlyIndex {
  private static final Logger LOG = LoggerFactory.getLogger(ReadOnlyIndex.class);

  private ReadOnlyIndex() {}

  /** The directory at {@code path}, opened without a lock factory: nothing will lock it. */
  static Directory directory(Path path) throws IOException {
    return FSDirectory.open(path, NoLockFactory.INSTANCE);
  }

  /**
   * A reader on the last commit of {@code dir}, or on its readable segments if some are damaged.
   *
   * @throws IOException if the commit cannot be read at all
   */
  static DirectoryReader open(Directory dir, String location, UnreadableRecords unreadable)
      throws IOException {
    try {
      DirectoryReader reader = DirectoryReader.open(dir);
      try {
        checkIntegrity(reader);
        return reader;
      } catch (IOException | RuntimeException e) {
        reader.close();
        throw e;
      }
    } catch (CorruptIndexException | EOFException | NoSuchFileException e) {
      LOG.warn("the {} is damaged ({}); opening its readable segments", location, e.toString());
    }
    SegmentInfos commit = SegmentInfos.readLatestCommit(dir);
    List<SegmentCommitInfo> readable = new ArrayList<>();
    for (SegmentCommitInfo segment : commit) {
      SegmentInfos one = commit.clone();
      one.clear();
      one.add(segment.clone());
      try (DirectoryReader reader = StandardDirectoryReader.open(dir, one, null, null, null)) {
        checkIntegrity(reader);
        readable.add(segment);
      } catch (IOException | RuntimeException e) {
        int documents = segment.info.maxDoc() - segment.getDelCount();
        unreadable.skippedSegment(segment.info.name, documents, e);
      }
    }
    SegmentInfos salvaged = commit.clone();
    salvaged.clear();
    readable.forEach(s -> salvaged.add(s.clone()));
    return StandardDirectoryReader.open(dir, salvaged, null, null, null);
  }

  /**
   * Reads every file of {@code reader}'s segments once and checks its checksum.
   *
   * @throws CorruptIndexException if a file does not match its checksum
   * @throws IOException if a file cannot be read
   */
  static void checkIntegrity(IndexReader reader) throws IOException {
    for (LeafReaderContext leaf : reader.leaves()) {
      leaf.reader().checkIntegrity();
    }
  }
}
