package dev.memhook.lucene;

import dev.memhook.api.spi.StoreCapability;
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
    IdleMerges idleMerges) {

  /**
   * Opens the index {@code config} describes and wires the parts over it.
   *
   * @throws dev.memhook.api.MemoryStoreException if the index cannot be opened ({@link OpenErrors})
   */
  static StoreParts open(LuceneStoreConfig config) {
    IndexSchema schema = new IndexSchema();
    MemoryJson json = new MemoryJson();
    String location = config.location();
    UnreadableRecords unreadable = new UnreadableRecords(location);
    HitReader reader = new HitReader(json, location, unreadable);
    OpenIndex index = OpenIndex.open(config, schema, unreadable);
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
            unreadable);
    RecordCache records =
        new RecordCache(
            config.cacheSize(), ids -> searchers.withSearcher(r -> reader.memories(r, ids)));
    WritePath writes =
        new WritePath(
            index.writer(),
            index.directory(),
            searchers,
            records,
            location,
            config.groupCommit(),
            config.directory().isPresent());
    index.idleMerges().start(index.writer(), writes, searchers);
    MemoryDocuments documents =
        new MemoryDocuments(schema, metadata, json, reader, config.weightUnits());
    return new StoreParts(
        location,
        config.capabilities(),
        metadata,
        new IndexWrites(writes, documents, searchers, unreadable, config.mirror()),
        searches,
        records,
        writes,
        unreadable,
        index.idleMerges());
  }
}
