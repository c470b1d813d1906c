package dev.memhook.core.internal.sanitize;

import static dev.memhook.core.internal.sanitize.PatternRule.group;
import static dev.memhook.core.internal.sanitize.PatternRule.triggered;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;

/**
 * The built-in credential rules, in the order they run. Every pattern here starts at a literal its
 * rule is triggered by, refuses to start inside a longer token (a one-character look-behind), and
 * uses possessive or bounded quantifiers only, with no repeated group: an attempt reads a bounded
 * stretch, or a run of token characters no other attempt reads, never backtracks into it, and needs
 * no stack in proportion to the text.
 *
 * <p>Stateless and thread-safe.
 */
final class CredentialRules {

  private CredentialRules() {}

  /** The built-in rules after private regions, in order: specific shapes before generic ones. */
  static List<Rule> all() {
    return List.of(
        new PrivateKeyBlocks(),
        new UrlCredentials(),
        triggered(
            "aws-key",
            "(?<![A-Za-z0-9])(?:AKIA|ASIA)[0-9A-Z]{16}(?![A-Za-z0-9])",
            false,
            group(0),
            "AKIA",
            "ASIA"),
        triggered(
            "stripe-key",
            "(?<![A-Za-z0-9_])(?:[sr]k_(?:live|test)_[A-Za-z0-9]{16,}+|whsec_[A-Za-z0-9]{24,}+)",
            false,
            group(0),
            "sk_live_",
            "sk_test_",
            "rk_live_",
            "rk_test_",
            "whsec_"),
        triggered("api-key", "(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{20,}+", false, group(0), "sk-"),
        triggered(
            "github-token",
            "(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{30,}+|github_pat_[A-Za-z0-9_]{22,}+)",
            false,
            group(0),
            "ghp_",
            "gho_",
            "ghu_",
            "ghs_",
            "ghr_",
            "github_pat_"),
        triggered(
            "slack-token",
            "(?<![A-Za-z0-9_-])xox[abprs]-[A-Za-z0-9-]{10,}+",
            false,
            group(0),
            "xox"),
        triggered(
            "google-key",
            "(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])",
            false,
            group(0),
            "AIza"),
        triggered(
            "jwt",
            "(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}+\\.[A-Za-z0-9_-]{8,}+\\.[A-Za-z0-9_-]{8,}+",
            false,
            group(0),
            "eyJ"),
        triggered(
            "bearer",
            "(?i)(?<![a-z0-9_-])bearer[ \\t]++([a-z0-9._~+/-]{12,}+=*+)",
            true,
            CredentialRules::redactBearerToken,
            "bearer"),
        new KeyValueSecrets(),
        triggered(
            "secret",
            "(?i)(?<![\\p{L}\\p{N}_-])(password|passwd|passphrase|passcode|pin(?:[ \\t]++(?:code|number))?+)"
                + "(?:[ \\t]++(?:is|was)(?:[ \\t]++(?:now|still|set[ \\t]++to|changed[ \\t]++to))?+"
                + "(?:[ \\t]*+:[ \\t]*+|[ \\t]++)|[ \\t]*+[:=][ \\t]*+)"
                + "[\"'“‘]?+([^\\s\"'“”‘’]++)",
            true,
            CredentialRules::redactSpokenSecret,
            "pass",
            "pin"));
  }

  /**
   * A bearer token, unless it is one ordinary word ({@code bearer authentication}): all letters, in
   * lower case or capitalised.
   */
  private static void redactBearerToken(Matcher m, String text, Edits edits) {
    String token = text.substring(m.start(1), m.end(1));
    boolean letters = token.chars().allMatch(Character::isLetter);
    boolean word =
        letters
            && (token.equals(token.toLowerCase(Locale.ROOT))
                || token.substring(1).equals(token.substring(1).toLowerCase(Locale.ROOT)));
    if (!word) {
      edits.add(m.start(1), m.end(1));
    }
  }

  /**
   * Words that follow "the password is" in prose about passwords rather than in a disclosed one
   * ({@code the password is required}, {@code the password is too short}).
   */
  static final Set<String> NOT_SECRETS =
      Set.of(
          "a",
          "an",
          "the",
          "not",
          "no",
          "yes",
          "required",
          "optional",
          "mandatory",
          "needed",
          "necessary",
          "too",
          "very",
          "set",
          "unset",
          "correct",
          "incorrect",
          "wrong",
          "right",
          "invalid",
          "valid",
          "expired",
          "empty",
          "blank",
          "missing",
          "strong",
          "weak",
          "long",
          "short",
          "case",
          "stored",
          "saved",
          "changed",
          "reset",
          "same",
          "different",
          "being",
          "used",
          "in",
          "on",
          "at",
          "for",
          "also",
          "still",
          "now",
          "never",
          "always",
          "only",
          "just",
          "what",
          "how",
          "where",
          "which",
          "that",
          "this",
          "it",
          "there",
          "here",
          "to",
          "as",
          "of",
          "by",
          "with",
          "without",
          "hashed",
          "encrypted",
          "sensitive",
          "and",
          "or",
          "but",
          "so",
          "true",
          "false",
          "null",
          "none",
          "unknown",
          "ok",
          "fine",
          "good",
          "bad",
          "secure",
          "insecure",
          "stolen",
          "leaked",
          "compromised",
          "visible",
          "hidden",
          "shown",
          "displayed",
          "sent",
          "generated",
          "random",
          "managed",
          "rotated",
          "secret",
          "private",
          "important",
          "easy",
          "hard",
          "simple",
          "complex",
          "known",
          "given",
          "provided",
          "ignored",
          "checked",
          "validated",
          "verified",
          "taken",
          "my",
          "your",
          "his",
          "her",
          "our",
          "their",
          "its",
          "something",
          "nothing",
          "anything",
          "one",
          "updated",
          "case-sensitive",
          "removed",
          "deleted",
          "disabled",
          "enabled",
          "locked",
          "unchanged",
          "accepted",
          "rejected");

  private static final String TRAILING_PUNCTUATION = ".,;:!?)]}";

  /**
   * The value disclosed in "the password is hunter2", "passcode was: 7731", "pin is 1234": kept
   * when it is not an ordinary word from {@link #NOT_SECRETS}; a PIN must be 4 to 8 digits.
   */
  private static void redactSpokenSecret(Matcher m, String text, Edits edits) {
    int start = m.start(2);
    int end = m.end(2);
    while (end > start && TRAILING_PUNCTUATION.indexOf(text.charAt(end - 1)) >= 0) {
      end--;
    }
    if (end == start || Rule.isMarkerAt(text, start)) {
      return;
    }
    String value = text.substring(start, end);
    boolean pin =
        Character.toLowerCase(text.charAt(m.start(1))) == 'p'
            && Character.toLowerCase(text.charAt(m.start(1) + 1)) == 'i';
    if (pin) {
      if (value.length() >= 4
          && value.length() <= 8
          && value.chars().allMatch(c -> c >= '0' && c <= '9')) {
        edits.add(start, end);
      }
      return;
    }
    if (!NOT_SECRETS.contains(value.toLowerCase(Locale.ROOT))) {
      edits.add(start, end);
    }
  }
}
