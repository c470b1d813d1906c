package dev.memhook.djl;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The text a retrieval model wants before a search query and before a stored text (a document), and
 * the name under which stores record that convention.
 *
 * <p>Asymmetric retrieval models are trained with such prefixes: BGE puts an instruction before
 * queries only, E5 marks queries with {@code "query: "} and passages with {@code "passage: "}.
 * Embedding without them, or with another model's, still gives vectors, only worse ones, so the
 * convention is part of the embedding space: {@link DjlEmbedder#modelId()} is the builder's model
 * id followed by {@code +} and {@link #name()} unless the prefixes are {@link #NONE}, and a store
 * built under one convention refuses an embedder with another.
 *
 * <p>The prefix is put before the text, and {@link DjlEmbedder} keeps it at the start of every
 * window of a long text. A non-empty prefix must end in whitespace, so that it is tokenised apart
 * from the text.
 *
 * <p>Immutable and thread-safe.
 *
 * <p>The constructor throws {@link IllegalArgumentException} if the name is malformed, a non-empty
 * prefix does not end in whitespace, or both prefixes are empty and the name is not {@code none}
 * (or the other way around).
 *
 * @param name what the convention is recorded as: lower-case letters, digits, {@code .} and {@code
 *     -}, starting with a letter or digit; {@code none} for {@link #NONE} only
 * @param query the prefix of search queries, possibly empty; not null
 * @param document the prefix of stored texts, possibly empty; not null
 */
public record TextPrefixes(String name, String query, String document) {
  // before the constants below, whose construction uses them
  private static final String NONE_NAME = "none";
  private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9.-]*");

  /** No prefixes: a symmetric model such as all-MiniLM-L6-v2. Adds nothing to the model id. */
  public static final TextPrefixes NONE = new TextPrefixes("none", "", "");

  /**
   * BGE English v1.5: {@value #BGE_QUERY_INSTRUCTION} before queries, nothing before documents, as
   * the BAAI model card says for retrieval. Named {@code bge-query-instruction}.
   */
  public static final TextPrefixes BGE_QUERY =
      new TextPrefixes("bge-query-instruction", TextPrefixes.BGE_QUERY_INSTRUCTION, "");

  /**
   * E5 (v2): {@code "query: "} before queries and {@code "passage: "} before documents, as the
   * intfloat model card says for asymmetric retrieval. Named {@code e5-query-passage}.
   */
  public static final TextPrefixes E5_QUERY_PASSAGE =
      new TextPrefixes("e5-query-passage", "query: ", "passage: ");

  /** BGE English v1.5's retrieval instruction for queries. */
  public static final String BGE_QUERY_INSTRUCTION =
      "Represent this sentence for searching relevant passages: ";

  /** Validates the convention. */
  public TextPrefixes {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(document, "document");
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "name must be lower-case letters, digits, '.' and '-', got '" + name + "'");
    }
    checkPrefix("query", query);
    checkPrefix("document", document);
    boolean empty = query.isEmpty() && document.isEmpty();
    if (empty != name.equals(NONE_NAME)) {
      throw new IllegalArgumentException(
          empty
              ? "empty prefixes are TextPrefixes.NONE, named 'none', not '" + name + "'"
              : "the name 'none' is for empty prefixes only");
    }
  }

  private static void checkPrefix(String which, String prefix) {
    if (!prefix.isEmpty() && !Character.isWhitespace(prefix.charAt(prefix.length() - 1))) {
      throw new IllegalArgumentException(
          which + " prefix must end in whitespace, got '" + prefix + "'");
    }
  }

  /** {@code modelId} with this convention: itself for {@link #NONE}, else {@code modelId+name}. */
  String qualify(String modelId) {
    return name.equals(NONE_NAME) ? modelId : modelId + "+" + name;
  }
}
