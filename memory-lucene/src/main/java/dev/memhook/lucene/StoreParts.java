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
   * Opens the index {@code s} describes and wires the parts over it.
   *
   * @throws dev.memhook.api.MemoryStoreException if the index cannot be opened ({@link OpenErrors})
   */
  static StoreParts open(StoreSettings s) {
    IndexSchema schema = new IndexSchema();
    MemoryJson json = new MemoryJson();
    String location = s.location();
    UnreadableRecords unreadable = new UnreadableRecords(location);
    HitReader reader = new HitReader(json, location, unreadable);
    OpenIndex index = OpenIndex.open(s, schema, unreadable);
    FreshSearchers searchers = index.searchers();
    IndexMetadata metadata = index.metadata();
    StoreSearches searches =
        new StoreSearches(
            searchers,
            new TextQueryBuilder(schema, s.exactWeight(), s.phraseWeight(), s.shaBoost()),
            reader,
            metadata,
            s.efSearch(),
            unreadable);
    RecordCache records =
        new RecordCache(s.cacheSize(), ids -> searchers.withSearcher(r -> reader.memories(r, ids)));
    WritePath writes =
        new WritePath(
            index.writer(),
            index.directory(),
            searchers,
            records,
            location,
            s.groupCommit(),
            s.path() != null);
    index.idleMerges().start(index.writer(), writes, searchers);
    MemoryDocuments documents =
        new MemoryDocuments(schema, metadata, json, reader, s.weightUnits());
    return new StoreParts(
        location,
        s.capabilities(),
        metadata,
        new IndexWrites(writes, documents, searchers, unreadable, s.isMirror()),
        searches,
        records,
        writes,
        unreadable,
        index.idleMerges());
  }
}
