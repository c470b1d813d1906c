package dev.memhook.core.internal.inject.excerpt;

import dev.memhook.api.Memory;
import dev.memhook.core.internal.compress.TaskNote;
import dev.memhook.core.internal.compress.TextCuts;
import dev.memhook.core.internal.recall.words.QueryWords;
import dev.memhook.lucene.internal.analysis.SimpleTokens;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The excerpt of a memory's content that holds what a message asked about: the words a summary
 * call's {@code focus} names. A summary is written once, when the memory is stored, and says what
 * the memory is about; the line a later question needs (the fix at the end of a bug report, one
 * version in a lock file, one rule of a contributing guide) is often further in. The excerpt puts
 * that line beside the summary, so the model sees it without fetching the memory in full.
 *
 * <p>The words are a query's, as {@link QueryWords} reads them: the hook names them in a summary
 * call's {@code focus}, and {@link #of} takes them back as {@link QueryWords#terms}.
 *
 * <h2>The excerpt</h2>
 *
 * The note that closes a memory made for a task, quoting that task ({@link TaskNote}: "(Read for
 * the task "…".)"), is left out: its words are an earlier request's, which match a later request by
 * design and would outscore the rule it needs. The rest of the content is cut into units: its
 * lines, and a line longer than {@value #MAX_EXCERPT_CHARS} characters into its sentences, and a
 * sentence longer than that into pieces at spaces. An excerpt is a run of consecutive units of at
 * most {@value #MAX_EXCERPT_CHARS} characters (whitespace collapsed) that begins and ends with a
 * unit holding a term. It scores the sum, over the distinct terms it holds, of each term's rarity
 * among the memory's own units ({@code ln(1 + units / units holding the term)}), so that a lock
 * file's one line naming the package outweighs the many lines naming a version, and a run holding
 * both wins. The best run that the title and summary do not already show is taken, and the units it
 * opens with that they show are left out of its excerpt: a summary is the content's opening, so a
 * run found there (a rules memory's list of sections, "Commits;"; a lock file's first package) goes
 * on past it, and the excerpt shows that part only. A tie goes to the run that opens with the rarer
 * unit (a block is read from the line naming its subject: a package, then its version, not the
 * version before it), then to the shorter, then to the earlier. The run taken then goes on through
 * the units that follow it on its own line while the bound allows. A line is a block as its author
 * wrote it (a flattened guide is one line of sentences), and the sentence after a matched rule
 * often holds what the rule asks for without repeating the question's words ("`modules/` — reusable
 * modules. Name them `modules/gcp-<thing>`."); the next line is another block (a lock file's next
 * package) and is never added. An excerpt that does not begin with the content's first text or end
 * with its last is marked with {@code …} there. No term in the content, or nothing the summary does
 * not show: no excerpt.
 *
 * <p>The chat hook's summary call ({@code core.internal.inject.GetMemoryTool}) and the coding-agent
 * hook's answers ({@code memhook hook}, to which this package is exported) choose their excerpts
 * here. Linear in the content's length times the units an excerpt can span. Stateless and
 * thread-safe; null is never accepted.
 */
public final class Excerpts {

  /** What marks an excerpt's end that is not the content's. */
  public static final String ELLIPSIS = "\u2026";

  /** The longest excerpt, in characters of text (before JSON escaping). */
  public static final int MAX_EXCERPT_CHARS = 300;

  private Excerpts() {}

  /**
   * The excerpt of {@code m}'s content for {@code terms} (from {@link QueryWords#terms}), or an
   * empty string when there is none to show.
   */
  public static String of(Memory m, List<String> terms) {
    if (terms.isEmpty()) {
      return "";
    }
    Map<String, Integer> bits = new LinkedHashMap<>();
    for (String t : terms) {
      if (bits.size() < QueryWords.MAX_TERMS) {
        bits.putIfAbsent(t, bits.size());
      }
    }
    String content = m.content();
    int end = TaskNote.start(content);
    List<Unit> units = units(content.substring(0, end));
    int n = units.size();
    int[] masks = new int[n];
    int[] holding = new int[bits.size()];
    for (int i = 0; i < n; i++) {
      String text = units.get(i).text();
      if (!mayHold(text.toLowerCase(Locale.ROOT), bits.keySet())) {
        continue; // most units hold no term: a scan for each is cheaper than their tokens
      }
      for (String token : SimpleTokens.tokenize(text)) {
        Integer bit = bits.get(QueryWords.term(token));
        if (bit != null) {
          masks[i] |= 1 << bit;
        }
      }
      for (int b = 0; b < holding.length; b++) {
        if ((masks[i] & (1 << b)) != 0) {
          holding[b]++;
        }
      }
    }
    double[] rarity = new double[holding.length];
    for (int b = 0; b < holding.length; b++) {
      rarity[b] = holding[b] == 0 ? 0 : Math.log(1 + (double) n / holding[b]);
    }
    String shown =
        TextCuts.flat(m.title(), Integer.MAX_VALUE)
            + "\n"
            + TextCuts.flat(m.summary(), Integer.MAX_VALUE);
    int bestFrom = -1;
    int bestTo = -1;
    double bestScore = 0;
    double bestLead = 0;
    int bestLength = Integer.MAX_VALUE;
    for (int i = 0; i < n; i++) {
      if (masks[i] == 0) {
        continue;
      }
      double lead = score(masks[i], rarity);
      int mask = 0;
      int length = -1;
      for (int j = i; j < n; j++) {
        length += 1 + units.get(j).text().length();
        if (length > MAX_EXCERPT_CHARS) {
          break;
        }
        mask |= masks[j];
        if (masks[j] == 0) {
          continue;
        }
        double score = score(mask, rarity);
        boolean better =
            score > bestScore + 1e-9
                || (score > bestScore - 1e-9
                    && (lead > bestLead + 1e-9 || (lead > bestLead - 1e-9 && length < bestLength)));
        if (!better) {
          continue;
        }
        int from = i;
        while (from <= j && shown.contains(units.get(from).text())) {
          from++; // the summary shows how the run opens: the excerpt starts where it does not
        }
        if (from > j || shown.contains(join(units, from, j))) {
          continue;
        }
        bestFrom = from;
        bestTo = j;
        bestScore = score;
        bestLead = lead;
        bestLength = length;
      }
    }
    if (bestFrom < 0) {
      return "";
    }
    int to = bestTo;
    int length = join(units, bestFrom, bestTo).length();
    while (to + 1 < n
        && units.get(to + 1).line() == units.get(to).line()
        && length + 1 + units.get(to + 1).text().length() <= MAX_EXCERPT_CHARS) {
      length += 1 + units.get(++to).text().length();
    }
    return (bestFrom > 0 ? ELLIPSIS : "")
        + join(units, bestFrom, to)
        + (to < n - 1 || end < content.length() ? ELLIPSIS : "");
  }

  /**
   * Whether {@code lower} (a unit, lower-cased) contains some term: a token whose {@link
   * QueryWords#term} is a term holds the term, so a unit without any holds no such token (but for a
   * Greek word whose final sigma lower-cases differently inside the unit than alone, which may lose
   * its excerpt).
   */
  private static boolean mayHold(String lower, Set<String> terms) {
    for (String t : terms) {
      if (lower.contains(t)) {
        return true;
      }
    }
    return false;
  }

  private static double score(int mask, double[] rarity) {
    double s = 0;
    for (int b = 0; b < rarity.length; b++) {
      if ((mask & (1 << b)) != 0) {
        s += rarity[b];
      }
    }
    return s;
  }

  /**
   * A unit of content: its text with whitespace collapsed, never empty, and the number of the line
   * it is (or is part of).
   */
  private record Unit(String text, int line) {}

  private static List<Unit> units(String content) {
    List<Unit> out = new ArrayList<>();
    int lineStart = 0;
    for (int line = 0; lineStart <= content.length(); line++) {
      int newline = content.indexOf('\n', lineStart);
      int lineEnd = newline < 0 ? content.length() : newline;
      splitLine(content, lineStart, lineEnd, line, out);
      if (newline < 0) {
        break;
      }
      lineStart = newline + 1;
    }
    return out;
  }

  /** Adds the units of {@code content[from, to)}: itself, or its sentences, or their pieces. */
  private static void splitLine(String content, int from, int to, int line, List<Unit> out) {
    if (to - from <= MAX_EXCERPT_CHARS) {
      add(content, from, to, line, out);
      return;
    }
    int start = from;
    for (int i = from; i < to - 1; i++) {
      char c = content.charAt(i);
      if ((c == '.' || c == '!' || c == '?' || c == ';')
          && Character.isWhitespace(content.charAt(i + 1))) {
        splitSentence(content, start, i + 1, line, out);
        start = i + 1;
      }
    }
    splitSentence(content, start, to, line, out);
  }

  /** Adds {@code content[from, to)} in pieces of at most the longest excerpt, cut at spaces. */
  private static void splitSentence(String content, int from, int to, int line, List<Unit> out) {
    int start = from;
    while (to - start > MAX_EXCERPT_CHARS) {
      int cut = content.lastIndexOf(' ', start + MAX_EXCERPT_CHARS);
      if (cut <= start) {
        cut = start + MAX_EXCERPT_CHARS;
        if (Character.isLowSurrogate(content.charAt(cut))) {
          cut--;
        }
      }
      add(content, start, cut, line, out);
      start = cut;
    }
    add(content, start, to, line, out);
  }

  private static void add(String content, int from, int to, int line, List<Unit> out) {
    String text = TextCuts.flat(content.substring(from, to), Integer.MAX_VALUE);
    if (!text.isEmpty()) {
      out.add(new Unit(text, line));
    }
  }

  private static String join(List<Unit> units, int from, int to) {
    StringBuilder b = new StringBuilder(units.get(from).text());
    for (int k = from + 1; k <= to; k++) {
      b.append(' ').append(units.get(k).text());
    }
    return b.toString();
  }
}
