/**
 * The embedded default store: {@link dev.memhook.lucene.LuceneMemoryStore}, one Lucene index on
 * disk (or in a {@code ByteBuffersDirectory} for tests), with {@link IndexInfo} (what an index
 * directory's last commit says, without opening a store) and {@link SearchField} (the searched
 * parts a builder weighs). Two public classes serve stores kept elsewhere (the PostgreSQL store
 * uses both): {@link MemoryRecordJson}, the JSON form of a memory and a forget record that the
 * stores share, and {@link CodeAwareTerms}, this store's code-aware term splitting for a store that
 * indexes text elsewhere. Every other class of this package is package-private.
 *
 * <h2>Index layout</h2>
 *
 * One index holds two kinds of document, told apart by the {@code kind} keyword field:
 *
 * <ul>
 *   <li><b>memory</b>: {@code id} (keyword, and binary doc values that searches read their hits'
 *       ids from), {@code live} (the scope, only on a latest memory: a keyword and sorted doc
 *       values, the filter of every search and count), {@code type} (keyword), {@code importance}
 *       and {@code created} (doc values), what a listing by type filters and sorts on (memories
 *       indexed before these fields were added lack them and are listed by their records, see
 *       {@code ListByType}), {@code session} (keyword and sorted doc values) and {@code occurred}
 *       (doc values), only on a memory with a source session, what a session window finds and
 *       orders by with {@code created} (memories indexed before they were added are in no window,
 *       see {@code SessionWindows}), {@code record} (the whole record, stored, encrypted with the
 *       memory's own key: see <i>Forgetting erases</i>; the JSON inside has instants as ISO-8601
 *       strings and a format number; an index of format 2 stores it plain in {@code json}); {@code
 *       text} and {@code text_exact}, the weighted text fields (below); {@code phrase} (the
 *       content, exact analysis, with positions, for phrase matches); {@code sha} (hex ids and
 *       their prefixes); {@code concept_key} (lower-cased) and {@code file_key} (exact) keywords
 *       for the entity graph; {@code vector}, an HNSW {@code KnnFloatVectorField} with dot-product
 *       similarity over the embedding scaled to unit length (see <i>Segments</i>), absent for a
 *       zero embedding; and {@code passages}, only on a memory put with passage vectors: binary doc
 *       values holding them all, a byte per dimension each (see <i>Passages</i>).
 *   <li><b>audit</b>: one per forgotten memory: {@code audit_id}, {@code audit_scope} and the
 *       {@code ForgetRecord} as JSON. No search reads the fields audit documents have, and the
 *       delete of the memory and the add of its audit record are one atomic Lucene update, so one
 *       commit covers both.
 * </ul>
 *
 * The index's commit user data records the embedding space ({@code memhook.space.model}, {@code
 * memhook.space.dimension}) and the index format; {@code attach} with another space throws {@link
 * dev.memhook.api.IncompatibleStoreException}. It also records the text field weights ({@code
 * memhook.text.weights}): opening the index with other weights throws the same exception.
 *
 * <h2>Weighted text fields (BM25F)</h2>
 *
 * A memory's searchable parts (title, summary, content, concepts, files, speaker, session, context,
 * attributes, date) go into one field, {@code text} (and again, analyzed exactly, into {@code
 * text_exact}), each token carrying a custom term frequency of its part's weight in quarter units
 * (a title of weight 2 counts 8 per occurrence, content of weight 1 counts 4). Lucene adds those
 * frequencies to the term's frequency and to the field's length, which is BM25F: weights scale term
 * frequencies before BM25's saturation, against one document length and one idf. The two fields use
 * BM25 with {@code k1 = 1.2 × 4} (and {@code b = 0.75}), so a memory with one part of weight 1
 * scores exactly as plain BM25. Why one field for all parts: a field per part and per analysis
 * would make every query a disjunction of a clause per term, part and analysis, each looked up in
 * every segment, where BM25F needs a clause per term and analysis; and BM25F is the standard way to
 * weight fields (how it ranks: benchmarks/RESULTS.md). The price: weights are fixed at index time.
 * Custom frequencies exclude positions, so phrases use the separate {@code phrase} field (content
 * only).
 *
 * <h2>Durability</h2>
 *
 * Default: <b>commit per write</b>. {@code put}, {@code putAll}, {@code putNewVersion} and {@code
 * delete} return only after Lucene has committed (and fsync'ed) them, so an acknowledged write
 * survives a crash: memories are few and precious, writes are rare next to reads, and the store
 * promises durability "when put returns". Hosts that write in bursts can choose {@code
 * groupCommit(Duration)}: writes return once applied and a named daemon thread commits within the
 * interval (a crash loses at most that window); {@code close()} commits what is pending. The
 * service that {@code Memhook.builder().directory(dir)} builds uses the group commit with a
 * write-ahead log in front (see {@code Memhook.Builder.directory}): its writes are durable when
 * they return, through the log, and the index commits in the background. Either way a write is
 * visible to every read and search when it returns: before it returns it is counted in a write
 * generation, and every read and search first refreshes the near-real-time searcher if it reflects
 * an older generation (readers that find it stale together wait for one refresh). A write does not
 * refresh the searcher itself, so writes with no read between them share one refresh and one
 * flushed segment. Writes are serialized by one lock, so a commit never holds half a batch.
 *
 * <h2>Forgetting erases</h2>
 *
 * A Lucene delete only marks a document deleted; its stored record and terms stay in the segment's
 * files until a merge rewrites the segment, and rewriting a segment writes all of it again. So
 * forgetting erases in two stages. Each memory's record is stored encrypted with a key of the
 * memory's own, kept outside the segments in small shard files that are cheap to rewrite ({@code
 * RecordKeys}, {@code RecordCipher}); {@code delete} deletes the documents, commits, and destroys
 * the key, so that when it returns no file holds the record in a readable form. The residue (the
 * words as terms, the vector, the ciphertext) goes when the segments are rewritten by the purge, in
 * the background within {@code purgeDelay} (default 10 minutes), journaled in the commit user data
 * so that a crash resumes it ({@code Purges}, {@code Expunge}); {@code purge()} runs one now, and a
 * zero delay purges before {@code delete} returns.
 *
 * <h2>Damage</h2>
 *
 * Opening reads every file of the index once to check its checksum (Lucene itself checks only a
 * segment's metadata files when it opens one): damage anywhere fails a writable open, saying to
 * open the index read-only, rather than making memories silently unfindable later. An index that
 * holds segment files but lost its commit point ({@code segments_N}) fails to open too, rather than
 * being replaced by a new, empty index. Each stored record is sealed with a CRC-32C ({@code
 * MemoryJson}), so a record damaged after the open fails to decode, and is never read as another
 * record. A stored record that does not decode costs that record only: reads of several records
 * (and so every recall) and {@code export} skip it, log it once at WARN and count it ({@code
 * unreadableRecords()}); {@code get} of its id throws a {@code MemoryStoreException} saying what to
 * do. {@code readOnly()} opens an index with a reader only (no writer, no lock), and if the commit
 * does not open as a whole or fails its checksums, with each segment that opens and matches its
 * checksums on its own, counting the rest as unreadable: open a damaged index read-only, {@code
 * export}, and put what comes out into a new store. What is written is what can be read back:
 * records over {@code RecordLimits}' size, or keywords over Lucene's term limit, are refused before
 * anything is written.
 *
 * <h2>Segments</h2>
 *
 * Every search visits every segment: a term lookup per query term, an HNSW graph descent per vector
 * search. A memory store is written a few memories at a time (each commit or refresh flushes a
 * small segment) and searched far more often than written, so the writer trades more merging for
 * fewer segments: a {@code TieredMergePolicy} with 4 segments per tier (Lucene's default: 10) and a
 * 16 MB floor (default: 2 MB), so the many small flushed segments are merged together early, and a
 * 64 MB RAM buffer (default: 16 MB), reached only by bursts of writes with no read or commit
 * between them. Merges build segments of at most {@code maxSegmentMB} (512 MB by default, about a
 * quarter of a million memories with 384-dimension vectors: a merge, and the rewrite that erases a
 * forgotten memory from its segment, write a whole segment again, so the limit bounds how long one
 * rewrite runs, and it bounds the size of one vector graph, which a walk with the default {@code
 * efSearch} searches less completely the larger it is; {@code StoreWorkers} builds a merged graph
 * with {@code workers} threads, the processors up to 4, and adds a large {@code putAll} in parts
 * with them). Natural merges leave several segments per tier and none over half the limit merged,
 * so once the store has seen no write for {@code idleMerge} (15 s by default) and its natural
 * merges are done, {@code IdleMerges} packs the segments into as few as {@code IdleMergePlan} finds
 * of at most the limit (first-fit decreasing by live size; a segment that cannot join another is
 * rewritten alone when a tenth of it is deleted), merges them in the background and commits: a
 * quiet store under the limit ends in one segment, a larger one in about {@code size / limit}.
 * After a bulk import, {@code forceMerge(n)} merges down to {@code n} segments and commits, past
 * the limit. A bulk load ({@code putAll} batches of 16 or more, on a store with idle merges) writes
 * its vectors without an HNSW graph until the store is next quiet ({@code VectorGraphs}, Lucene's
 * flat vector files under a format of the store's own, {@code GraphlessVectorsFormat}, searched
 * exactly meanwhile); the idle merge, or {@code forceMerge}, then builds each merged segment's
 * graph once rather than vector by vector and again at every merge. Searches read their hits' ids
 * from the {@code id} field's binary doc values (a stored-field read would decompress a block of
 * records per hit). Vectors are scaled to unit length at index and query time and compared by dot
 * product, which for unit vectors is the cosine and is cheaper per comparison than Lucene's cosine,
 * which divides by both norms each time. Every search and count filters on {@code live}, the scope
 * of a latest memory (absent on superseded memories and audit records); vector search takes it as a
 * pre-filter whose bit set per segment is cached. For text and related searches, when the scope
 * holds at least half of the index the query runs unfiltered and a collector keeps the scope's
 * documents by their doc values, which keeps Lucene's fast scoring of a pure disjunction
 * (MaxScore); a smaller scope is intersected as a filter. Hits are collected with pruning from the
 * first {@code k} hits on (no total hit count is needed). What each of these costs and saves is
 * measured in benchmarks/RESULTS.md. These make index format 2; an index of another format fails to
 * open with an {@link dev.memhook.api.IncompatibleStoreException} saying to rebuild it.
 *
 * <h2>Search</h2>
 *
 * Text: the query is plain text, analyzed by the same chains as the index (never parsed as query
 * syntax, so {@code :}, {@code /}, {@code (} are just separators) into one flat disjunction: a term
 * query per distinct query term on {@code text}, the exact terms on {@code text_exact} at half that
 * weight, English function words left out of both, optionally the whole query as a phrase on {@code
 * phrase} (up to 16 tokens; off by default), and SHA matches at boost 3. Vectors: a scope of at
 * most 4,096 documents is searched exactly; a larger one by HNSW (max connections 16, beam width
 * 100, optional 7-bit scalar quantization) with the scope and latest filter as a pre-filter,
 * gathering {@code max(k, efSearch = 100)} candidates before the cut (on several segments, each
 * walked for its share of them and again if it may hold more); the score returned is the cosine
 * ({@code 2s - 1} of Lucene's {@code (1 + cos) / 2}). Related: one constant-score clause per
 * concept or file, so the score is the number shared.
 *
 * <h2>Passages</h2>
 *
 * A memory may be put with the vectors of its passages (its sentences, say: at most 16), and {@code
 * passageCosines} answers the best cosine of one of them to a query for a few ids, so that recall
 * can rank a memory by the sentence that matches rather than by its whole vector, which averages
 * everything it says. They are a binary doc value on the memory's own document ({@code
 * PassageVectors}): the update that writes, replaces or deletes the document takes them with it, so
 * a batch and a new version stay one write, a plain put of the id drops them, and a forget's purge
 * erases them with its segment; a superseded version keeps its own, never answered. The value is a
 * 6-byte header (format, count, dimension) and then each passage as one signed byte per dimension,
 * quantised against its largest component, so a passage costs its dimension in bytes. The cosine is
 * computed from the bytes and their norm, within a few thousandths of the exact one; a zero
 * passage's is 0. The asked ids are looked up in each segment's postings and kept if they are
 * latest memories of the scope ({@code LatestDocuments}, which {@code SessionWindows} uses too),
 * and their values read per segment: the work is bounded by the ids. Memories indexed before the
 * field existed have no passages (the index format is unchanged).
 *
 * <h2>Analysis</h2>
 *
 * See {@link dev.memhook.lucene.internal.analysis.CodeAwareAnalyzer}: one pattern tokenizer keeps
 * paths, identifiers, flags and SHAs whole and separates CJK runs, which become bigrams; the main
 * variant then adds path suffixes and segments, word-delimiter parts (case changes, digits, {@code
 * / . _ -}) and Porter stems, while the exact variant keeps whole lower-cased tokens with clean
 * positions for exact boosts and phrases. Commit SHAs (hex tokens of 7 to 40 characters holding a
 * digit) are indexed with all their prefixes of 7 characters or more, so a 7-character abbreviation
 * finds the full SHA as a plain term lookup, with BM25 idf, rather than as a prefix query over the
 * term dictionary. Why: what developers ask about is code, and a question names a file by its class
 * name, its path or a piece of it; each must find it, and an exact spelling must rank first.
 */
package dev.memhook.lucene;
