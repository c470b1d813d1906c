package dev.memhook.core.internal.sanitize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.testkit.AdversarialText;
import dev.memhook.testkit.Seeds;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The optional personal-data rules: what they redact with the switch on ({@code
 * Sanitizer.create(rules, true)}, which {@code Redaction.withPersonalData()} sets), and that the
 * default sanitizer leaves the same text alone.
 */
class PersonalDataRulesTest {

  private static final Sanitizer ON = Sanitizer.create(List.of(), true);
  private static final Sanitizer OFF = Sanitizer.defaults();

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // test numbers of the card schemes, each passing the Luhn check
        "card 4111 1111 1111 1111 on file|card [redacted:card] on file",
        "card 4111-1111-1111-1111 on file|card [redacted:card] on file",
        "card 4111111111111111 on file|card [redacted:card] on file",
        "mastercard 5500 0000 0000 0004.|mastercard [redacted:card].",
        "amex 3782 822463 10005 ok|amex [redacted:card] ok",
        "discover 6011111111111117 ok|discover [redacted:card] ok",
        "visa 4012888888881881, expires 12/27|visa [redacted:card], expires 12/27"
      })
  void cardNumbersPassingTheLuhnCheck_areRedacted(String input, String expected) {
    assertEquals(expected, ON.sanitize(input));
    assertEquals(input, OFF.sanitize(input));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "card 4111 1111 1111 1112 on file",
        "card 4111111111111110 on file",
        "order 5500 0000 0000 0005 shipped",
        "amex 378282246310006 ok"
      })
  void cardShapedNumbersFailingTheLuhnCheck_areLeftAlone(String text) {
    assertFalse(PersonalDataRules.passesLuhn(text, 0, text.length()), text);
    assertEquals(text, ON.sanitize(text));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "ssn 123-45-6789 on the form|ssn [redacted:national-id] on the form",
        "SSN: 078-05-1120.|SSN: [redacted:national-id].",
        "NI number AB 12 34 56 C here|NI number [redacted:national-id] here",
        "NI AB123456C here|NI [redacted:national-id] here",
        "ni ce 654321 d lower case stays|ni ce 654321 d lower case stays"
      })
  void nationalIds_areRedacted(String input, String expected) {
    assertEquals(expected, ON.sanitize(input));
    assertEquals(input, OFF.sanitize(input));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "000-12-3456 is never issued",
        "666-12-3456 is never issued",
        "900-12-3456 is never issued",
        "123-00-4567 is never issued",
        "123-45-0000 is never issued",
        "build 2024-01-1234 and 123-456-7890-1",
        "GB 12 34 56 A has a prefix never issued",
        "QQ 12 34 56 A has a letter never used first"
      })
  void nationalIdShapesNeverIssued_areLeftAlone(String text) {
    assertEquals(text, ON.sanitize(text));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "call +1 415 555 2671 today|call [redacted:phone] today",
        "call +1 (415) 555-2671 today|call [redacted:phone] today",
        "call +44 20 7946 0958.|call [redacted:phone].",
        "call +4930123456 now|call [redacted:phone] now",
        "call (415) 555-2671 today|call [redacted:phone] today",
        "call 415-555-2671 today|call [redacted:phone] today",
        "call 415.555.2671 today|call [redacted:phone] today",
        "call 020 7946 0958 today|call [redacted:phone] today",
        "call 07700 900123 today|call [redacted:phone] today",
        "call 030 1234 5678 today|call [redacted:phone] today"
      })
  void phoneNumbers_areRedacted(String input, String expected) {
    assertEquals(expected, ON.sanitize(input));
    assertEquals(input, OFF.sanitize(input));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "mail ann@example.org today|mail [redacted:email] today",
        "mail Ann.Lee+memo@mail.example.co.uk.|mail [redacted:email]."
      })
  void emailAddresses_areRedacted(String input, String expected) {
    assertEquals(expected, ON.sanitize(input));
    assertEquals(input, OFF.sanitize(input));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "released 2024-01-15 at 10:30, version 1.2.3.4",
        "port 8080, pid 12345, 3.14159, 1,000,000 rows",
        "see RFC 7231 section 6.5.1 and ISO 8601",
        "commit 3f2a9c1 and build 20240115",
        "user@localhost and git@github",
        "the range 1-2-3 and 10-20-30"
      })
  void ordinaryNumbersAndWords_areLeftAlone(String text) {
    assertEquals(text, ON.sanitize(text));
  }

  static LongStream seeds() {
    return Seeds.seeds(3);
  }

  /**
   * Each rule is tried only where its scan says a match may start; on generated text full of
   * digits, separators, capitals and {@code @}, that finds exactly what trying the same pattern at
   * every position finds.
   */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void eachRule_redactsWhatTryingEveryPositionRedacts(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < 3_000; i++) {
      String text =
          random.nextBoolean() ? AdversarialText.mixture(random, 30) : personalDataLike(random);
      for (Rule rule : PersonalDataRules.all()) {
        PatternRule everywhere = ((PatternRule) rule).triedEverywhere();
        assertEquals(
            redacted(everywhere, text),
            redacted(rule, text),
            () -> rule.kind() + " on \"" + text + "\", " + Seeds.replay(seed));
      }
    }
  }

  /**
   * Groups of digits or letters between separators and prefixes, as numbers are written, with
   * numbers of the shapes the rules look for (Luhn-valid card numbers, phone numbers, social
   * security numbers) dropped in after any character.
   */
  private static String personalDataLike(SplittableRandom random) {
    String[] between = {
      " ", " ", "-", "-", ".", "", "", "(", ") ", "+", "@", "AB", "AB ", "a", " C ", "C ", "\n"
    };
    StringBuilder sb = new StringBuilder();
    int groups = random.nextInt(12);
    for (int g = 0; g < groups; g++) {
      sb.append(between[random.nextInt(between.length)]);
      switch (random.nextInt(8)) {
        case 0 -> sb.append(luhnValid(random, 11 + random.nextInt(10)));
        case 1 ->
            sb.append('(')
                .append(digits(random, 3))
                .append(") ")
                .append(digits(random, 3))
                .append('-')
                .append(digits(random, 4));
        case 2 -> sb.append(digits(random, 3)).append('-').append(digits(random, 2)).append('-');
        default -> {
          boolean letters = random.nextInt(4) == 0;
          int length = 1 + random.nextInt(5);
          for (int d = 0; d < length; d++) {
            sb.append(
                letters ? (char) ('a' + random.nextInt(26)) : (char) ('0' + random.nextInt(10)));
          }
        }
      }
    }
    return sb.toString();
  }

  private static String digits(SplittableRandom random, int count) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < count; i++) {
      sb.append((char) ('0' + random.nextInt(10)));
    }
    return sb.toString();
  }

  /** {@code count} digits passing the Luhn check, with a space or a dash between some of them. */
  private static String luhnValid(SplittableRandom random, int count) {
    String body = digits(random, count - 1);
    for (char check = '0'; check <= '9'; check++) {
      String number = body + check;
      if (PersonalDataRules.passesLuhn(number, 0, number.length())) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < number.length(); i++) {
          if (i > 0 && random.nextInt(4) == 0) {
            sb.append(random.nextBoolean() ? ' ' : '-');
          }
          sb.append(number.charAt(i));
        }
        return sb.toString();
      }
    }
    throw new AssertionError("one check digit passes");
  }

  private static String redacted(Rule rule, String text) {
    Edits edits = new Edits();
    rule.find(new Subject(text), edits);
    return edits.applyTo(text, "#");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"4111111111111111", "79927398713", "4222222222222"})
  void passesLuhn_acceptsValidNumbers(String digits) {
    assertTrue(PersonalDataRules.passesLuhn(digits, 0, digits.length()));
  }
}
