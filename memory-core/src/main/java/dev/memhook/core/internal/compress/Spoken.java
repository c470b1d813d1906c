package dev.memhook.core.internal.compress;

import dev.memhook.api.capture.CompressedObservation;
import dev.memhook.api.capture.ObservationKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The synthetic compression of what the user or the agent said: the kind from the wording
 * (preference, decision, discovery, else conversation; only the user states preferences), the title
 * from the sentence that carries the kind (or the first sentence), the facts from the sentences
 * {@link FactAdmission} admits.
 *
 * <p>Stateless and thread-safe.
 */
final class Spoken {

  /** How much of a prompt or answer is read. */
  static final int WINDOW = 8_000;

  private static final int MAX_SPOKEN_FACTS = 3;

  private Spoken() {}

  static CompressedObservation compress(String who, String text, boolean user) {
    String said = text == null ? "" : text;
    List<String> sentences = TextCuts.sentences(said, WINDOW);
    ObservationKind kind = ObservationKind.CONVERSATION;
    String lead = sentences.isEmpty() ? "" : sentences.get(0);
    for (String s : sentences) {
      ObservationKind k = classify(s, user);
      if (k != ObservationKind.CONVERSATION && FactAdmission.admits(s)) {
        kind = k;
        lead = s;
        break;
      }
    }
    List<String> facts = new ArrayList<>();
    boolean question =
        !lead.isEmpty()
            && !FactAdmission.admits(lead)
            && FactAdmission.rejection(lead).orElseThrow() == FactAdmission.Rejection.QUESTION;
    if (question && user) {
      facts.add("The user asked: " + lead);
    }
    for (String s : sentences) {
      if (facts.size() == MAX_SPOKEN_FACTS) {
        break;
      }
      boolean fits = kind == ObservationKind.CONVERSATION || classify(s, user) == kind;
      if (fits && FactAdmission.admits(s)) {
        facts.add(TextCuts.asSentence(s));
      }
    }
    String title = who + ": " + TextCuts.atWord(rephrase(stripEnd(lead)), 180);
    String narrative =
        (user ? "The user wrote: " : "The agent answered: ") + TextCuts.flat(said, 2_000);
    TokenScan scan = new TokenScan().scan(said, SyntheticCompressor.SCAN_WINDOW);
    Concepts concepts = new Concepts().technologies(said, WINDOW);
    for (String file : scan.files) {
      concepts.add(TokenScan.language(file));
    }
    concepts.addAll(scan.errorClasses).addAll(scan.identifiers);
    double importance =
        switch (kind) {
          case PREFERENCE -> 0.85;
          case DECISION -> 0.8;
          case DISCOVERY -> 0.6;
          default -> question ? 0.3 : user ? 0.4 : 0.3;
        };
    return SyntheticCompressor.finish(
        title, facts, narrative, concepts.list(), scan.files, kind, importance);
  }

  private static ObservationKind classify(String sentence, boolean user) {
    if (user && Wording.preference(sentence)) {
      return ObservationKind.PREFERENCE;
    }
    if (Wording.decision(sentence)) {
      return ObservationKind.DECISION;
    }
    if (Wording.discovery(sentence)) {
      return ObservationKind.DISCOVERY;
    }
    return ObservationKind.CONVERSATION;
  }

  /** "I prefer tabs" reads "prefers tabs" after "User: ". */
  static String rephrase(String sentence) {
    String lower = sentence.toLowerCase(Locale.ROOT);
    String[][] rules = {
      {"i prefer ", "prefers "}, {"i like ", "likes "}, {"i want ", "wants "},
      {"i always ", "always "}, {"i never ", "never "}, {"i'd rather ", "would rather "}
    };
    for (String[] rule : rules) {
      if (lower.startsWith(rule[0])) {
        return rule[1] + sentence.substring(rule[0].length());
      }
    }
    return sentence;
  }

  private static String stripEnd(String sentence) {
    return sentence.endsWith(".") ? sentence.substring(0, sentence.length() - 1) : sentence;
  }
}
