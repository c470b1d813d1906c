package dev.memhook.lucene;

import dev.memhook.api.MemoryStoreException;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.ReadOnlyFileSystemException;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene104.Lucene104Codec;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An index as a store opens it: the directory, the writer configured for a memory store, what the
 * index records about itself, and the first searcher. {@link #open} opens them together or, if a
 * step fails, leaves none of them open (and the directory's lock released). A read-only index has
 * no writer ({@link ReadOnlyIndex}).
 *
 * <p>The writer's configuration trades more merging for fewer segments: every search visits every
 * segment (a term lookup per query term, an HNSW graph descent per vector search), and a memory
 * store is written a few memories at a time but searched far more often than written.
 *
 * @param directory the index directory; the store's {@link WritePath} closes it
 * @param writer the only writer of {@code directory}, locking it until the write path closes it;
 *     null if the index is open read-only
 * @param metadata the format, weights and space the index records
 * @param searchers the searchers over {@code writer}
 * @param idleMerges the merges of a quiet store, not started
 * @param purges the purges of forgotten memories' segments, not started
 * @param graphs the writer's choice of vector format: with a graph, or deferred for a bulk load
 */
record OpenIndex(
    Directory directory,
    IndexWriter writer,
    IndexMetadata metadata,
    FreshSearchers searchers,
    IdleMerges idleMerges,
    Purges purges,
    VectorGraphs graphs) {
  private static final Logger LOG = LoggerFactory.getLogger(OpenIndex.class);

  /** Segments allowed per tier by the {@link TieredMergePolicy}; Lucene's default is 10. */
  static final double SEGMENTS_PER_TIER = 4;

  /**
   * Segments smaller than this count as this size when the merge policy picks merges; Lucene's
   * default is 2 MB. Each commit (or refresh) flushes a small segment; a floor that many such
   * segments fit under merges them together early rather than letting them fill tiers of their own.
   */
  static final double FLOOR_SEGMENT_MB = 16;

  /**
   * Heap the writer may fill with added memories before it flushes a segment; Lucene's default is
   * 16 MB. Only a burst of writes with no read or commit between them (a large {@code putAll}, an
   * import with group commit) gets near it, and then larger flushes leave fewer segments to merge.
   */
  static final double RAM_BUFFER_MB = 64;

  /**
   * Opens the index {@code config} names, with {@code schema}'s analysis and similarity, checks
   * what it records, and reads every file of it once to check its checksum ({@link
   * FreshSearchers#checkIntegrity}): an index damaged anywhere fails to open for writing, and the
   * error says to open it read-only, which leaves out the damaged segments and counts them.
   *
   * @throws MemoryStoreException saying what is wrong and what to do ({@link OpenErrors}) if the
   *     path is a file, the directory is not writable (and not opened read-only), the index is
   *     damaged (also when it lost its commit point: see {@link OpenErrors#checkCommit}), or it is
   *     locked by another store
   * @throws dev.memhook.api.IncompatibleStoreException if the index has another format or weights
   */
  static OpenIndex open(
      LuceneStoreConfig config, IndexSchema schema, UnreadableRecords unreadable) {
    String location = config.location();
    Optional<Path> path = config.directory();
    path.ifPresent(p -> OpenErrors.checkPath(p, location, config.readOnly()));
    if (config.readOnly()) {
      // present: the builder lets readOnly() open only an index on disk
      return readOnly(path.orElseThrow(), location, unreadable);
    }
    Directory dir = null;
    IndexWriter writer = null;
    FreshSearchers searchers = null;
    try {
      dir = path.isPresent() ? FSDirectory.open(path.get()) : new ByteBuffersDirectory();
      OpenErrors.checkCommit(dir, location);
      // a bulk load's graph is deferred only if idle merges are on to build it
      StoreWorkers workers = new StoreWorkers(config.workers());
      VectorGraphs graphs =
          new VectorGraphs(
              workers,
              workers.format(
                  config.hnswMaxConn(), config.hnswBeamWidth(), config.scalarQuantization()),
              !config.idleMerge().isZero());
      IdleMerges idle = new IdleMerges(config.idleMerge(), config.maxSegmentMB(), location, graphs);
      Purges purges = new Purges(config.purgeDelay(), location, Clock.systemUTC());
      writer = new IndexWriter(dir, writerConfig(config, schema, idle, purges, graphs));
      IndexMetadata metadata = IndexMetadata.open(writer, location, config.weightUnits());
      searchers = new FreshSearchers(writer, location);
      searchers.checkIntegrity();
      return new OpenIndex(dir, writer, metadata, searchers, idle, purges, graphs);
    } catch (IOException e) {
      closeQuietly(searchers, writer, dir);
      throw OpenErrors.of(e, location, false);
    } catch (ReadOnlyFileSystemException e) {
      // unchecked, so Lucene lets it through as is: a file system other than the default one
      closeQuietly(searchers, writer, dir);
      throw OpenErrors.of(e, location);
    } catch (RuntimeException e) {
      closeQuietly(searchers, writer, dir);
      throw e;
    }
  }

  /** Opens the index at {@code path} with a reader only; see {@link ReadOnlyIndex}. */
  private static OpenIndex readOnly(Path path, String location, UnreadableRecords unreadable) {
    Directory dir = null;
    try {
      dir = ReadOnlyIndex.directory(path);
      OpenErrors.checkCommit(dir, location);
      DirectoryReader reader = ReadOnlyIndex.open(dir, location, unreadable);
      try {
        IndexMetadata metadata =
            IndexMetadata.readOnly(reader.getIndexCommit().getUserData(), location);
        // no writer: the format is never asked for
        VectorGraphs graphs = new VectorGraphs(new Lucene99HnswVectorsFormat(), false);
        return new OpenIndex(
            dir,
            null,
            metadata,
            new FreshSearchers(reader, location),
            new IdleMerges(Duration.ZERO, 1, location, graphs),
            new Purges(Duration.ZERO, location, Clock.systemUTC()),
            graphs);
      } catch (IOException | RuntimeException e) {
        reader.close();
        throw e;
      }
    } catch (IOException e) {
      closeQuietly(null, null, dir);
      throw OpenErrors.of(e, location, true);
    } catch (RuntimeException e) {
      closeQuietly(null, null, dir);
      throw e;
    }
  }

  private static IndexWriterConfig writerConfig(
      LuceneStoreConfig config,
      IndexSchema schema,
      IdleMerges idle,
      Purges purges,
      VectorGraphs graphs) {
    TieredMergePolicy mergePolicy = new TieredMergePolicy();
    mergePolicy.setSegmentsPerTier(SEGMENTS_PER_TIER);
    mergePolicy.setFloorSegmentMB(FLOOR_SEGMENT_MB);
    mergePolicy.setMaxMergedSegmentMB(config.maxSegmentMB());
    return new IndexWriterConfig(schema.indexAnalyzer())
        .setSimilarity(IndexSchema.SIMILARITY)
        .setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND)
        // close() waits for running merges and commits them (their work is kept); after a failed
        // write or commit, WritePath.close() rolls back instead, so nothing uncommitted is
        // committed
        .setCommitOnClose(true)
        // a purge rewrites the segments of forgotten memories (Purges, Expunge); a quiet store
        // merges down to few segments (IdleMerges)
        .setMergePolicy(idle.policy(purges.policy(Expunge.policy(mergePolicy))))
        .setRAMBufferSizeMB(RAM_BUFFER_MB)
        .setCodec(
            new Lucene104Codec() {
              @Override
              public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
                return graphs.format(); // asked when a segment's or a merge's vectors begin
              }
            });
  }

  /** Releases what {@link #open} opened, after a later step of opening the store failed. */
  void closeQuietly() {
    closeQuietly(searchers, writer, directory);
  }

  private static void closeQuietly(FreshSearchers searchers, IndexWriter writer, Directory dir) {
    try {
      if (searchers != null) {
        searchers.close();
      }
    } catch (IOException | RuntimeException e) {
      LOG.debug("closing the searchers after a failed open failed", e);
    }
    try {
      if (writer != null) {
        writer.rollback();
      }
    } catch (IOException | RuntimeException e) {
      LOG.debug("rollback after a failed open failed", e);
    }
    try {
      if (dir != null) {
        dir.close();
      }
    } catch (IOException e) {
      LOG.debug("closing the directory after a failed open failed", e);
    }
  }
}
