package dev.memhook.core.internal.compress;

import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEventType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Which accepted events become observations, the memories recall and the hook may offer: an event
 * that is noise is still journaled and kept in its session (its times, and a prompt as the
 * session's first prompt or as the context of the next stored turn), but stored as no memory.
 *
 * <ul>
 *   <li><b>Scaffolding</b>: a session start or end that carries no message ("Session started in
 *       shop", "SessionEnd"); the session record says when it began and ended.
 *   <li><b>Acknowledgement</b>: a prompt or an answer made only of courtesy, acknowledgement and
 *       closing words, at most {@value #MAX_ACK_WORDS} of them, with no digit ("thanks, that's all
 *       for now", "Done. Anything else?", "Noted, I'll keep that in mind.", "All set. Let me know
 *       if you want anything else."), or of an assessment that nothing stands out ("Looks like a
 *       standard setup; nothing unusual stands out. Ready when you are."). Such a turn answers
 *       nothing a later session asks, yet its generic words make it close to many questions. One
 *       content word keeps it ("thanks — also, we use pnpm not npm"; "the setup looks standard
 *       except for the proxy"). So is a reaction made of signs alone ("👍") or of relief that
 *       something works ("works now 🙏", "ugh. thanks", "lgtm").
 *   <li><b>Tool narration</b>: an answer that only names the command it runs or ran ("Running git
 *       status", "Ran `pnpm install`."): a narration verb, then a command line of at most {@value
 *       #MAX_NARRATION_WORDS} words with no sentence after it; the tool's own event says more.
 *   <li><b>Working-tree state</b>: a run of {@code git status} (with flags only, no pipe): what is
 *       uncommitted at that moment, which the next commit, checkout or edit changes. A later
 *       session that is offered it reads a stale state, and its text ("use \"git add <file>...\" to
 *       update what will be committed") is close to every git question. The session's edits and its
 *       summary say what changed.
 *   <li><b>Question</b>: a prompt or an answer each sentence of which is a question by {@link
 *       FactAdmission} ("how do I add lodash?", the agent's "Should I put it in a controllers
 *       package, or next to RedemptionService?"). It stays the context of the next stored turn, so
 *       the answer is found with it, but it is never recalled as if it answered a later question.
 * </ul>
 *
 * A tool start whose end follows is not noise but half of one tool run; the capture worker pairs
 * them ({@code ToolRuns}). Stateless and thread-safe; looks at the first {@link Wording#WINDOW}
 * characters of a text.
 */
public final class NoiseAdmission {

  /** Why an event is not stored as an observation. */
  public enum Rejection {
    SCAFFOLDING,
    ACKNOWLEDGEMENT,
    TOOL_NARRATION,
    WORKING_TREE_STATE,
    QUESTION
  }

  /** The most words an acknowledgement has: {@value}; a longer text says something. */
  static final int MAX_ACK_WORDS = 16;

  /** The most words of a narrated command line: {@value}. */
  static final int MAX_NARRATION_WORDS = 8;

  /** Words a courtesy or an acknowledgement is made of, and nothing else. */
  private static final Set<String> COURTESY =
      Set.of(
          "thanks",
          "thank",
          "thx",
          "ty",
          "you",
          "u",
          "so",
          "much",
          "very",
          "a",
          "lot",
          "cheers",
          "ok",
          "okay",
          "k",
          "kk",
          "great",
          "good",
          "cool",
          "nice",
          "perfect",
          "awesome",
          "excellent",
          "wonderful",
          "fantastic",
          "brilliant",
          "sweet",
          "fine",
          "sounds",
          "looks",
          "seems",
          "right",
          "alright",
          "all",
          "sure",
          "yes",
          "yeah",
          "yep",
          "yup",
          "no",
          "nope",
          "done",
          "got",
          "it",
          "understood",
          "noted",
          "will",
          "do",
          "that",
          "that's",
          "thats",
          "is",
          "it's",
          "this",
          "for",
          "now",
          "anything",
          "else",
          "something",
          "more",
          "let",
          "me",
          "know",
          "if",
          "need",
          "there",
          "there's",
          "any",
          "other",
          "questions",
          "help",
          "i",
          "i'm",
          "can",
          "could",
          "may",
          "assist",
          "with",
          "further",
          "glad",
          "happy",
          "to",
          "hi",
          "hello",
          "hey",
          "bye",
          "goodbye",
          "see",
          "later",
          "again",
          "appreciate",
          "appreciated",
          "welcome",
          "you're",
          "problem",
          "worries",
          "np",
          "please",
          "wow",
          "oh",
          "well",
          "then",
          "we're",
          "have",
          "day",
          "just",
          "and",
          "really",
          "here",
          // closing an exchange: readiness, completion, a promise to keep what was said
          "anytime",
          "set",
          "finished",
          "want",
          "ready",
          "when",
          "are",
          "i'll",
          "keep",
          "mind",
          "in",
          "use",
          "from",
          "on",
          "remember",
          "going",
          "forward",
          // an assessment that found nothing to say
          "like",
          "standard",
          "normal",
          "typical",
          "usual",
          "unusual",
          "nothing",
          "stands",
          "out",
          "obvious",
          "issues",
          "everything",
          "setup",
          "enough",
          // relief or approval when something is fixed, and nothing more
          "lgtm",
          "ugh",
          "phew",
          "yay",
          "ah",
          "finally",
          "works",
          "worked",
          "makes",
          "sense",
          "gotcha",
          "leave",
          "telling",
          "walking",
          "through",
          "better",
          "actually");

  /** How an answer narrating a tool run opens. */
  private static final List<String> NARRATION =
      List.of(
          "let me run",
          "i'll run",
          "i will run",
          "now running",
          "now i'll run",
          "i ran",
          "i'm running",
          "i am running",
          "running",
          "ran",
          "executing",
          "executed",
          "invoking",
          "calling");

  /** Words that make a narrated command say why or where: then it says something. */
  private static final Set<String> CONNECTIVES =
      Set.of(
          "to", "so", "because", "since", "and", "then", "which", "that", "for", "after", "before",
          "while", "until", "in", "on", "with", "but", "again", "now");

  private NoiseAdmission() {}

  /** Why an event of {@code type} carrying {@code data} is noise, or empty if it is admitted. */
  public static Optional<Rejection> rejection(LifecycleEventType type, EventData data) {
    return switch (type) {
      case SESSION_START, SESSION_END ->
          blank(data.message()) || acknowledgement(data.message())
              ? Optional.of(Rejection.SCAFFOLDING)
              : Optional.empty();
      case PROMPT_SUBMIT -> {
        String prompt = data.prompt();
        if (blank(prompt)) {
          yield Optional.empty();
        }
        if (acknowledgement(prompt)) {
          yield Optional.of(Rejection.ACKNOWLEDGEMENT);
        }
        yield question(prompt) ? Optional.of(Rejection.QUESTION) : Optional.empty();
      }
      case AGENT_RESPONSE -> {
        String message = data.message();
        if (blank(message)) {
          yield Optional.empty();
        }
        if (acknowledgement(message)) {
          yield Optional.of(Rejection.ACKNOWLEDGEMENT);
        }
        if (question(message)) {
          yield Optional.of(Rejection.QUESTION);
        }
        yield narration(message) ? Optional.of(Rejection.TOOL_NARRATION) : Optional.empty();
      }
      case POST_TOOL_USE ->
          workingTreeState(data.input())
              ? Optional.of(Rejection.WORKING_TREE_STATE)
              : Optional.empty();
      default -> Optional.empty();
    };
  }

  /** Whether a tool's {@code input} runs {@code git status} with flags only and nothing else. */
  static boolean workingTreeState(String input) {
    if (input == null || input.isBlank() || input.length() > Wording.WINDOW) {
      return false;
    }
    String command = ToolPayload.of(input).field("command", "cmd", "script").strip();
    if (command.isEmpty()
        || command.length() > 200
        || command.contains("\n")
        || !ToolFamily.singleCommand(command)) {
      return false;
    }
    String[] words = command.split("\\s+");
    if (words.length < 2 || !ToolFamily.firstWord(words[0]).equals("git")) {
      return false;
    }
    int at = 1;
    while (at < words.length && words[at].startsWith("-")) {
      at++; // git's own options before the command (--no-pager); "-C dir" makes it another
    }
    if (at >= words.length || !words[at].equals("status")) {
      return false;
    }
    for (int i = at + 1; i < words.length; i++) {
      if (!words[i].startsWith("-")) {
        return false; // a pathspec: the state of those paths, asked on purpose
      }
    }
    return true;
  }

  /** Whether {@code text} is made only of courtesy words, few of them, with no digit. */
  static boolean acknowledgement(String text) {
    String lower = lower(text);
    List<String> words = words(lower);
    if (words.isEmpty()) {
      return signsOnly(lower);
    }
    if (words.size() > MAX_ACK_WORDS) {
      return false;
    }
    for (int i = 0; i < lower.length(); i++) {
      char c = lower.charAt(i);
      if (Character.isDigit(c) || c == '/' || c == '`' || c == '=' || c == '_' || c == '@') {
        return false;
      }
    }
    return words.stream().allMatch(COURTESY::contains);
  }

  /**
   * Whether {@code lower}, holding no word, is a reaction made of signs alone ("👍", "🙏🙏", "!"):
   * something other than blanks, and no digit or letter-like mark that could name anything. A code
   * or a path has letters or digits, so it is never one.
   */
  private static boolean signsOnly(String lower) {
    String s = TextCuts.flat(lower, Wording.WINDOW);
    if (s.isBlank()) {
      return false;
    }
    return s.codePoints().noneMatch(c -> Character.isLetterOrDigit(c));
  }

  /** Whether {@code text} is a narration verb and a bare command line, nothing more. */
  static boolean narration(String text) {
    String lower = TextCuts.flat(lower(text), Wording.WINDOW);
    for (String opener : NARRATION) {
      if (lower.startsWith(opener + " ")) {
        String rest = lower.substring(opener.length() + 1).strip();
        rest = rest.replaceAll("[.:…!]+$", "").strip();
        boolean quoted = rest.startsWith("`") || rest.startsWith("\"") || rest.startsWith("'");
        rest = rest.replace("`", " ").replace("\"", " ").strip();
        if (rest.isEmpty() || rest.contains(". ") || rest.contains("\n")) {
          return false;
        }
        String[] words = rest.split("\\s+");
        if (words.length > MAX_NARRATION_WORDS || !(quoted || FactAdmission.isCommand(words[0]))) {
          return false;
        }
        for (int i = 1; i < words.length; i++) {
          if (CONNECTIVES.contains(FactAdmission.stripPunctuation(words[i]))) {
            return false;
          }
        }
        return true;
      }
    }
    return false;
  }

  /**
   * Whether every sentence of {@code text} is a question, and no clause of it states something to
   * keep: "the coupon service moved, it's promo-svc:7070 now Anyway, can you tidy up the helpers?"
   * ends with a question mark, but its first clause is a statement ({@link Statements}).
   */
  static boolean question(String text) {
    List<String> sentences = TextCuts.sentences(text, Wording.WINDOW);
    if (sentences.isEmpty()) {
      return false;
    }
    for (String s : sentences) {
      if (FactAdmission.rejection(s).orElse(null) != FactAdmission.Rejection.QUESTION) {
        return false;
      }
    }
    return Statements.of(text).isEmpty();
  }

  private static String lower(String text) {
    return text.strip().toLowerCase(Locale.ROOT).replace('’', '\'');
  }

  /** The words of {@code lower}: runs of letters and apostrophes. */
  private static List<String> words(String lower) {
    List<String> out = new ArrayList<>();
    StringBuilder w = new StringBuilder();
    int end = Math.min(lower.length(), Wording.WINDOW);
    for (int i = 0; i <= end; i++) {
      char c = i < end ? lower.charAt(i) : ' ';
      if (Character.isLetter(c) || (c == '\'' && w.length() > 0)) {
        w.append(c);
      } else if (w.length() > 0) {
        out.add(w.toString());
        w.setLength(0);
      }
    }
    return out;
  }

  private static boolean blank(String s) {
    return s == null || s.isBlank();
  }
}
