package dev.memhook.postgres;

import dev.memhook.api.Memory;
import dev.memhook.lucene.CodeAwareTerms;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What the PostgreSQL full-text search sees of a memory and of a query: both analysed in Java by
 * {@link CodeAwareTerms}, the Lucene store's splitting, and handed to PostgreSQL as the literal of
 * a {@code tsvector} or {@code tsquery} in a statement parameter ({@code ?::tsvector}).
 * PostgreSQL's own parser and dictionaries never see the user's text, so a query cannot carry query
 * syntax, and a path or identifier is split the same way in both stores.
 *
 * <h2>Weights and the ceiling</h2>
 *
 * The parts are the Lucene store's searched parts ({@code SearchField}), each with a {@code
 * tsvector} weight label, ranked by {@code ts_rank} with {@link #RANK_WEIGHTS}: title and speaker A
 * (1); summary, concepts, files and source pin paths B (0.75); content, attributes and the date it
 * happened C (0.5); session and context D (0.25): the ratios of the Lucene store's default boosts.
 * For a disjunction, {@code ts_rank} with normalization 0 adds, for each distinct query term a
 * memory holds, {@code (w_m + r - w_m / (m+1)^2) / (pi^2/6)}, where {@code r} sums {@code w_j /
 * (j+1)^2} over the term's occurrences {@code j = 0, 1, ...} in position order and {@code m} is the
 * first occurrence of the highest weight {@code w_m}; then it divides the sum by the number of
 * distinct query terms, which the store multiplies back, so that a score is the sum of the matched
 * terms' shares. The parts are laid out in order of non-increasing weight (title first, context
 * last), so a term's first occurrence has its highest weight, {@code m = 0}, and its share is
 * {@code r / (pi^2/6)}, below the highest weight, 1. A term repeated in the title approaches 1; one
 * occurrence in the content alone scores about 0.3.
 *
 * <p>{@link #ceiling} is the number of distinct query terms: every term counts as if the scope held
 * it at the highest weight, also one that no memory of the scope holds. That follows the Lucene
 * store, which counts a content term the scope lacks as the rarest match could have been: a word of
 * the question that the scope lacks is evidence that the scope cannot answer it, and the relevance
 * gate's text floors were chosen with that rule. Counting only the terms the scope holds let far
 * more off-topic recalls through the gate on the coding dev set (see {@code
 * benchmarks/RESULTS.md}). The ceiling depends on the analysed query alone, so no scope's writes
 * move another's gate.
 *
 * <p>Stateless and thread-safe.
 */
final class TextTerms {
  /** {@code ts_rank}'s weights for labels D, C, B and A, in that order. */
  static final String RANK_WEIGHTS = "{0.25,0.5,0.75,1.0}";

  /**
   * The most that one distinct query term adds to a raw rank, before the division: the highest
   * weight (see the class note for why).
   */
  static final double TERM_BOUND = 1.0;

  /** Room for {@code ts_rank}'s single-precision arithmetic. */
  private static final double FLOAT_MARGIN = 1e-4;

  /** PostgreSQL keeps at most this many positions per lexeme; more are dropped by us, not it. */
  private static final int MAX_POSITIONS_PER_TERM = 255;

  /** The highest position a {@code tsvector} records. */
  private static final int MAX_POSITION = 16_383;

  private static final DateTimeFormatter LONG_DATE =
      DateTimeFormatter.ofPattern("EEEE d MMMM yyyy", Locale.ENGLISH);

  /**
   * The first and the last instant that fall on a calendar date: {@link Instant#MIN} and {@link
   * Instant#MAX}, which a host may give a memory whose time it does not know, lie beyond them.
   */
  private static final Instant FIRST_DATED = LocalDate.MIN.atStartOfDay(ZoneOffset.UTC).toInstant();

  private static final Instant LAST_DATED =
      LocalDate.MAX.atTime(LocalTime.MAX).toInstant(ZoneOffset.UTC);

  private TextTerms() {}

  /**
   * The {@code tsvector} literal of {@code m}: every analysed term of its parts, each occurrence at
   * its own position with its part's weight label. The parts go in order of non-increasing weight,
   * which {@link #ceiling} relies on.
   */
  static String vectorOf(Memory m) {
    Map<String, StringBuilder> positions = new LinkedHashMap<>();
    Map<String, Integer> counts = new LinkedHashMap<>();
    int[] next = {1};
    add(positions, counts, next, m.title(), 'A');
    add(positions, counts, next, m.origin().name() == null ? "" : m.origin().name(), 'A');
    add(positions, counts, next, m.summary(), 'B');
    add(positions, counts, next, String.join("\n", m.concepts()), 'B');
    Set<String> paths = new LinkedHashSet<>(m.files());
    m.sourcePins().forEach(p -> paths.add(p.path()));
    add(positions, counts, next, String.join("\n", paths), 'B');
    add(positions, counts, next, m.content(), 'C');
    StringBuilder attributes = new StringBuilder();
    m.attributes().forEach((k, v) -> attributes.append(k).append(' ').append(v).append('\n'));
    add(positions, counts, next, attributes.toString(), 'C');
    add(positions, counts, next, dateText(m), 'C');
    add(positions, counts, next, m.sourceSession() == null ? "" : m.sourceSession(), 'D');
    add(positions, counts, next, m.context(), 'D');
    StringBuilder out = new StringBuilder();
    positions.forEach(
        (term, at) -> {
          if (out.length() > 0) {
            out.append(' ');
          }
          out.append(quoted(term)).append(':').append(at);
        });
    return out.toString();
  }

  /**
   * When it happened, as words and as an ISO date, in UTC: the Lucene store's date field; nothing
   * for an instant beyond {@link #FIRST_DATED} and {@link #LAST_DATED}, which no date names.
   */
  private static String dateText(Memory m) {
    Instant at = m.occurredAt();
    if (at.isBefore(FIRST_DATED) || at.isAfter(LAST_DATED)) {
      return ""; // no date names it
    }
    ZonedDateTime t = at.atZone(ZoneOffset.UTC);
    return LONG_DATE.format(t) + " " + DateTimeFormatter.ISO_LOCAL_DATE.format(t);
  }

  private static void add(
      Map<String, StringBuilder> positions,
      Map<String, Integer> counts,
      int[] next,
      String text,
      char weight) {
    if (text.isEmpty()) {
      return;
    }
    for (String term : CodeAwareTerms.indexTerms(text)) {
      int count = counts.merge(term, 1, Integer::sum);
      int position = Math.min(next[0]++, MAX_POSITION);
      if (count <= MAX_POSITIONS_PER_TERM) {
        StringBuilder at = positions.computeIfAbsent(term, t -> new StringBuilder());
        if (at.length() > 0) {
          at.append(',');
        }
        at.append(position).append(weight);
      }
    }
  }

  /** The distinct analysed terms of a search for {@code text}; empty if it has none. */
  static List<String> queryTerms(String text) {
    return CodeAwareTerms.queryTerms(text);
  }

  /** Each term as a one-operand {@code tsquery} literal. */
  static List<String> operands(List<String> terms) {
    List<String> out = new ArrayList<>(terms.size());
    for (String t : terms) {
      out.add(quoted(t));
    }
    return out;
  }

  /** The disjunction of {@code terms} as a {@code tsquery} literal. */
  static String disjunction(List<String> terms) {
    return String.join(" | ", operands(terms));
  }

  /** The ceiling of a search of {@code queryTerms} distinct terms; see the class note. */
  static double ceiling(int queryTerms) {
    return TERM_BOUND * queryTerms * (1 + FLOAT_MARGIN);
  }

  /**
   * A lexeme quoted for the {@code tsvector} and {@code tsquery} input syntax: in single quotes, a
   * quote doubled and a backslash escaped, so it is always one lexeme whatever it holds.
   */
  static String quoted(String term) {
    return "'" + term.replace("\\", "\\\\").replace("'", "''") + "'";
  }
}
