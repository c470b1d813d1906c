package dev.memhook.core.internal.compress;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryType;
import dev.memhook.lucene.internal.analysis.SimpleTokens;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Which held memory a correction replaces: among the candidates (the scope's best text matches for
 * the correction, best first), the first standing memory (not an observation, not a bug) that
 * shares at least {@value #MIN_SHARED} subject terms with it. Subject terms are the content words
 * ({@link SimpleTokens}, stop words left out) without the words of change themselves ("moved",
 * "now", "old", "switched"…) and words that name nothing ("where", "just", "about"…), a trailing
 * plural "s" folded, so "we deploy on Fridays" and "no more Friday deploys: releases go out on
 * Tuesdays now" share "deploy" and "friday".
 *
 * <p>The rule is deliberately narrow: a correction that shares no subject word with anything held
 * is stored as a new statement rather than replace an unrelated memory. Stateless and thread-safe.
 */
public final class Corrections {

  /** The fewest subject terms a correction shares with the memory it replaces: {@value}. */
  static final int MIN_SHARED = 1;

  private static final Set<String> CHANGE_WORDS =
      Set.of(
          "now",
          "moved",
          "move",
          "changed",
          "change",
          "switched",
          "switch",
          "replaced",
          "replace",
          "migrated",
          "migrate",
          "raised",
          "lowered",
          "renamed",
          "longer",
          "anymore",
          "more",
          "gone",
          "old",
          "new",
          "actually",
          "correction",
          "update",
          "updated",
          "since",
          "scratch",
          "instead",
          "from",
          "default",
          "last",
          "week",
          "month",
          "today",
          "team",
          "heads",
          "up",
          "btw",
          "fyi",
          "remember",
          "use",
          "uses",
          "used",
          "also",
          "all");

  /**
   * Words that name no subject and that {@link SimpleTokens#STOP_WORDS} keeps: "forgot where I left
   * off" shares "where" with a preference about exceptions, not a subject.
   */
  private static final Set<String> NO_SUBJECT =
      Set.of(
          "where", "why", "whose", "there", "here", "just", "anyway", "only", "some", "any", "can",
          "could", "would", "should", "must", "about", "over", "out", "off", "very", "again",
          "still", "each", "every", "one", "too", "much", "many");

  private Corrections() {}

  /** The memory among {@code candidates} that {@code correction} replaces, if any. */
  public static Optional<Memory> target(String correction, List<Memory> candidates) {
    Set<String> terms = subjectTerms(correction);
    for (Memory m : candidates) {
      if (!m.latest() || !standing(m.type())) {
        continue;
      }
      if (shared(terms, subjectTerms(m.content())) >= MIN_SHARED) {
        return Optional.of(m);
      }
    }
    return Optional.empty();
  }

  /** Whether {@code type} is a statement a correction may replace. */
  static boolean standing(MemoryType type) {
    return type != MemoryType.OBSERVATION && type != MemoryType.BUG;
  }

  /** Whether {@code a} and {@code b} speak of the same subject: they share a subject term. */
  static boolean sameSubject(String a, String b) {
    return shared(subjectTerms(a), subjectTerms(b)) >= MIN_SHARED;
  }

  static Set<String> subjectTerms(String text) {
    Set<String> out = new HashSet<>();
    for (String token : SimpleTokens.tokenize(text)) {
      String t = token.toLowerCase(Locale.ROOT);
      if (t.length() > 3 && t.endsWith("s") && !t.endsWith("ss")) {
        t = t.substring(0, t.length() - 1);
      }
      if (t.length() >= 2
          && !CHANGE_WORDS.contains(t)
          && !NO_SUBJECT.contains(t)
          && !SimpleTokens.STOP_WORDS.contains(t)) {
        out.add(t);
      }
    }
    return out;
  }

  private static int shared(Set<String> a, Set<String> b) {
    int n = 0;
    for (String t : a) {
      if (b.contains(t)) {
        n++;
      }
    }
    return n;
  }
}
