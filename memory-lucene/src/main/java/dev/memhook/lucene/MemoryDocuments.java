package dev.memhook.lucene;

import static dev.memhook.lucene.IndexSchema.F_AUDIT_ID;
import static dev.memhook.lucene.IndexSchema.F_AUDIT_SCOPE;
import static dev.memhook.lucene.IndexSchema.F_CONCEPT_KEY;
import static dev.memhook.lucene.IndexSchema.F_CREATED;
import static dev.memhook.lucene.IndexSchema.F_FILE_KEY;
import static dev.memhook.lucene.IndexSchema.F_ID;
import static dev.memhook.lucene.IndexSchema.F_IMPORTANCE;
import static dev.memhook.lucene.IndexSchema.F_JSON;
import static dev.memhook.lucene.IndexSchema.F_KIND;
import static dev.memhook.lucene.IndexSchema.F_LIVE;
import static dev.memhook.lucene.IndexSchema.F_OCCURRED;
import static dev.memhook.lucene.IndexSchema.F_PHRASE;
import static dev.memhook.lucene.IndexSchema.F_SESSION;
import static dev.memhook.lucene.IndexSchema.F_SHA;
import static dev.memhook.lucene.IndexSchema.F_TEXT;
import static dev.memhook.lucene.IndexSchema.F_TEXT_EXACT;
import static dev.memhook.lucene.IndexSchema.F_TYPE;
import static dev.memhook.lucene.IndexSchema.F_VECTOR;
import static dev.memhook.lucene.IndexSchema.KIND_AUDIT;
import static dev.memhook.lucene.IndexSchema.KIND_MEMORY;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.lucene.internal.analysis.DerivedText;
import java.io.IOException;
import java.io.StringReader;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.core.KeywordTokenizer;
import org.apache.lucene.analysis.tokenattributes.TermFrequencyAttribute;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.DoubleDocValuesField;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.util.BytesRef;

/**
 * The documents the store writes: a memory (its record, its keys, its weighted text, its vector and
 * its passages' vectors), the not-latest rewrite of a memory that a new version supersedes, and the
 * audit record of a forgotten memory. The fields are those of {@link IndexSchema}.
 *
 * <p>A memory's searchable parts go into the weighted text fields as one token stream per part,
 * each token counted its part's weight in {@link IndexSchema#WEIGHT_UNITS}: Lucene adds custom term
 * frequencies to the term's frequency and to the field's length, which makes the field BM25F over
 * the parts.
 *
 * <p>A memory's document is built in two steps: {@link #memory} (everything but the record, outside
 * the write lock) and {@link #sealed} (the encrypted record, under it).
 *
 * <p>Immutable and thread-safe. Building a memory's document requires an attached space ({@link
 * IllegalStateException} otherwise) and an embedding in it ({@link IllegalArgumentException}).
 */
final class MemoryDocuments {
  private static final DateTimeFormatter LONG_DATE =
      DateTimeFormatter.ofPattern("EEEE d MMMM yyyy", Locale.ENGLISH);

  /**
   * The first and the last instant that fall on a calendar date: {@link Instant#MIN} and {@link
   * Instant#MAX}, which a host may give a memory whose time it does not know, lie beyond them.
   */
  private static final Instant FIRST_DATED = LocalDate.MIN.atStartOfDay(ZoneOffset.UTC).toInstant();

  private static final Instant LAST_DATED =
      LocalDate.MAX.atTime(LocalTime.MAX).toInstant(ZoneOffset.UTC);

  private final IndexSchema schema;
  private final IndexMetadata metadata;
  private final MemoryJson json;
  private final HitReader reader;

  /** Each part's weight in weight units; 0 leaves the part out of the text fields. */
  private final Map<SearchField, Integer> weightUnits;

  MemoryDocuments(
      IndexSchema schema,
      IndexMetadata metadata,
      MemoryJson json,
      HitReader reader,
      Map<SearchField, Integer> weightUnits) {
    this.schema = schema;
    this.metadata = metadata;
    this.json = json;
    this.reader = reader;
    this.weightUnits = new EnumMap<>(weightUnits);
  }

  /**
   * The documents of a batch of memories (not yet {@link #sealed}), their ids and the memories, in
   * the batch's order.
   */
  record Batch(List<MemoryId> ids, List<Document> documents, List<Memory> memories) {
    /** Copies the lists. */
    Batch {
      ids = List.copyOf(ids);
      documents = List.copyOf(documents);
      memories = List.copyOf(memories);
    }
  }

  /**
   * The documents of every memory of {@code batch}, each with its passages in {@code passages}
   * (checked: {@link dev.memhook.api.spi.MemoryStore#checkPassages(Map, Map)}), if any.
   *
   * @throws IllegalArgumentException if two memories have the same id
   */
  Batch batch(Map<Memory, Embedding> batch, Map<MemoryId, List<Embedding>> passages) {
    List<Document> docs = new ArrayList<>(batch.size());
    List<Memory> memories = new ArrayList<>(batch.size());
    Set<MemoryId> ids = new LinkedHashSet<>();
    batch.forEach(
        (m, e) -> {
          Objects.requireNonNull(m, "batch key");
          Objects.requireNonNull(e, "batch value for " + m.id());
          if (!ids.add(m.id())) {
            throw new IllegalArgumentException("batch holds two memories with id " + m.id());
          }
          docs.add(memory(m, e, passages.getOrDefault(m.id(), List.of())));
          memories.add(m);
        });
    return new Batch(List.copyOf(ids), docs, memories);
  }

  /**
   * The document of {@code m} with {@code embedding} (stored without a vector if it is zero) and
   * the vectors of its {@code passages} (checked: {@link
   * dev.memhook.api.spi.MemoryStore#checkPassages(Embedding, List)}; none stored if empty).
   *
   * @throws IllegalArgumentException if the store could not store or read it back ({@link
   *     RecordLimits})
   */
  Document memory(Memory m, Embedding embedding, List<Embedding> passages) {
    Document doc = memory(m, embedding);
    if (!passages.isEmpty()) {
      doc.add(PassageVectors.field(passages));
    }
    return doc;
  }

  /** The document of {@code m} with {@code embedding}, without passages. */
  private Document memory(Memory m, Embedding embedding) {
    EmbeddingSpace s = metadata.attachedSpace();
    IndexMetadata.checkDimension(embedding, s);
    Document doc = new Document();
    doc.add(new StringField(F_KIND, KIND_MEMORY, Field.Store.NO));
    doc.add(
        new StringField(
            F_ID, m.id().value(), Field.Store.NO)); // upserts, deletes and getAll look it up
    doc.add(new BinaryDocValuesField(F_ID, new BytesRef(m.id().value()))); // what hits are read by
    if (m.latest()) {
      // what every search and count filters on: the scope of a searchable memory
      doc.add(new StringField(F_LIVE, m.scope().value(), Field.Store.NO));
      doc.add(new SortedDocValuesField(F_LIVE, new BytesRef(m.scope().value())));
    }
    // what a listing by type filters and sorts on (ListByType)
    doc.add(new StringField(F_TYPE, m.type().name(), Field.Store.NO));
    doc.add(new DoubleDocValuesField(F_IMPORTANCE, m.importance()));
    doc.add(new NumericDocValuesField(F_CREATED, epochNanos(m.createdAt())));
    if (m.sourceSession() != null) {
      // what a session's window finds and orders its memories by (SessionWindows)
      doc.add(new StringField(F_SESSION, m.sourceSession(), Field.Store.NO));
      doc.add(new SortedDocValuesField(F_SESSION, new BytesRef(m.sourceSession())));
      doc.add(new NumericDocValuesField(F_OCCURRED, epochNanos(m.occurredAt())));
    }
    StringBuilder all = new StringBuilder();
    for (SearchField f : SearchField.values()) {
      String text = fieldText(f, m);
      if (text.isBlank()) {
        continue;
      }
      all.append(text).append('\n');
      int units = weightUnits.get(f);
      if (units > 0) {
        doc.add(new WeightedText(F_TEXT, text, schema.code(), units));
        doc.add(new WeightedText(F_TEXT_EXACT, text, schema.exact(), units));
      }
    }
    doc.add(new TextField(F_PHRASE, m.content(), Field.Store.NO));
    doc.add(new TextField(F_SHA, all.toString(), Field.Store.NO));
    doc.add(new TextField(F_SHA, placeholder())); // most texts hold no SHA: keep its idf honest
    for (String c : new LinkedHashSet<>(m.concepts())) {
      doc.add(new StringField(F_CONCEPT_KEY, IndexSchema.conceptKey(c), Field.Store.NO));
    }
    for (String f : new LinkedHashSet<>(m.files())) {
      doc.add(new StringField(F_FILE_KEY, f, Field.Store.NO));
    }
    if (embedding.norm() > 0) {
      doc.add(
          new KnnFloatVectorField(
              F_VECTOR, IndexSchema.unit(embedding), IndexSchema.VECTOR_SIMILARITY));
    }
    return doc;
  }

  /**
   * Adds {@code m}'s record, encrypted with its key, to {@code doc}, {@code m}'s document: under
   * the write lock, so that no forget destroys the key between sealing and writing ({@link
   * MemoryJson#write(Memory)}).
   *
   * @return {@code doc}
   */
  Document sealed(Document doc, Memory m) {
    // json.write refuses an unpaired surrogate: UTF-8 cannot carry one (MemoryRecordJson)
    doc.add(new StoredField(IndexSchema.F_RECORD, new BytesRef(json.write(m))));
    return doc;
  }

  /**
   * The document of the memory {@code id} rewritten as not latest, with the vector and the passages
   * the index holds for it, so that superseding it needs no embedding of it (the passages, as
   * {@code MemoryStore.putNewVersion} says, are kept and no longer answered for). {@code searcher}
   * must reflect every write.
   *
   * @throws IllegalArgumentException if {@code id} is not a latest memory of {@code scope}
   */
  Document superseded(IndexSearcher searcher, MemoryId id, Scope scope) throws IOException {
    Query q =
        new BooleanQuery.Builder()
            .add(new TermQuery(IndexSchema.idTerm(id)), Occur.FILTER)
            .add(new TermQuery(new Term(F_KIND, KIND_MEMORY)), Occur.FILTER)
            .build();
    TopDocs top = searcher.search(q, 1);
    if (top.scoreDocs.length == 0) {
      throw new IllegalArgumentException("no memory with id " + id + " to supersede");
    }
    int doc = top.scoreDocs[0].doc;
    Memory previous = reader.memory(searcher.storedFields(), doc);
    if (!previous.latest()) {
      throw new IllegalArgumentException(
          id + " is already superseded; a new version supersedes the latest one");
    }
    if (!previous.scope().equals(scope)) {
      throw new IllegalArgumentException(
          id + " is in scope " + previous.scope() + ", not " + scope);
    }
    float[] vector = HitReader.vector(searcher, doc);
    Embedding embedding =
        vector != null
            ? Embedding.of(vector)
            : Embedding.of(new float[metadata.attachedSpace().dimension()]);
    Memory superseded = previous.withLatest(false);
    Document rewritten = memory(superseded, embedding);
    BytesRef passages = PassageVectors.stored(searcher, doc);
    if (passages != null) {
      rewritten.add(PassageVectors.field(passages));
    }
    return sealed(rewritten, superseded);
  }

  /** The audit document of a forgotten memory: no search sees it, {@code forgotten} reads it. */
  Document audit(ForgetRecord audit) {
    Document doc = new Document();
    doc.add(new StringField(F_KIND, KIND_AUDIT, Field.Store.NO));
    doc.add(new StringField(F_AUDIT_ID, audit.id().value(), Field.Store.NO));
    doc.add(new StringField(F_AUDIT_SCOPE, audit.scope().value(), Field.Store.NO));
    String record = json.write(audit);
    doc.add(new StoredField(F_JSON, record));
    return doc;
  }

  /** The text of part {@code f} of {@code m}, empty if it has none. */
  static String fieldText(SearchField f, Memory m) {
    return switch (f) {
      // a title or summary cut from the content would count the content's words twice
      case TITLE -> DerivedText.addsTo(m.title(), m.content()) ? m.title() : "";
      case SUMMARY -> DerivedText.addsTo(m.summary(), m.content()) ? m.summary() : "";
      case CONTENT -> m.content();
      case CONCEPTS -> String.join("\n", m.concepts());
      case FILES -> {
        Set<String> paths = new LinkedHashSet<>(m.files());
        m.sourcePins().forEach(p -> paths.add(p.path()));
        yield String.join("\n", paths);
      }
      case SPEAKER -> m.origin().name() == null ? "" : m.origin().name();
      case SESSION -> m.sourceSession() == null ? "" : m.sourceSession();
      // context adds the words the memory lacks, never a second count of its own
      case CONTEXT ->
          DerivedText.wordsBeyond(m.context(), m.content() + "\n" + m.title() + "\n" + m.summary());
      case ATTRIBUTES ->
          m.attributes().entrySet().stream()
              .map(e -> e.getKey() + " " + e.getValue())
              .collect(Collectors.joining("\n"));
      case DATE -> dateText(m);
    };
  }

  /**
   * {@code t} in nanoseconds since the epoch, saturated at the ends of {@code long} (about the
   * years 1677 and 2262): instants beyond them tie with one another in a listing's sort.
   */
  static long epochNanos(Instant t) {
    try {
      return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000_000L), t.getNano());
    } catch (ArithmeticException e) {
      return t.getEpochSecond() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }

  /**
   * When it happened, as words and as an ISO date, in UTC; nothing for an instant beyond {@link
   * #FIRST_DATED} and {@link #LAST_DATED}, which no date names.
   */
  private static String dateText(Memory m) {
    Instant at = m.occurredAt();
    if (at.isBefore(FIRST_DATED) || at.isAfter(LAST_DATED)) {
      return ""; // no date names it
    }
    ZonedDateTime t = at.atZone(ZoneOffset.UTC);
    return LONG_DATE.format(t) + " " + DateTimeFormatter.ISO_LOCAL_DATE.format(t);
  }

  private static TokenStream placeholder() {
    Tokenizer t = new KeywordTokenizer();
    t.setReader(new StringReader(IndexSchema.PLACEHOLDER));
    return t;
  }

  /**
   * One part of a memory in a weighted text field: analysed by {@code chain}, every token counted
   * {@code units} times.
   */
  private static final class WeightedText extends Field {
    private final Analyzer chain;
    private final int units;

    WeightedText(String name, String text, Analyzer chain, int units) {
      super(name, text, IndexSchema.WEIGHTED_TEXT_TYPE);
      this.chain = chain;
      this.units = units;
    }

    @Override
    public TokenStream tokenStream(Analyzer analyzer, TokenStream reuse) {
      return new WeightFilter(chain.tokenStream(name(), stringValue()), units);
    }
  }

  /** Sets every token's term frequency to the part's weight. */
  private static final class WeightFilter extends TokenFilter {
    private final TermFrequencyAttribute frequency = addAttribute(TermFrequencyAttribute.class);
    private final int units;

    WeightFilter(TokenStream input, int units) {
      super(input);
      this.units = units;
    }

    @Override
    public boolean incrementToken() throws IOException {
      if (!input.incrementToken()) {
        return false;
      }
      frequency.setTermFrequency(units);
      return true;
    }
  }
}
