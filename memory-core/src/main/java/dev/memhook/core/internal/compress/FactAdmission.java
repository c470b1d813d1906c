package dev.memhook.core.internal.compress;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The filter a sentence passes before it is kept as a durable fact, preference or decision: it must
 * not be a question, a fragment or an agent's scaffolding. A memory made of "How do I run the
 * tests?", "src/App.java" or "Let me look at the build" would be recalled forever and help no one.
 *
 * <ul>
 *   <li><b>Question</b>: ends with {@code ?}, or starts with a question word (who, what, when,
 *       where, why, how, which) or an auxiliary that opens a question (can, could, should, would,
 *       do, does, did, is, are, …); "do not" and "don't" open instructions, not questions.
 *   <li><b>Fragment</b>: fewer than {@value #MIN_WORDS} words, no letters, a bare path, a command
 *       line (a known command first, then flags or no ordinary English words), or a lead-in that
 *       ends with a colon ("Root cause and fix, for the record:").
 *   <li><b>Scaffolding</b>: opens with what an agent says while it works ("Let me…", "I'll now…",
 *       "Now I will…", "Okay", "Sure", "Great", "Looking at…", "Running…").
 * </ul>
 *
 * <p>Stateless and thread-safe; looks at the first {@link Wording#WINDOW} characters only.
 */
public final class FactAdmission {

  /** Why a sentence is not admitted. */
  public enum Rejection {
    QUESTION,
    FRAGMENT,
    SCAFFOLDING
  }

  /** The fewest words a fact has: {@value}; "Use tabs" says too little to stand alone. */
  static final int MIN_WORDS = 4;

  /**
   * A sentence that only says something was found or fixed, not what: "I found the problem.",
   * "Found the culprit!", "I fixed the issue." What was found comes after it, if anywhere.
   */
  private static final Pattern EMPTY_FINDING =
      Pattern.compile(
          "(?:i(?:'ve| have)? )?(?:found|fixed|spotted|solved|located)"
              + " (?:it|(?:the|a|an) (?:problem|issue|bug|cause|culprit|reason|root cause|error))"
              + "[.!]*");

  private static final Set<String> QUESTION_WORDS =
      Set.of(
          "who", "what", "when", "where", "why", "how", "which", "whose", "whom", "can", "could",
          "should", "would", "will", "do", "does", "did", "is", "are", "was", "were", "may",
          "might", "shall", "have", "has", "isn't", "aren't", "doesn't", "can't", "won't", "what's",
          "where's", "who's", "how's", "when's", "why's", "which's", "what’s", "where’s", "who’s",
          "how’s", "when’s", "why’s");

  private static final List<String> SCAFFOLDING =
      List.of(
          "let me",
          "i'll",
          "i will now",
          "i will start",
          "now i will",
          "now i'll",
          "now let",
          "now, let",
          "okay",
          "ok,",
          "ok ",
          "sure",
          "great",
          "alright",
          "all right",
          "looking at",
          "running",
          "let's see",
          "let's check",
          "let's look",
          "first, let",
          "next, let",
          "i'm going to",
          "i am going to",
          "perfect",
          "got it",
          "done",
          "excellent",
          "good,",
          "good.",
          "now i",
          "i see",
          "hmm");

  private static final Set<String> COMMANDS =
      Set.of(
          "mvn",
          "./mvnw",
          "gradle",
          "./gradlew",
          "npm",
          "npx",
          "yarn",
          "pnpm",
          "node",
          "python",
          "python3",
          "pip",
          "pytest",
          "cargo",
          "go",
          "git",
          "cd",
          "ls",
          "cat",
          "grep",
          "rg",
          "find",
          "make",
          "docker",
          "kubectl",
          "java",
          "javac",
          "sed",
          "awk",
          "curl",
          "rm",
          "mv",
          "cp",
          "mkdir",
          "echo",
          "sudo",
          "bash",
          "sh",
          "$");

  private static final Set<String> ENGLISH =
      Set.of(
          "the", "a", "an", "is", "are", "was", "we", "i", "it", "to", "for", "of", "and", "our",
          "this", "that", "with", "in", "on", "be", "uses", "use", "should", "always", "never");

  private FactAdmission() {}

  /** Whether {@code sentence} may become a fact. */
  public static boolean admits(String sentence) {
    return rejection(sentence).isEmpty();
  }

  /** Why {@code sentence} may not become a fact, or empty if it may. */
  public static Optional<Rejection> rejection(String sentence) {
    String s = TextCuts.flat(sentence, Wording.WINDOW);
    String lower = s.toLowerCase(Locale.ROOT).replace('’', '\'');
    String[] words = lower.isEmpty() ? new String[0] : lower.split(" ");
    if (words.length == 0 || !hasLetter(lower)) {
      return Optional.of(Rejection.FRAGMENT);
    }
    if (lower.endsWith("?") || question(words)) {
      return Optional.of(Rejection.QUESTION);
    }
    for (String opener : SCAFFOLDING) {
      if (opensWith(lower, opener)) {
        return Optional.of(Rejection.SCAFFOLDING);
      }
    }
    if (EMPTY_FINDING.matcher(lower).matches()) {
      return Optional.of(Rejection.SCAFFOLDING);
    }
    if (words.length < MIN_WORDS || command(words) || leadIn(lower)) {
      return Optional.of(Rejection.FRAGMENT);
    }
    return Optional.empty();
  }

  /**
   * Whether {@code lower} ends with a colon (and at most a stop after it): it introduces what
   * follows ("Root cause and fix, for the record:", "Here is what I prefer:"), which is the fact if
   * anything is.
   */
  private static boolean leadIn(String lower) {
    int end = lower.length();
    while (end > 0 && ".!".indexOf(lower.charAt(end - 1)) >= 0) {
      end--;
    }
    return end > 0 && lower.charAt(end - 1) == ':';
  }

  /** Whether {@code lower} opens with {@code opener} as whole words ("sure", not "surefire"). */
  private static boolean opensWith(String lower, String opener) {
    if (!lower.startsWith(opener)) {
      return false;
    }
    char last = opener.charAt(opener.length() - 1);
    return !Character.isLetter(last)
        || lower.length() == opener.length()
        || !Character.isLetterOrDigit(lower.charAt(opener.length()));
  }

  private static boolean question(String[] words) {
    String first = stripPunctuation(words[0]);
    if (!QUESTION_WORDS.contains(first)) {
      return false;
    }
    // "Do not commit generated files." and "Don't use tabs." are instructions
    return !(first.equals("do") && words.length > 1 && words[1].startsWith("not"));
  }

  private static boolean command(String[] words) {
    if (!COMMANDS.contains(words[0])) {
      return false;
    }
    for (String w : words) {
      if (w.startsWith("-") || w.contains("/") || w.contains("=")) {
        return true;
      }
    }
    for (String w : words) {
      if (ENGLISH.contains(stripPunctuation(w))) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code word}, in lower case, is a command a command line opens with. */
  static boolean isCommand(String word) {
    return COMMANDS.contains(word);
  }

  static String stripPunctuation(String word) {
    int s = 0;
    int e = word.length();
    while (s < e && !Character.isLetterOrDigit(word.charAt(s)) && word.charAt(s) != '\'') {
      s++;
    }
    while (e > s && !Character.isLetterOrDigit(word.charAt(e - 1))) {
      e--;
    }
    return word.substring(s, e);
  }

  private static boolean hasLetter(String s) {
    for (int i = 0; i < s.length(); i++) {
      if (Character.isLetter(s.charAt(i))) {
        return true;
      }
    }
    return false;
  }
}
