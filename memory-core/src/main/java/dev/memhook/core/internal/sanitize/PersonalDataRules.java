package dev.memhook.core.internal.sanitize;

import static dev.memhook.core.internal.sanitize.PatternRule.everywhere;
import static dev.memhook.core.internal.sanitize.PatternRule.group;

import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The optional rules for personal data, off unless the host turns them on: payment card numbers
 * that pass the Luhn check, national ids (US social security numbers outside the never-issued
 * areas, UK national insurance numbers), e-mail addresses and phone numbers (international {@code
 * +} forms, North American {@code 555-123-4567} forms, and national forms with a leading 0 and
 * separators). Dates, version numbers and ordinary numbers do not have these shapes.
 *
 * <p>Each pattern has possessive or bounded quantifiers only and a look-behind that keeps it from
 * starting inside a longer number or word, so every attempt reads a bounded stretch. Stateless and
 * thread-safe.
 */
final class PersonalDataRules {

  private PersonalDataRules() {}

  static List<Rule> all() {
    return List.of(
        everywhere(
            "card",
            Pattern.compile("(?<![0-9])[2-6](?:[ -]?+[0-9]){12,18}+(?![0-9]|[ -][0-9])"),
            PersonalDataRules::redactLuhnValid),
        everywhere(
            "national-id",
            Pattern.compile(
                "(?<![0-9-])(?!000|666|9)[0-9]{3}-(?!00)[0-9]{2}-(?!0000)[0-9]{4}(?![0-9]|-[0-9])"
                    + "|(?<![A-Za-z0-9])([A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]) ?+[0-9]{2} ?+[0-9]{2}"
                    + " ?+[0-9]{2} ?+[A-D](?![A-Za-z0-9])"),
            PersonalDataRules::redactNationalId),
        everywhere(
            "email",
            Pattern.compile("(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]{1,64}+@([A-Za-z0-9.-]{3,253}+)"),
            PersonalDataRules::redactEmail),
        everywhere(
            "phone",
            Pattern.compile(
                "(?<![0-9A-Za-z+])\\+[1-9](?:[ .()-]{0,2}+[0-9]){7,14}+(?![0-9])"
                    + "|(?<![0-9A-Za-z.+-])(?:\\([2-9][0-9]{2}\\) ?+|[2-9][0-9]{2}[ .-])[0-9]{3}[ .-][0-9]{4}"
                    + "(?![0-9]|[.-][0-9])"
                    + "|(?<![0-9A-Za-z.+-])0[1-9][0-9]{1,3}[ -][0-9]{3,4}[ -]?+[0-9]{3,4}"
                    + "(?![0-9]|[.-][0-9])"),
            group(0)));
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
