package dev.memhook.lucene;

import dev.memhook.api.MemoryStoreException;
import dev.memhook.api.spi.StoreCapability;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The parts of a {@link LuceneMemoryStore}, opened and wired together: the store's public methods
 * check their arguments and delegate to these.
 *
 * @param location what error messages call the index
 * @param capabilities what the store declares
 * @param metadata what the index records about itself
 * @param memoryWrites the writes
 * @param searches the reads that run on a searcher, and the export
 * @param records the read cache of records
 * @param writes the write path: lock, commits, close
 * @param unreadable the damaged records found so far
 * @param idleMerges the merges of a quiet store, started; closed before {@code writes}
 * @param purges the purges of forgotten memories' segments, started; closed before {@code writes}
 * @param graphs when vectors get their search graph
 */
record StoreParts(
    String location,
    Set<StoreCapability> capabilities,
    IndexMetadata metadata,
    IndexWrites memoryWrites,
    StoreSearches searches,
    RecordCache records,
    WritePath writes,
    UnreadableRecords unreadable,
    IdleMerges idleMerges,
    Purges purges,
    VectorGraphs graphs) {

  /**
   * Opens the index {@code config} describes and wires the parts over it.
   *
   * @throws dev.memhook.api.MemoryStoreException if the index cannot be opened ({@link OpenErrors})
   */
  static StoreParts open(LuceneStoreConfig config) {
    IndexSchema schema = new IndexSchema();
    String location = config.location();
    UnreadableRecords unreadable = new UnreadableRecords(location);
    OpenIndex index = OpenIndex.open(config, schema, unreadable);
    RecordKeys keys = openKeys(config, index);
    MemoryJson json = new MemoryJson(keys);
    HitReader reader = new HitReader(json, location, unreadable);
    FreshSearchers searchers = index.searchers();
    IndexMetadata metadata = index.metadata();
    StoreSearches searches =
        new StoreSearches(
            searchers,
            new TextQueryBuilder(
                schema, config.exactWeight(), config.phraseWeight(), config.shaBoost()),
            reader,
            metadata,
            config.efSearch(),
            unreadable,
            config.workers() > 1 ? new SegmentWalkers(config.workers() - 1) : null);
    RecordCache records =
        new RecordCache(
            config.cacheSize(), ids -> searchers.withSearcher(r -> reader.memories(r, ids)));
    WritePath writes =
        new WritePath(
            index.writer(),
            index.directory(),
            searchers,
            records,
            keys,
            index.purges(),
            location,
            config.groupCommit(),
            config.directory().isPresent());
    index.idleMerges().start(index.writer(), writes, searchers);
    index.purges().start(index.writer(), writes);
    MemoryDocuments documents =
        new MemoryDocuments(schema, metadata, json, reader, config.weightUnits());
    return new StoreParts(
        location,
        config.capabilities(),
        metadata,
        new IndexWrites(
            writes,
            documents,
            searchers,
            unreadable,
            config.mirror(),
            index.graphs(),
            index.graphs().workers()),
        searches,
        records,
        writes,
        unreadable,
        index.idleMerges(),
        index.purges(),
        index.graphs());
  }

  /**
   * Opens the record keys of {@code index} and finishes what the last commit left to do with them
   * ({@link Purges#recover}); closes {@code index} if that fails.
   */
  private static RecordKeys openKeys(LuceneStoreConfig config, OpenIndex index) {
    RecordKeys keys = null;
    try {
      if (config.directory().isEmpty()) {
        return RecordKeys.inMemory();
      }
      keys = RecordKeys.open(config.directory().get(), config.readOnly());
      if (index.writer() != null) {
        Map<String, String> userData = new HashMap<>();
        Iterable<Map.Entry<String, String>> live = index.writer().getLiveCommitData();
        if (live != null) {
          live.forEach(e -> userData.put(e.getKey(), e.getValue()));
        }
        index.purges().recover(userData, keys);
      }
      return keys;
    } catch (IOException | RuntimeException e) {
      if (keys != null) {
        try {
          keys.close();
        } catch (IOException suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      index.closeQuietly();
      throw new MemoryStoreException(
          "the record keys of the "
              + config.location()
              + " could not be opened: "
              + e.getMessage()
              + "; without them the memories cannot be read: restore the directory "
              + RecordKeys.DIRECTORY
              + " from a backup, or open the store read-only and export what is readable",
          e);
    }
  }
}
