package dev.memhook.lucene.internal.analysis;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.cjk.CJKBigramFilter;
import org.apache.lucene.analysis.cjk.CJKWidthCharFilter;
import org.apache.lucene.analysis.core.FlattenGraphFilter;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.miscellaneous.LengthFilter;
import org.apache.lucene.analysis.miscellaneous.WordDelimiterGraphFilter;
import org.apache.lucene.analysis.ngram.EdgeNGramTokenFilter;
import org.apache.lucene.analysis.pattern.PatternCaptureGroupTokenFilter;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;

/**
 * The code-aware analysis chains of the Lucene store: Lucene's own components, and four small ones
 * of this package that do what a pattern-based Lucene component did, token for token, at a fraction
 * of the cost (every text a memory is indexed with runs through them).
 *
 * <h2>Design note</h2>
 *
 * Text a developer remembers mixes prose with code: paths, {@code camelCase} and {@code snake_case}
 * identifiers, error codes, commit SHAs, command lines, and sometimes Chinese or Japanese. A prose
 * tokenizer splits {@code src/middleware/AuthMiddleware.java} into pieces and loses the whole; a
 * keyword tokenizer loses the pieces. So every variant starts from one tokenizer that keeps code
 * tokens whole, and the {@link Variant#CODE} variant then adds the parts:
 *
 * <ol>
 *   <li>{@link CJKWidthCharFilter} folds full-width ASCII and half-width katakana.
 *   <li>{@link CodeTokenizer} emits runs of CJK characters, typed {@code <IDEOGRAPHIC>}, and runs
 *       of letters, digits, marks and {@code _ . / \ - @ # $ ~ + '} (so paths, identifiers, flags
 *       and SHAs stay whole); anything else (space, {@code , ; : ( ) [ ] { } < > = | " ` ! ? * & ^
 *       %}) separates tokens.
 *   <li>{@link CJKBigramFilter} turns the CJK runs into overlapping bigrams (a lone character stays
 *       a unigram), the standard dictionary-free approach for Chinese and Japanese.
 *   <li>{@link EdgeTrimFilter} trims leading and trailing punctuation ({@code AuthMiddleware.java.}
 *       at the end of a sentence, {@code -pl} as a flag), and {@link LengthFilter} drops what is
 *       left empty.
 *   <li>CODE only: {@link ShaKeywordFilter} marks hex tokens of 7 to 40 characters that hold a
 *       digit (commit SHAs) as keywords, so they are neither split nor stemmed.
 *   <li>CODE only: {@link PatternCaptureGroupTokenFilter} adds, for a path, each trailing suffix
 *       ({@code middleware/AuthMiddleware.java}, {@code AuthMiddleware.java}) and each segment
 *       without its extension ({@code AuthMiddleware}), so a partial path matches as a whole token.
 *   <li>CODE only: {@link WordDelimiterGraphFilter} keeps the original and adds the parts split on
 *       {@code / . _ -}, case changes and letter/digit changes, plus the catenated word parts
 *       ({@code auth_middleware} also yields {@code authmiddleware}), then {@link
 *       FlattenGraphFilter} flattens the graph for indexing.
 *   <li>{@link LowerCaseFilter}.
 *   <li>CODE only: {@link PorterStemFilter} ({@code tests → test}, {@code running → run}). The
 *       gentler KStem keeps {@code running} as it is (it is a dictionary word), which misses the
 *       commonest prose case; Porter's over-stemming of identifiers is harmless because the query
 *       goes through the same chain, and the EXACT variant rewards exact spellings. Keyword-marked
 *       tokens (SHAs) are not stemmed.
 * </ol>
 *
 * {@link Variant#EXACT} stops before the code-only steps: its positions are clean, so it carries
 * phrase queries (command lines such as {@code mvn -pl core test}) and exact-token boosts. {@link
 * Variant#HEX_INDEX} and {@link Variant#HEX_QUERY} only see hex tokens of 7 to 40 characters
 * holding a digit ({@link ShaTokenizer}); the index variant adds their edge n-grams from 7
 * characters up, so a 7-character SHA prefix in a query finds the full 40-character SHA as one
 * ordinary term lookup.
 *
 * <p>Immutable and thread-safe (Lucene analyzers reuse per-thread components). Not exported: an
 * internal class of {@code memory-lucene}.
 */
public final class CodeAwareAnalyzer extends Analyzer {

  /** The chains this class builds. */
  public enum Variant {
    /** Code-aware parts and English stemming: the main searchable fields. */
    CODE,
    /** Whole tokens, lower-cased, clean positions: exact boosts and phrases. */
    EXACT,
    /** Hex ids (commit SHAs) with their prefixes of 7 characters and more, for indexing. */
    HEX_INDEX,
    /** Hex ids (commit SHAs) as they are, for querying {@link #HEX_INDEX}. */
    HEX_QUERY
  }

  /** The shortest hex token treated as a commit SHA (git's default abbreviation). */
  public static final int MIN_SHA_LENGTH = 7;

  /** The longest hex token treated as a commit SHA (a full SHA-1). */
  public static final int MAX_SHA_LENGTH = 40;

  /** Each suffix after a path separator; the lookahead makes every separator a match. */
  private static final Pattern PATH_SUFFIX = Pattern.compile("[/\\\\](?=([^/\\\\]+.*))");

  /** Each path segment without its extension, for tokens holding a separator. */
  private static final Pattern PATH_SEGMENT =
      Pattern.compile("(?:^|[/\\\\])([^/\\\\.]+)(?=[./\\\\])");

  private static final int MAX_TOKEN_LENGTH = 255;
  private static final int WORD_DELIMITER_FLAGS =
      WordDelimiterGraphFilter.GENERATE_WORD_PARTS
          | WordDelimiterGraphFilter.GENERATE_NUMBER_PARTS
          | WordDelimiterGraphFilter.CATENATE_WORDS
          | WordDelimiterGraphFilter.SPLIT_ON_CASE_CHANGE
          | WordDelimiterGraphFilter.SPLIT_ON_NUMERICS
          | WordDelimiterGraphFilter.PRESERVE_ORIGINAL
          | WordDelimiterGraphFilter.STEM_ENGLISH_POSSESSIVE
          | WordDelimiterGraphFilter.IGNORE_KEYWORDS;

  private final Variant variant;

  private CodeAwareAnalyzer(Variant variant) {
    this.variant = variant;
  }

  /** A new analyzer of the given variant. */
  public static CodeAwareAnalyzer of(Variant variant) {
    return new CodeAwareAnalyzer(Objects.requireNonNull(variant, "variant"));
  }

  /** The variant this analyzer builds. */
  public Variant variant() {
    return variant;
  }

  @Override
  protected Reader initReader(String fieldName, Reader reader) {
    return new CJKWidthCharFilter(reader);
  }

  @Override
  protected TokenStreamComponents createComponents(String fieldName) {
    if (variant == Variant.HEX_INDEX || variant == Variant.HEX_QUERY) {
      Tokenizer hex = new ShaTokenizer();
      TokenStream stream = new LowerCaseFilter(hex);
      if (variant == Variant.HEX_INDEX) {
        stream = new EdgeNGramTokenFilter(stream, MIN_SHA_LENGTH, MAX_SHA_LENGTH, true);
      }
      return new TokenStreamComponents(hex, stream);
    }
    Tokenizer source = new CodeTokenizer();
    TokenStream stream = new CJKBigramFilter(source);
    stream = new EdgeTrimFilter(stream);
    stream = new LengthFilter(stream, 1, MAX_TOKEN_LENGTH);
    if (variant == Variant.CODE) {
      stream = new ShaKeywordFilter(stream);
      stream = new PatternCaptureGroupTokenFilter(stream, true, PATH_SUFFIX, PATH_SEGMENT);
      stream = new WordDelimiterGraphFilter(stream, WORD_DELIMITER_FLAGS, null);
      stream = new FlattenGraphFilter(stream);
    }
    stream = new LowerCaseFilter(stream);
    if (variant == Variant.CODE) {
      stream = new PorterStemFilter(stream);
    }
    return new TokenStreamComponents(source, stream);
  }

  @Override
  protected TokenStream normalize(String fieldName, TokenStream in) {
    return new LowerCaseFilter(in);
  }

  /**
   * The distinct terms {@code text} analyzes to, in first-seen order.
   *
   * @throws NullPointerException if an argument is null
   */
  public Set<String> terms(String field, String text) {
    Set<String> out = new LinkedHashSet<>();
    for (PositionedTerm t : positionedTerms(field, text)) {
      out.add(t.term());
    }
    return out;
  }

  /**
   * The terms {@code text} analyzes to, each with its position (stacked terms share one).
   *
   * @throws NullPointerException if an argument is null
   */
  public List<PositionedTerm> positionedTerms(String field, String text) {
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(text, "text");
    List<PositionedTerm> out = new ArrayList<>();
    try (TokenStream ts = tokenStream(field, text)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      PositionIncrementAttribute inc = ts.addAttribute(PositionIncrementAttribute.class);
      ts.reset();
      int position = -1;
      while (ts.incrementToken()) {
        position += inc.getPositionIncrement();
        out.add(new PositionedTerm(term.toString(), Math.max(position, 0)));
      }
      ts.end();
    } catch (IOException e) {
      // Analysis reads from a String; an IOException here is a programming error in the chain.
      throw new UncheckedIOException("analysis of an in-memory string failed", e);
    }
    return out;
  }

  /**
   * One analyzed term and its position.
   *
   * @param term the term text, non-null
   * @param position the zero-based position
   */
  public record PositionedTerm(String term, int position) {
    /** Validates the term. */
    public PositionedTerm {
      Objects.requireNonNull(term, "term");
    }
  }

  @Override
  public String toString() {
    return "CodeAwareAnalyzer[" + variant + "]";
  }
}
