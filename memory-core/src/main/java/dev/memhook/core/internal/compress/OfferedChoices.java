package dev.memhook.core.internal.compress;

import dev.memhook.api.MemoryType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a user's reply chooses among the options the agent's message before it offered. {@link
 * Statements} reads one message alone; a one-word answer ("flyway.") says something only beside the
 * question it answers. Stateless and thread-safe.
 */
final class OfferedChoices {

  private OfferedChoices() {}

  /**
   * The decision a short reply makes by naming one of the options the agent's message before it
   * offered, or null: "The two usual choices are Flyway (…) and Liquibase (…)." answered "flyway.
   * the team reads SQL fine" is "Chose Flyway: the team reads SQL fine." The option must be a name
   * as the agent wrote it (capitalised, in backticks or with a digit or joining mark), so "staging
   * or prod?" answered "staging" chooses for this task only and makes no decision; and the agent's
   * message must offer a choice ("or", "choices", "options", "either", "vs").
   *
   * @param reply the user's message
   * @param offer the agent's message just before it, or null
   */
  static Statements.Statement of(String reply, String offer) {
    if (offer == null || !OFFERS_CHOICE.matcher(offer).find()) {
      return null;
    }
    List<String> sentences = TextCuts.sentences(reply, Spoken.WINDOW);
    if (sentences.isEmpty()) {
      return null;
    }
    Statements.Statement byLabel = byLabel(reply, offer);
    if (byLabel != null) {
      return byLabel;
    }
    if (ACCEPTS.matcher(TextCuts.head(reply, Spoken.WINDOW).strip()).matches()) {
      return recommended(offer); // "that", after "… I'd go with 2 now; it's small and SSR-safe."
    }
    String picked =
        CHOICE_LEAD.matcher(sentences.get(0).strip()).replaceFirst("").replaceAll("[.!,;:]+$", "");
    String words = CHOICE_TAIL.matcher(picked).replaceFirst("").strip();
    String option = option(words, offer);
    if (option == null) {
      option = byWords(words, offer);
    }
    if (option != null) {
      return chose(option, reason(sentences.subList(1, sentences.size())));
    }
    // "we are not adding redis just for this, ops would kill me. pg-boss it is.": the reasons
    // first, then the pick in words that settle it
    for (int i = 1; i < Math.min(sentences.size(), MAX_SETTLING_SENTENCE + 1); i++) {
      Matcher settles = SETTLES.matcher(sentences.get(i).strip());
      if (settles.matches()) {
        String named = settles.group(1) != null ? settles.group(1) : settles.group(2);
        option = option(CHOICE_TAIL.matcher(named).replaceFirst("").strip(), offer);
        if (option != null) {
          String before = reason(sentences.subList(0, i));
          String after = reason(sentences.subList(i + 1, sentences.size()));
          return chose(option, (before + " " + after).strip());
        }
      }
    }
    return null;
  }

  /** "Chose {@code option}: {@code reason}." */
  private static Statements.Statement chose(String option, String reason) {
    return new Statements.Statement(
        MemoryType.DECISION,
        "Chose " + option + (reason.isEmpty() ? "." : ": " + TextCuts.asSentence(reason)),
        false);
  }

  /**
   * The option {@code picked} names as {@code offer} wrote it, or null: it must be at most {@value
   * #MAX_CHOICE_WORDS} words and a name there (capitalised, in backticks or bold, or naming
   * something).
   */
  private static String option(String picked, String offer) {
    if (picked.length() < 2 || picked.split("\\s+").length > MAX_CHOICE_WORDS) {
      return null;
    }
    Matcher named =
        Pattern.compile("(?i)(?<![\\w-])(`|\\*\\*)?(" + Pattern.quote(picked) + ")`?(?![\\w-])")
            .matcher(offer);
    while (named.find()) {
      String option = named.group(2);
      if (named.group(1) != null // in backticks or bold: "`pnpm`", "**pg-boss**"
          || !option.equals(option.toLowerCase(Locale.ROOT))
          || !Statements.subjects(option).isEmpty()) {
        return option;
      }
    }
    return null;
  }

  /**
   * The decision an acceptance makes of the option the agent recommended, or null: "I'd go with 2
   * now; it's small, SSR-safe" (a label), "I'd pick **b**.", "I'd pick Drizzle: it fits both
   * drivers" (words of one option's name), with what the agent's sentence says after its pick as
   * the reason: "Chose Drizzle: it fits both drivers."
   */
  private static Statements.Statement recommended(String offer) {
    String[] chosen = recommendation(offer);
    return chosen == null ? null : chose(chosen[0], chosen[1]);
  }

  /**
   * The decision the agent carried out after recommending an option, or null: the user's reply in
   * between was an acknowledgement ("that", "yes", which is stored as no observation), and the
   * agent then edited files and its answer ({@code done}) names the recommended option by a word of
   * its name ("Drizzle is set up: …", "the cart store now writes back to the `fl_cart` cookie"). A
   * question in between (also stored as none) makes the agent answer, not edit.
   *
   * @param offer the agent's answer that offered the options
   * @param done its next answer, after edits and no stored prompt
   */
  static Statements.Statement carriedOut(String offer, String done) {
    String[] chosen = recommendation(offer);
    if (chosen == null) {
      return null;
    }
    String said = TextCuts.head(done, MAX_OFFER).toLowerCase(Locale.ROOT);
    for (String word : chosen[0].split("[^\\w-]+")) {
      if (word.length() >= MIN_NAMING_WORD
          && Pattern.compile(
                  "(?<![\\w-])" + Pattern.quote(word.toLowerCase(Locale.ROOT)) + "(?![\\w-])")
              .matcher(said)
              .find()) {
        return chose(chosen[0], chosen[1]);
      }
    }
    return null;
  }

  /** The shortest word of an option's name that names it in the agent's later answer. */
  private static final int MIN_NAMING_WORD = 4;

  /**
   * The option {@code offer} recommends and the reason it gives, or null; see {@link #recommended}.
   */
  private static String[] recommendation(String offer) {
    Matcher pick = RECOMMENDS.matcher(TextCuts.head(offer, MAX_OFFER));
    if (!pick.find()) {
      return null;
    }
    String named = pick.group(1).replaceAll("[*`]", "").strip();
    String option = null;
    Matcher label = BARE_LABEL.matcher(named);
    if (label.lookingAt()) {
      List<String> options = labelledOptions(offer, null);
      int index = index(label.group(1));
      option = index >= 0 && index < options.size() ? options.get(index) : null;
    } else {
      option = option(named, offer);
      if (option == null) {
        option = byWords(named, offer);
      }
    }
    if (option == null || option.isEmpty()) {
      return null;
    }
    String rest = offer.substring(pick.end(), Math.min(offer.length(), pick.end() + MAX_NAME * 3));
    Matcher why = RECOMMENDATION_REASON.matcher(rest);
    return new String[] {option, why.lookingAt() ? why.group(1).strip() : ""};
  }

  /** A reply that only accepts: "that", "yes", "sounds good", "do it", "that one". */
  private static final Pattern ACCEPTS =
      Pattern.compile(
          "(?i)(?:that(?: one)?|this one|yes|yep|yeah|ok(?:ay)?|sure|sounds good|go for it"
              + "|do it|do that|let'?s do (?:it|that)|agreed|perfect|deal)[.!]*");

  /**
   * The agent's own pick among the options it offered, group 1 what it names, a label or up to
   * three words: "I'd go with 2", "I'd pick **b**", "I'd pick Drizzle", "I recommend option 1".
   */
  private static final Pattern RECOMMENDS =
      Pattern.compile(
          "(?i)\\b(?:i'?d (?:go with|pick|choose|take|recommend|suggest|lean (?:to|towards))"
              + "|i (?:recommend|suggest|would go with|lean towards?)|my (?:pick|recommendation|vote)"
              + " (?:is|would be))\\s+(?:option\\s+)?((?:\\*\\*)?[\\w`'()/-]+(?:\\*\\*)?"
              + "(?: (?!now\\b|here\\b|for\\b|because\\b|since\\b|unless\\b)[\\w`'()/-]+){0,2})");

  /** A label alone: "2", "b", "(b)". */
  private static final Pattern BARE_LABEL = Pattern.compile("\\(?([1-9a-fA-F])\\)?(?:\\s|$)");

  /** What the agent says after its pick, up to the sentence's end: ": it fits both drivers". */
  private static final Pattern RECOMMENDATION_REASON =
      Pattern.compile("(?:\\s+now)?\\s*[:;,—–-]\\s*([^.!?\\n]{3,200})");

  /** The last sentence of a reply, counted from 0, that may settle the pick after its reasons. */
  private static final int MAX_SETTLING_SENTENCE = 3;

  /**
   * A sentence that settles a pick by its wording: "pg-boss it is", "drift it is then", "going with
   * Flyway", "let's go with the R2 route".
   */
  private static final Pattern SETTLES =
      Pattern.compile(
          "(?i)(?:(?:so|ok(?:ay)?|then)[,]?\\s+)?(?:(.{1,40}?) it is(?: then)?"
              + "|(?:let'?s go with|going with|we'?ll go with|we go with|go with) (.{1,40}?))[.!]*");

  /**
   * The decision a reply makes by picking an option by its label, or null: the agent listed its
   * options as "1. **Google Distance Matrix API** – …", "2. **Self-hosted OSRM** – …" or "**(a) One
   * delayed task per appointment**: …", and the reply opens with the label ("2. we already run the
   * OSM tile server next to it", "b.", "option 2", "the second one"). The option's name is its bold
   * text, else its text up to a dash, a colon or a bracket; the rest of the reply, up to a request,
   * is the reason: "Chose Self-hosted OSRM: we already run the OSM tile server next to it." The
   * label must be one of at least two options the offer lists in order.
   */
  private static Statements.Statement byLabel(String said, String offer) {
    String reply = TextCuts.head(said, Spoken.WINDOW).strip();
    Matcher picked = PICKED_LABEL.matcher(reply);
    if (!picked.lookingAt()) {
      return null;
    }
    String label = picked.group(1) != null ? picked.group(1) : picked.group(2);
    int index = index(label);
    List<String> options =
        labelledOptions(offer, label.length() == 1 ? Character.isDigit(label.charAt(0)) : null);
    if (index < 0 || index >= options.size()) {
      return null;
    }
    String name = options.get(index);
    if (name.isEmpty()) {
      return null;
    }
    String rest = COURTESY.matcher(reply.substring(picked.end()).strip()).replaceFirst("");
    String reason = reason(TextCuts.sentences(rest, Spoken.WINDOW));
    return new Statements.Statement(
        MemoryType.DECISION,
        "Chose " + name + (reason.isEmpty() ? "." : ": " + TextCuts.asSentence(reason)),
        false);
  }

  /**
   * The names of the options {@code offer} lists under labels in order ("1. …", "2. …" or "(a) …",
   * "(b) …", "**A) …**"), or none if it lists fewer than two. {@code digits} says which kind of
   * label counts (a reply's "b" picks no "2."), null either, as the first one listed is.
   */
  private static List<String> labelledOptions(String offer, Boolean digits) {
    List<String> options = new ArrayList<>();
    Matcher option = LABELLED_OPTION.matcher(TextCuts.head(offer, MAX_OFFER));
    while (option.find()) {
      boolean digit = Character.isDigit(option.group(2).charAt(0));
      if (index(option.group(2)) != options.size() || digits != null && digits != digit) {
        break; // options come in order, 1, 2, 3 or a, b, c
      }
      digits = digit;
      options.add(optionName(option.group(1) != null, option.group(3)));
    }
    return options.size() < 2 ? List.of() : options;
  }

  /**
   * The one labelled option whose name holds every word {@code picked} says, or null: "virtual
   * threads" picks "2. **Stay imperative, run endpoints on virtual threads**", "the type safe one"
   * picks "1. **Jetpack Navigation Compose with type-safe routes**". A hyphen counts as a space; a
   * leading "the" and a trailing "one", "option" or "approach" name nothing. Words that fit two
   * options, or none, pick nothing.
   */
  private static String byWords(String picked, String offer) {
    String words =
        PICKED_WORDS_FRAME
            .matcher(picked.toLowerCase(Locale.ROOT).replace('-', ' '))
            .replaceAll("");
    if (words.isBlank() || words.split("\\s+").length > MAX_CHOICE_WORDS) {
      return null;
    }
    Pattern inName = Pattern.compile("(?<![\\w])" + Pattern.quote(words.strip()) + "(?![\\w])");
    String found = null;
    for (String name : labelledOptions(offer, null)) {
      if (inName.matcher(name.toLowerCase(Locale.ROOT).replace('-', ' ')).find()) {
        if (found != null) {
          return null;
        }
        found = name;
      }
    }
    return found;
  }

  /** What frames the words of a pick without naming anything: "the …", "… one". */
  private static final Pattern PICKED_WORDS_FRAME =
      Pattern.compile("^(?:the\\s+)|\\s+(?:one|option|approach|way)$");

  /** The position of a label: "1" and "a" are 0, "second" and "two" are 1; -1 for none. */
  private static int index(String label) {
    String l = label.toLowerCase(Locale.ROOT);
    if (l.length() == 1 && Character.isDigit(l.charAt(0))) {
      return l.charAt(0) - '1';
    }
    if (l.length() == 1 && l.charAt(0) >= 'a' && l.charAt(0) <= 'f') {
      return l.charAt(0) - 'a';
    }
    return ORDINALS.indexOf(l) >= 0 ? ORDINALS.indexOf(l) % 5 : -1;
  }

  private static final List<String> ORDINALS =
      List.of("first", "second", "third", "fourth", "fifth", "one", "two", "three", "four", "five");

  /**
   * An option's name from the text after its label: its bold text (the bold opened before the label
   * when {@code boldBefore}), else its text up to a dash, a colon, a bracket or a full stop.
   */
  private static String optionName(boolean boldBefore, String text) {
    String t = text.strip();
    String name;
    Matcher bold = BOLD.matcher(t);
    if (boldBefore && t.indexOf("**") > 0) {
      name = t.substring(0, t.indexOf("**"));
    } else if (bold.lookingAt()) {
      name = bold.group(1);
    } else {
      name = t.split(" [–—-] |: | \\(|\\. ", 2)[0];
    }
    name = name.replaceAll("[*`]", "").replaceFirst("[.:;,]+$", "").strip();
    return name.length() > MAX_NAME ? TextCuts.atWord(name, MAX_NAME) : name;
  }

  /** The most characters of an option's name. */
  private static final int MAX_NAME = 80;

  /** The most characters of an offer searched for labelled options. */
  private static final int MAX_OFFER = 8_000;

  /**
   * A reply that opens by picking a label: "2.", "b.", "b,", "option 2", "(b)", "the second one",
   * "second option"; group 1 the digit or letter, group 2 the word.
   */
  private static final Pattern PICKED_LABEL =
      Pattern.compile(
          "(?i)(?:(?:ok(?:ay)?|yes|yeah|yep|hmm+|sure)[,.!]?\\s+)*(?:let'?s (?:go with|do) |go with |i'?d"
              + " (?:go with|say|pick|take) )?(?:option |opt\\.? |#)?(?:\\(?([1-9a-f])\\)?(?:[.):,!]"
              + "|\\s*$|\\s+(?=it is\\b|then\\b|please\\b|pls\\b|sounds\\b|is\\b))"
              + "|(?:the )?(first|second|third|fourth|fifth|one|two|three|four|five)"
              + "(?: one| option)?(?:[.,!]|\\s*$|\\s+(?=it is\\b|then\\b|please\\b|pls\\b|is\\b)))");

  /**
   * An option listed under a label at the start of a line: "1. …", "2) …", "(a) …", "**(b) …**", "-
   * **1. …**"; group 1 the bold opened before the label, if any, group 2 the label, group 3 the
   * text after it.
   */
  private static final Pattern LABELLED_OPTION =
      Pattern.compile(
          "(?m)^[ \\t]*(?:[-*][ \\t]+)?(\\*\\*)?\\(?([1-9a-fA-F])[.)]\\)?[ \\t]+(\\S.*)$");

  /** Words after a picked label that give no reason: "option 1 please", "b then". */
  private static final Pattern COURTESY =
      Pattern.compile("(?i)^(?:please|pls|then|it is|sounds good|is fine|thanks|thx)\\b[.!,]*\\s*");

  /** Bold text at the start: "**Self-hosted OSRM** (…)". */
  private static final Pattern BOLD = Pattern.compile("\\*\\*([^*]{1,200})\\*\\*");

  /**
   * What the reply says after its choice, up to a sentence that asks for work ("flyway. the team
   * reads SQL. also add a baseline": the reason is the second sentence only).
   */
  private static String reason(List<String> after) {
    List<String> said = new ArrayList<>();
    for (String sentence : after) {
      if (Statements.opensARequest(sentence)) {
        break;
      }
      said.add(sentence.strip());
    }
    return String.join(" ", said);
  }

  /** The most words of an option a reply names: {@value}. */
  static final int MAX_CHOICE_WORDS = 3;

  /** An agent's message that offers a choice. */
  private static final Pattern OFFERS_CHOICE =
      Pattern.compile(
          "(?i)\\b(?:or|either|choices?|options?|alternatives?|vs\\.?|versus|which (?:one|do you"
              + "|would you|should|way|approach)|your call|(?:do|would) you (?:prefer|want|like)"
              + "|prefer|comparison|compared|ways|approaches)\\b");

  /** What may open a reply that picks an option: "ok,", "yes", "let's go with", "use". */
  private static final Pattern CHOICE_LEAD =
      Pattern.compile(
          "(?i)^(?:(?:ok(?:ay)?|yes|yeah|yep|hmm+|sure|right)[,.!]?\\s+)*(?:let'?s (?:go with|use|do)"
              + "|go with|use|pick|take|i'?d (?:go with|say|pick|take)|i'?ll (?:go with|take)"
              + "|i (?:prefer|pick|choose))?\\s*");

  /** What may close it: "please", "then", "for this", "I think". */
  private static final Pattern CHOICE_TAIL =
      Pattern.compile("(?i)\\s+(?:please|pls|then|i think|i guess)$");
}
