package dev.memhook.core.internal.sanitize;

import static dev.memhook.core.internal.sanitize.PatternRule.group;
import static dev.memhook.core.internal.sanitize.PatternRule.triggered;

import java.util.List;

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
            "",
            group(0),
            "AKIA",
            "ASIA"),
        triggered(
            "stripe-key",
            "(?<![A-Za-z0-9_])(?:[sr]k_(?:live|test)_[A-Za-z0-9]{16,}+|whsec_[A-Za-z0-9]{24,}+)",
            false,
            "_",
            group(0),
            "sk_live_",
            "sk_test_",
            "rk_live_",
            "rk_test_",
            "whsec_"),
        triggered(
            "api-key", "(?<![A-Za-z0-9_-])sk-[A-Za-z0-9_-]{20,}+", false, "_-", group(0), "sk-"),
        triggered(
            "github-token",
            "(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{30,}+|github_pat_[A-Za-z0-9_]{22,}+)",
            false,
            "_",
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
            "_-",
            group(0),
            "xox"),
        triggered(
            "google-key",
            "(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])",
            false,
            "_-",
            group(0),
            "AIza"),
        triggered(
            "jwt",
            "(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}+\\.[A-Za-z0-9_-]{8,}+\\.[A-Za-z0-9_-]{8,}+",
            false,
            "_-",
            group(0),
            "eyJ"),
        new BearerTokens(),
        new KeyValueSecrets(),
        new SpokenSecrets());
  }
}
