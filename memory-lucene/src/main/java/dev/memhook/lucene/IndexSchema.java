package dev.memhook.lucene;

import dev.memhook.api.MemoryId;
import dev.memhook.api.spi.Embedding;
import dev.memhook.lucene.internal.analysis.CodeAwareAnalyzer;
import dev.memhook.lucene.internal.analysis.CodeAwareAnalyzer.Variant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.DelegatingAnalyzerWrapper;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.index.IndexOptions;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.ConstantScoreQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.search.similarities.PerFieldSimilarityWrapper;
import org.apache.lucene.search.similarities.Similarity;
import org.apache.lucene.util.BytesRef;

/**
 * What the index holds: the fields of its two kinds of document, how each is indexed, scored and
 * analysed, and the terms that find a memory by id. The layout is described in the {@linkplain
 * dev.memhook.lucene package documentation}; changing it changes {@link #FORMAT}.
 *
 * <p>The constants are the schema. An instance holds the analysis chains, which the documents, the
 * writer and the text query share so that a query is analysed exactly as the index was. Immutable
 * and thread-safe (Lucene analyzers reuse per-thread components); one per store.
 */
final class IndexSchema {
  /**
   * The index format this version writes, recorded in the commit user data. Format 2: weighted text
   * fields (BM25F), dot-product vectors, ids and live scopes in doc values. Format 3: memory
   * records encrypted with keys of their own ({@link #F_RECORD}, {@link RecordKeys}). A format 2
   * index is read and becomes format 3 when opened for writing (its plain records are read as they
   * are); a Memhook that reads only format 2 refuses a format 3 index.
   */
  static final String FORMAT = "3";

  /** The formats this version reads. */
  static final java.util.Set<String> READABLE_FORMATS = java.util.Set.of("2", FORMAT);

  static final String F_KIND = "kind";
  static final String KIND_MEMORY = "memory";
  static final String KIND_AUDIT = "audit";
  static final String F_ID = "id";

  /** The scope of a latest memory (keyword and sorted doc values); absent on other documents. */
  static final String F_LIVE = "live";

  /**
   * The stored record of an audit document, and of a memory stored before records were encrypted:
   * sealed JSON ({@link MemoryJson}).
   */
  static final String F_JSON = "json";

  /** The stored record of a memory: its JSON encrypted with its own key ({@link RecordCipher}). */
  static final String F_RECORD = "record";

  /**
   * The type of a memory (keyword), with {@link #F_IMPORTANCE} and {@link #F_CREATED} what a
   * listing by type filters and sorts on. Memories indexed before these fields existed have none of
   * them; {@link ListByType} reads those by their records.
   */
  static final String F_TYPE = "type";

  /** A memory's importance (double doc values): the listing's first sort key. */
  static final String F_IMPORTANCE = "importance";

  /**
   * When a memory version was stored, in nanoseconds since the epoch, saturated (numeric doc
   * values): the listing's second sort key, and how a document indexed with the listing's fields is
   * told from an older one.
   */
  static final String F_CREATED = "created";

  /**
   * A memory's source session (keyword and sorted doc values), absent without one: what {@link
   * SessionWindows} finds a session's memories by. Memories indexed before the field existed have
   * none, and are in no session's window until written again.
   */
  static final String F_SESSION = "session";

  /**
   * When the remembered thing happened, in nanoseconds since the epoch, saturated (numeric doc
   * values): a session's first sort key, {@link #F_CREATED} its second.
   */
  static final String F_OCCURRED = "occurred";

  static final String F_VECTOR = "vector";

  /**
   * The vectors of a memory's passages, a byte per dimension (binary doc values, encoded by {@link
   * PassageVectors}), absent on a memory stored without passages: what {@code passageCosines}
   * answers from. A memory indexed before the field existed has none, as if stored without, so
   * adding it left {@link #FORMAT} as it was (an older Memhook ignores the field).
   */
  static final String F_PASSAGES = "passages";

  static final String F_CONCEPT_KEY = "concept_key";
  static final String F_FILE_KEY = "file_key";
  static final String F_SHA = "sha";
  static final String F_AUDIT_ID = "audit_id";
  static final String F_AUDIT_SCOPE = "audit_scope";

  /** The weighted catch-all text field of every searchable part, code-aware analysis. */
  static final String F_TEXT = "text";

  /** The same parts with the exact (unsplit, unstemmed) analysis. */
  static final String F_TEXT_EXACT = "text_exact";

  /** The content, exact analysis, with positions: carries phrase matches. */
  static final String F_PHRASE = "phrase";

  /** The token of an empty text field; query analysis never produces control characters. */
  static final String PLACEHOLDER = "\u0001";

  /**
   * How vectors are compared: they are stored at unit length ({@link #unit}), and the dot product
   * of unit vectors is their cosine at less cost per comparison than Lucene's COSINE, which divides
   * by both norms every time.
   */
  static final VectorSimilarityFunction VECTOR_SIMILARITY = VectorSimilarityFunction.DOT_PRODUCT;

  /**
   * Weight units per 1.0 of field weight: a field of weight 1 adds this to a term's frequency per
   * occurrence. BM25's k1 is scaled by the same factor, so a lone field of weight 1 scores exactly
   * as plain BM25 would, and weights resolve to steps of 1/{@value}.
   */
  static final int WEIGHT_UNITS = 4;

  /** The weighted text fields: custom term frequencies (the weights) exclude positions. */
  static final FieldType WEIGHTED_TEXT_TYPE = weightedTextType();

  /** BM25 for the weighted fields: k1 scaled to the weight units, overlaps counted as tokens. */
  private static final BM25Similarity WEIGHTED_BM25 =
      new BM25Similarity(1.2f * WEIGHT_UNITS, 0.75f, false);

  /** Lucene's default BM25 for every other field. */
  private static final BM25Similarity PLAIN_BM25 = new BM25Similarity();

  /** The similarity of every field, at index and at search time. */
  static final Similarity SIMILARITY =
      new PerFieldSimilarityWrapper() {
        @Override
        public Similarity get(String name) {
          return name.equals(F_TEXT) || name.equals(F_TEXT_EXACT) ? WEIGHTED_BM25 : PLAIN_BM25;
        }
      };

  private final CodeAwareAnalyzer code = CodeAwareAnalyzer.of(Variant.CODE);
  private final CodeAwareAnalyzer exact = CodeAwareAnalyzer.of(Variant.EXACT);
  private final CodeAwareAnalyzer hexQuery = CodeAwareAnalyzer.of(Variant.HEX_QUERY);
  private final Analyzer indexAnalyzer =
      new FieldAnalyzer(code, exact, CodeAwareAnalyzer.of(Variant.HEX_INDEX));

  /** The code-aware chain: of {@link #F_TEXT}, and of the fields without a chain of their own. */
  CodeAwareAnalyzer code() {
    return code;
  }

  /** The exact chain: of {@link #F_TEXT_EXACT} and {@link #F_PHRASE}. */
  CodeAwareAnalyzer exact() {
    return exact;
  }

  /** The chain that finds SHAs in a query, to match {@link #F_SHA}. */
  CodeAwareAnalyzer hexQuery() {
    return hexQuery;
  }

  /** The writer's analyzer: each field's chain at index time. */
  Analyzer indexAnalyzer() {
    return indexAnalyzer;
  }

  /** The term that finds the memory {@code id} (and, once it is forgotten, nothing). */
  static Term idTerm(MemoryId id) {
    return new Term(F_ID, id.value());
  }

  /** A query for the documents of these memory ids. */
  static Query idsQuery(Collection<MemoryId> ids) {
    List<BytesRef> refs = new ArrayList<>(ids.size());
    for (MemoryId id : ids) {
      refs.add(new BytesRef(id.value()));
    }
    return new TermInSetQuery(F_ID, refs);
  }

  /** A concept as {@link #F_CONCEPT_KEY} holds it: concepts match whatever their case. */
  static String conceptKey(String concept) {
    return concept.toLowerCase(Locale.ROOT);
  }

  /**
   * A query scoring each memory by how many of {@code concepts} (in any case) and {@code files}
   * (exactly) it has, each counting 1; null if both are empty.
   */
  static Query sharedKeys(Set<String> concepts, Set<String> files) {
    Set<Term> terms = new LinkedHashSet<>();
    for (String c : concepts) {
      terms.add(new Term(F_CONCEPT_KEY, conceptKey(Objects.requireNonNull(c, "concepts element"))));
    }
    for (String f : files) {
      terms.add(new Term(F_FILE_KEY, Objects.requireNonNull(f, "files element")));
    }
    if (terms.isEmpty()) {
      return null;
    }
    BooleanQuery.Builder shared = new BooleanQuery.Builder();
    for (Term t : terms) {
      shared.add(
          new ConstantScoreQuery(new TermQuery(t)), Occur.SHOULD); // each share scores exactly 1
    }
    return shared.build();
  }

  /**
   * {@code e} scaled to unit length, as {@link #F_VECTOR} holds it (see {@link
   * #VECTOR_SIMILARITY}).
   */
  static float[] unit(Embedding e) {
    return e.normalized().toArray();
  }

  private static FieldType weightedTextType() {
    FieldType t = new FieldType();
    t.setTokenized(true);
    t.setStored(false);
    t.setOmitNorms(false);
    t.setIndexOptions(IndexOptions.DOCS_AND_FREQS);
    t.freeze();
    return t;
  }

  /** Routes each field to its analysis chain at index time. */
  private static final class FieldAnalyzer extends DelegatingAnalyzerWrapper {
    private final Analyzer code;
    private final Analyzer exact;
    private final Analyzer hexIndex;

    FieldAnalyzer(Analyzer code, Analyzer exact, Analyzer hexIndex) {
      super(PER_FIELD_REUSE_STRATEGY);
      this.code = code;
      this.exact = exact;
      this.hexIndex = hexIndex;
    }

    @Override
    protected Analyzer getWrappedAnalyzer(String fieldName) {
      if (fieldName.equals(F_SHA)) {
        return hexIndex;
      }
      // F_TEXT and F_TEXT_EXACT bring their own token streams (MemoryDocuments' weighted text)
      return fieldName.equals(F_PHRASE) ? exact : code;
    }
  }
}
