package dev.memhook.lucene;

/**
 * The parts of a memory that {@link LuceneMemoryStore#searchText} searches, each with its default
 * weight. Beside title, summary and content, a memory is findable by what it carries: who said it,
 * the session, its attributes and the date it happened.
 *
 * <p>The parts are indexed together as one weighted text field (BM25F): each occurrence of a term
 * in a part counts {@code weight} times towards the term's frequency and the document's length, so
 * a query costs one term lookup per query term, not one per term and part. Weights are therefore
 * fixed when a memory is indexed; the index records them and refuses to open with others.
 *
 * <p>Immutable and thread-safe.
 */
public enum SearchField {
  /** The title; boost 2: a short, deliberate description. */
  TITLE("title", 2.0f),
  /** The summary; boost 1.5. */
  SUMMARY("summary", 1.5f),
  /** The full content; boost 1. */
  CONTENT("content", 1.0f),
  /** The concept tags; boost 1.5: chosen words. */
  CONCEPTS("concepts", 1.5f),
  /** The file paths and source pin paths; boost 1.5. */
  FILES("files", 1.5f),
  /** Who said it (speaker, agent or tool); boost 2: a question naming a person is about them. */
  SPEAKER("speaker", 2.0f),
  /** The source session id; boost 0.5: rarely what a question names. */
  SESSION("session", 0.5f),
  /** What came just before (the previous turn); boost 0.5: weaker than its own words. */
  CONTEXT("context", 0.5f),
  /** Attribute keys and values; boost 1. */
  ATTRIBUTES("attributes", 1.0f),
  /** When it happened, as text ({@code Monday 8 May 2023 2023-05-08}, UTC); boost 1. */
  DATE("date", 1.0f);

  private final String fieldName;
  private final float defaultBoost;

  SearchField(String fieldName, float defaultBoost) {
    this.fieldName = fieldName;
    this.defaultBoost = defaultBoost;
  }

  /** The default boost of this field. */
  public float defaultBoost() {
    return defaultBoost;
  }

  String fieldName() {
    return fieldName;
  }
}
