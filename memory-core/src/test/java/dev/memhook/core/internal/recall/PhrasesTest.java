package dev.memhook.core.internal.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Origin;
import dev.memhook.api.Scope;
import dev.memhook.testkit.Seeds;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Phrases found as whole words, and the preference stance they now decide: the same answers as the
 * regular expressions they replaced, on every text whose words are ASCII (where {@code \b} means
 * the same on every Java version), and the documented rule for the rest.
 */
class PhrasesTest {

  private static final Phrases WORDS = Phrases.of(List.of("no", "go-to", "do not", "prefer"));

  @ParameterizedTest(name = "[{0}] -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "no|true",
        "say no.|true",
        "know|false",
        "nothing|false",
        "no_way|false",
        "no1|false",
        "1no|false",
        "my go-to tool|true",
        "go-tool|false",
        "do  not|false",
        "do not|true",
        "donot|false",
        "preferably|false",
        "i prefer, mostly|true",
        "'prefer'|true",
        "x-prefer-y|true",
        "''|false"
      })
  void foundIn_findsAPhraseOnlyAsWholeWords(String text, boolean found) {
    assertEquals(found, WORDS.foundIn(text));
  }

  @Test
  void aLetterOfAnyScript_gluedToAPhrase_makesItPartOfALongerWord() {
    assertFalse(WORDS.foundIn("éno"), "a Latin letter before");
    assertFalse(WORDS.foundIn("noé"), "a Latin letter after");
    assertFalse(WORDS.foundIn("中no"), "a Chinese character before");
    assertFalse(WORDS.foundIn("no٣"), "an Arabic-Indic digit after");
    assertTrue(WORDS.foundIn("中 no"), "a space between");
    assertTrue(WORDS.foundIn("—no—"), "dashes are not letters");
    assertTrue(WORDS.foundIn("\uD83D\uDE00no\uD83D\uDE00"), "an emoji is not a letter");
  }

  @Test
  void aCombiningMark_belongsToTheWordItFollows() {
    assertFalse(WORDS.foundIn("no\u0301"), "a mark on the phrase's last letter");
    assertFalse(WORDS.foundIn("x\u0301no"), "a mark on the letter before");
    assertTrue(WORDS.foundIn(" \u0301no"), "a mark on a space is no letter");
    assertTrue(WORDS.foundIn("\u0301no"), "a mark with nothing before it is no letter");
  }

  @Test
  void startOf_findsAPhraseOnlyAtTheStart() {
    assertTrue(WORDS.startOf("no, thanks"));
    assertTrue(WORDS.startOf("do not push"));
    assertFalse(WORDS.startOf(" no"));
    assertFalse(WORDS.startOf("nope"));
    assertFalse(WORDS.startOf(""));
  }

  @Test
  void combine_spellsEveryAlternativeInOrder_withOptionalPartsLeftOut() {
    assertEquals(
        List.of(
            "i prefer",
            "i'd prefer",
            "i really prefer",
            "we prefer",
            "we'd prefer",
            "we really prefer"),
        Phrases.combine(
            List.of(List.of("i", "we"), List.of("", "'d", "really"), List.of("prefer"))));
  }

  @Test
  void aPhraseThatDoesNotStartAndEndWithALetterOrDigit_isRefused() {
    assertThrows(IllegalArgumentException.class, () -> Phrases.of(List.of("no ")));
    assertThrows(IllegalArgumentException.class, () -> Phrases.of(List.of("'d")));
    assertThrows(IllegalArgumentException.class, () -> Phrases.of(List.of("")));
    assertThrows(NullPointerException.class, () -> Phrases.of(java.util.Arrays.asList("a", null)));
  }

  // The stance's wording as it was written before Phrases, the oracle of the comparison below.

  private static final Pattern STANCE =
      Pattern.compile(
          "\\b(?:i|we)(?: really| usually| always| never| often| mostly| generally| also| still"
              + "| just| do not| don't| didn't| did not)? (?:prefer|like|love|enjoy|hate|dislike"
              + "|want|chose|choose|picked|decided|agreed|settled|tend|avoid|can't stand|use)\\b"
              + "|\\b(?:i|we)(?:'d| would) (?:rather|like|prefer)\\b"
              + "|\\b(?:i'm|i am|we're|we are) (?:into|planning|thinking of|considering|a fan of"
              + "|fond of|going with|using|sticking with)\\b"
              + "|\\bmy (?:favou?rite|preference|go-to|usual)\\b|\\bdecision\\b|\\bdecided\\b"
              + "|\\b(?:always|never|prefer|preferably|instead of|rather than)\\b"
              + "|^(?:please )?(?:do not|don't|no)\\b");

  private static final Pattern FIRST_PERSON_WORDS =
      Pattern.compile("\\b(?:i|i'm|i've|i'd|i'll|me|my|mine|we|we're|we've|our|ours)\\b");

  /** The words the stance's phrases are made of, and words that begin or end like them. */
  private static final String[] WORDS_OF_STANCES = {
    "i",
    "we",
    "I",
    "We",
    "really",
    "usually",
    "always",
    "never",
    "often",
    "mostly",
    "generally",
    "also",
    "still",
    "just",
    "do",
    "not",
    "don't",
    "didn't",
    "did",
    "prefer",
    "like",
    "love",
    "enjoy",
    "hate",
    "dislike",
    "want",
    "chose",
    "choose",
    "picked",
    "decided",
    "agreed",
    "settled",
    "tend",
    "avoid",
    "can't",
    "stand",
    "use",
    "'d",
    "would",
    "rather",
    "i'm",
    "am",
    "we're",
    "are",
    "into",
    "planning",
    "thinking",
    "of",
    "considering",
    "a",
    "fan",
    "fond",
    "going",
    "with",
    "using",
    "sticking",
    "my",
    "favorite",
    "favourite",
    "preference",
    "go-to",
    "go",
    "to",
    "usual",
    "decision",
    "preferably",
    "instead",
    "than",
    "please",
    "no",
    "me",
    "mine",
    "our",
    "ours",
    "i've",
    "i'd",
    "i'll",
    "we've",
    "we'd",
    "preferred",
    "likes",
    "used",
    "users",
    "iwe",
    "mine's",
    "nope",
    "decisions",
    "alwaysx",
    "x",
    "tool",
    "lint",
    "42",
    "_",
    "I’m",
    "don’t",
    "İ",
    "NO"
  };

  /**
   * What goes between words: spaces as the phrases spell them and as they do not, punctuation,
   * characters that are not letters outside ASCII, and combining marks (which join the word before
   * them on every Java version).
   */
  private static final String[] BETWEEN = {
    " ",
    " ",
    " ",
    " ",
    "",
    "  ",
    "\n",
    "\t",
    ",",
    ".",
    "!",
    "?",
    "-",
    "'",
    "’",
    "\"",
    "(",
    "_",
    "1",
    "\u00A0",
    "\u2014",
    "\uD83D\uDE00",
    "\u0301",
    " \u0301",
    "\u3002"
  };

  static List<Long> seeds() {
    return Seeds.seeds(3).boxed().toList();
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void stance_answersAsTheRegularExpressionsItReplaced_onSeededTexts(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    for (int n = 0; n < 20_000; n++) {
      StringBuilder text = new StringBuilder();
      int words = 1 + random.nextInt(8);
      if (random.nextInt(4) == 0) {
        text.append(BETWEEN[random.nextInt(BETWEEN.length)]);
      }
      for (int w = 0; w < words; w++) {
        if (w > 0) {
          text.append(BETWEEN[random.nextInt(BETWEEN.length)]);
        }
        text.append(WORDS_OF_STANCES[random.nextInt(WORDS_OF_STANCES.length)]);
      }
      if (random.nextInt(4) == 0) {
        text.append(BETWEEN[random.nextInt(BETWEEN.length)]);
      }
      String content = text.toString();
      assertEquals(
          oracle(content),
          PreferenceCue.stance(memory(content)),
          () -> "stance of [" + content + "], " + Seeds.replay(seed));
    }
  }

  @Test
  void stance_onTheTextsOfTheOldTests_isAsBefore() {
    for (String content :
        List.of(
            "I really prefer tabs.",
            "We'd rather ship on Monday.",
            "Please don't force-push to main.",
            "no merges on Friday",
            "I'm thinking of moving to Lisbon.",
            "My go-to editor is vim.",
            "We decided on Postgres.",
            "The build uses Gradle.",
            "I went to the market.",
            "our CI is slow",
            "Tabs instead of spaces.",
            "We are going with option B.",
            "i can't stand flaky tests")) {
      assertEquals(oracle(content), PreferenceCue.stance(memory(content)), content);
    }
  }

  /** The stance as the regular expressions decided it, for a person's memory of no stated type. */
  private static double oracle(String content) {
    String lowered = content.toLowerCase(Locale.ROOT).replace('\u2019', '\'');
    if (STANCE.matcher(lowered).find()) {
      return 1;
    }
    return FIRST_PERSON_WORDS.matcher(lowered).find() ? PreferenceCue.FIRST_PERSON : 0;
  }

  private static Memory memory(String content) {
    return Memory.builder()
        .id(MemoryId.of("m1"))
        .scope(Scope.DEFAULT)
        .type(MemoryType.OBSERVATION)
        .origin(Origin.user())
        .content(content)
        .occurredAt(Instant.EPOCH)
        .createdAt(Instant.EPOCH)
        .build();
  }
}
