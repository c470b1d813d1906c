package dev.memhook.core.internal.sanitize;

import static dev.memhook.core.internal.sanitize.PatternRule.group;
import static dev.memhook.core.internal.sanitize.PatternRule.startingAt;
import static dev.memhook.core.internal.sanitize.PatternRule.tokenStarts;

import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;

/**
 * The optional rules for personal data, off unless the host turns them on: payment card numbers
 * that pass the Luhn check, national ids (US social security numbers outside the never-issued
 * areas, UK national insurance numbers), e-mail addresses and phone numbers (international {@code
 * +} forms, North American {@code 555-123-4567} forms, and national forms with a leading 0 and
 * separators). Dates, version numbers and ordinary numbers do not have these shapes.
 *
 * <p>None of these has a literal to look for, and a search at every position pays for each
 * pattern's look-behind at every character, so each rule is tried only where a plain scan finds a
 * character its match can start with (a digit, an upper-case letter, a {@code +} or {@code (}) that
 * does not continue a longer number or word; a card number only where 13 to 19 digits follow to the
 * end of the number, and an e-mail address only at the start of the run of address characters
 * before an {@code @}. Each pattern has possessive or bounded quantifiers only and a look-behind
 * that keeps it from starting inside a longer number or word, so every attempt reads a bounded
 * stretch. Stateless and thread-safe.
 */
final class PersonalDataRules {

  /** The longest local part of an e-mail address. */
  private static final int MAX_LOCAL = 64;

  /** The fewest and the most digits of a card number, as the card pattern counts them. */
  private static final int MIN_CARD_DIGITS = 13;

  private static final int MAX_CARD_DIGITS = 19;

  private static final PatternRule.Starts CARD_DIGITS = tokenStarts("2-6", "0-9");

  private PersonalDataRules() {}

  static List<Rule> all() {
    return List.of(
        startingAt(
            "card",
            "(?<![0-9])[2-6](?:[ -]?+[0-9]){12,18}+(?![0-9]|[ -][0-9])",
            PersonalDataRules::cardStart,
            PersonalDataRules::redactLuhnValid),
        startingAt(
            "national-id",
            "(?<![0-9-])(?!000|666|9)[0-9]{3}-(?!00)[0-9]{2}-(?!0000)[0-9]{4}(?![0-9]|-[0-9])"
                + "|(?<![A-Za-z0-9])([A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]) ?+[0-9]{2} ?+[0-9]{2}"
                + " ?+[0-9]{2} ?+[A-D](?![A-Za-z0-9])",
            tokenStarts("0-8", "0-9-", "A-CEGHJ-PR-TW-Z", "A-Za-z0-9"),
            PersonalDataRules::redactNationalId),
        startingAt(
            "email",
            "(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}+@([A-Za-z0-9.-]{3,253}+)",
            PersonalDataRules::emailStart,
            PersonalDataRules::redactEmail),
        startingAt(
            "phone",
            "(?<![0-9A-Za-z+])\\+[1-9](?:[ .()-]{0,2}+[0-9]){7,14}+(?![0-9])"
                + "|(?<![0-9A-Za-z.+-])(?:\\([2-9][0-9]{2}\\) ?+|[2-9][0-9]{2}[ .-])[0-9]{3}[ .-][0-9]{4}"
                + "(?![0-9]|[.-][0-9])"
                + "|(?<![0-9A-Za-z.+-])0[1-9][0-9]{1,3}[ -][0-9]{3,4}[ -]?+[0-9]{3,4}"
                + "(?![0-9]|[.-][0-9])",
            tokenStarts("+", "0-9A-Za-z+", "(02-9", "0-9A-Za-z.+-"),
            group(0)));
  }

  /**
   * Where a card number may start at or after {@code from}: a digit 2 to 6, not after a digit, that
   * begins 13 to 19 digits to the end of its number (digits with single spaces or dashes between).
   * The card pattern's match runs to the end of the number, so a start with more digits after it
   * cannot match; ruling it out here by a plain read of at most 20 digits is what keeps a long run
   * of digit groups cheap.
   */
  private static int cardStart(String text, int from) {
    for (int at = CARD_DIGITS.next(text, from); at >= 0; at = CARD_DIGITS.next(text, at + 1)) {
      int digits = digitsToTheEnd(text, at, MAX_CARD_DIGITS + 1);
      if (digits >= MIN_CARD_DIGITS && digits <= MAX_CARD_DIGITS) {
        return at;
      }
    }
    return -1;
  }

  /** The digits from {@code i} to the end of the number there, counted up to {@code max}. */
  private static int digitsToTheEnd(String text, int i, int max) {
    int n = text.length();
    int digits = 0;
    while (i < n && digits < max) {
      char c = text.charAt(i);
      if (isDigit(c)) {
        digits++;
        i++;
      } else if ((c == ' ' || c == '-') && i + 1 < n && isDigit(text.charAt(i + 1))) {
        i++;
      } else {
        break;
      }
    }
    return digits;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /**
   * Where an e-mail address may start at or after {@code from}: the start of the run of 1 to
   * {@value #MAX_LOCAL} local-part characters before an {@code @}, when that run starts at or after
   * {@code from} (the pattern's look-behind refuses a start inside a run). Reads each {@code @} and
   * at most {@value #MAX_LOCAL} + 1 characters before it.
   */
  private static int emailStart(String text, int from) {
    for (int at = text.indexOf('@', from); at >= 0; at = text.indexOf('@', at + 1)) {
      int start = at;
      while (start > from && at - start <= MAX_LOCAL && isLocalChar(text.charAt(start - 1))) {
        start--;
      }
      if (start < at
          && at - start <= MAX_LOCAL
          && (start == 0 || !isLocalChar(text.charAt(start - 1)))) {
        return start;
      }
    }
    return -1;
  }

  private static boolean isLocalChar(char c) {
    return c >= 'a' && c <= 'z'
        || c >= 'A' && c <= 'Z'
        || c >= '0' && c <= '9'
        || c == '.'
        || c == '_'
        || c == '%'
        || c == '+'
        || c == '-';
  }

  /** UK national insurance prefixes that are never issued. */
  private static final Set<String> INVALID_NI_PREFIXES =
      Set.of("BG", "GB", "NK", "KN", "TN", "NT", "ZZ");

  private static void redactNationalId(Matcher m, String text, Edits edits) {
    if (m.start(1) >= 0 && INVALID_NI_PREFIXES.contains(m.group(1))) {
      return;
    }
    edits.add(m.start(), m.end());
  }

  private static void redactLuhnValid(Matcher m, String text, Edits edits) {
    if (passesLuhn(text, m.start(), m.end())) {
      edits.add(m.start(), m.end());
    }
  }

  /** Whether the digits in {@code text[start, end)} pass the Luhn checksum. */
  static boolean passesLuhn(CharSequence text, int start, int end) {
    int sum = 0;
    boolean doubled = false;
    for (int i = end - 1; i >= start; i--) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        continue;
      }
      int d = c - '0';
      if (doubled) {
        d *= 2;
        if (d > 9) {
          d -= 9;
        }
      }
      sum += d;
      doubled = !doubled;
    }
    return sum % 10 == 0;
  }

  /** An address whose domain has a dot, no empty label, and a top-level label of 2+ letters. */
  private static void redactEmail(Matcher m, String text, Edits edits) {
    int start = m.start(1);
    int end = m.end(1);
    while (end > start && text.charAt(end - 1) == '.') {
      end--; // a sentence's full stop
    }
    int lastDot = -1;
    for (int i = start; i < end; i++) {
      if (text.charAt(i) == '.') {
        if (i == start || text.charAt(i - 1) == '.') {
          return; // an empty label
        }
        lastDot = i;
      }
    }
    if (lastDot < 0 || end - lastDot < 3) {
      return;
    }
    for (int i = lastDot + 1; i < end; i++) {
      if (!Character.isLetter(text.charAt(i))) {
        return;
      }
    }
    edits.add(m.start(), end);
  }
}
