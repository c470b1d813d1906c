package dev.memhook.core.internal.sanitize;

import static dev.memhook.core.internal.sanitize.PatternRule.group;
import static dev.memhook.core.internal.sanitize.PatternRule.triggered;

import java.util.List;

/**
 * The built-in credential rules, in the order they run: specific shapes before generic ones, so a
 * credential gets the most precise kind that fits. Each becomes {@code [redacted:KIND]}:
 *
 * <ul>
 *   <li>{@code private-key}: PEM and PGP private-key blocks, header to end line
 *   <li>{@code url-credentials}: {@code user:password} (or {@code :password}) in any {@code
 *       scheme://} URL: {@code postgres://}, {@code redis://}, {@code mongodb+srv://} …
 *   <li>{@code aws-key}: AWS access key ids, {@code AKIA…} and {@code ASIA…}
 *   <li>{@code stripe-key}: {@code sk_live_}, {@code sk_test_}, {@code rk_live_}, {@code rk_test_},
 *       {@code whsec_}
 *   <li>{@code anthropic-key}: {@code sk-ant-api03-…}, {@code sk-ant-admin01-…} and every other
 *       {@code sk-ant-} key
 *   <li>{@code github-token}: {@code ghp_ gho_ ghu_ ghs_ ghr_ github_pat_}
 *   <li>{@code gitlab-token}: {@code glpat-}, {@code gldt-}, {@code glrt-}, {@code glptt-}, with 20
 *       or more characters, routable {@code .01.xxxx} suffix included
 *   <li>{@code slack-token}: {@code xoxb- xoxp- xoxa- xoxr- xoxs- xoxe-}, {@code xoxe.xoxp-} and
 *       app-level {@code xapp-} tokens
 *   <li>{@code slack-webhook}: the path of a {@code hooks.slack.com/services/…} (or {@code
 *       /workflows/}, {@code /triggers/}) URL; the host stays
 *   <li>{@code google-key}: {@code AIza} and 35 characters
 *   <li>{@code npm-token}: {@code npm_} and 36 letters and digits
 *   <li>{@code pypi-token}: PyPI and TestPyPI upload tokens ({@code pypi-AgEIcHlwaS5vcmc…})
 *   <li>{@code jwt}: three base64url segments starting {@code eyJ}
 *   <li>{@code openai-key}: {@code sk-proj-}, {@code sk-svcacct-}, {@code sk-admin-}, {@code
 *       sk-None-} keys, and the classic {@code sk-} with 48 letters and digits
 *   <li>{@code api-key}: any other {@code sk-} key of 20 or more characters (the fallback for
 *       providers that copied the shape)
 *   <li>{@code bearer}: the token after {@code Bearer}
 *   <li>{@code aws-secret-key}: the value of {@code aws_secret_access_key = …}, {@code
 *       "SecretAccessKey": "…"} and other keys ending so
 *   <li>{@code secret}: the value of any other secret-named key ({@code password=}, {@code
 *       api_key=}, {@code apiKey:}, {@code "token": "…"}), and a secret said in words ({@code the
 *       password is …})
 * </ul>
 *
 * <p>{@code <private>…</private>} regions are hidden before these rules run ({@link
 * PrivateRegions}). Where a rule redacts a value after a key or a word ({@code Bearer}, {@code
 * password=}, a URL's host), the key stays so a reader can tell what was there.
 *
 * <p>Every pattern here starts at a literal its rule is triggered by and uses possessive or bounded
 * quantifiers only, with no repeated group (an optional one at most, itself possessive and
 * bounded): an attempt reads a bounded stretch, or a run of token characters no other attempt
 * reads, never backtracks into it, and needs no stack in proportion to the text. No pattern needs a
 * boundary on either side: a credential glued to what comes before it ({@code token_ghp_…}, {@code
 * key-sk-ant-…}, {@code xAKIA…}) is redacted when what its prefix starts looks random (see {@link
 * PatternRule#triggered}), and one glued to what comes after it ({@code AKIA…_prod}) loses its own
 * characters, whatever follows.
 *
 * <p>Stateless and thread-safe.
 */
final class CredentialRules {

  /** The characters of a JWT segment, which its rule reads without a bound before a dot. */
  private static final String BASE64URL =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";

  private CredentialRules() {}

  /**
   * The built-in rules after private regions, in order: specific shapes before generic ones, and a
   * token whose random body can hold another token's prefix before that token.
   */
  static List<Rule> all() {
    return List.of(
        new PrivateKeyBlocks(),
        new UrlCredentials(),
        // tokens with a long random body first: another token's short prefix (gho_, xox,
        // AIza, npm_) can occur inside such a body, and redacted first as that token it would
        // cut the body in two and leave the rest of the secret in the text
        triggered(
            "pypi-token",
            // the fixed prefix is the macaroon's location, pypi.org or test.pypi.org, in base64
            "pypi-AgE(?:IcHlwaS5vcmc|NdGVzdC5weXBpLm9yZw)[A-Za-z0-9_-]{50,}+",
            false,
            "",
            group(0),
            "pypi-AgE"),
        triggered(
            "gitlab-token",
            // a routable token ends in .<version>.<checksum>; the optional group reads a bounded
            // stretch and is possessive, so a sentence's full stop after a token costs nothing
            "gl(?:pat|dt|rt|ptt)-[A-Za-z0-9_-]{20,}+" + "(?:\\.[0-9]{1,4}+\\.[A-Za-z0-9]{1,16}+)?+",
            false,
            "",
            group(0),
            "glpat-",
            "gldt-",
            "glrt-",
            "glptt-"),
        triggered("anthropic-key", "sk-ant-[A-Za-z0-9_-]{20,}+", false, "", group(0), "sk-ant-"),
        triggered("aws-key", "(?:AKIA|ASIA)[0-9A-Z]{16}", false, "", group(0), "AKIA", "ASIA"),
        triggered(
            "stripe-key",
            "(?:[sr]k_(?:live|test)_[A-Za-z0-9]{16,}+|whsec_[A-Za-z0-9]{24,}+)",
            false,
            "",
            group(0),
            "sk_live_",
            "sk_test_",
            "rk_live_",
            "rk_test_",
            "whsec_"),
        triggered(
            "github-token",
            "(?:gh[pousr]_[A-Za-z0-9]{30,}+|github_pat_[A-Za-z0-9_]{22,}+)",
            false,
            "",
            group(0),
            "ghp_",
            "gho_",
            "ghu_",
            "ghs_",
            "ghr_",
            "github_pat_"),
        triggered(
            "slack-token",
            "(?:xox[abeprs](?:\\.xox[a-z])?+|xapp)-[A-Za-z0-9-]{10,}+",
            false,
            "",
            group(0),
            "xox",
            "xapp-"),
        triggered(
            "slack-webhook",
            "hooks\\.slack\\.com/(?:services|workflows|triggers)/" + "([A-Za-z0-9_/-]{16,}+)",
            false,
            "",
            group(1),
            "hooks.slack.com/"),
        triggered("google-key", "AIza[0-9A-Za-z_-]{35}", false, "", group(0), "AIza"),
        triggered("npm-token", "npm_[A-Za-z0-9]{36}", false, "", group(0), "npm_"),
        triggered(
            "jwt",
            "eyJ[A-Za-z0-9_-]{8,}+\\.[A-Za-z0-9_-]{8,}+\\.[A-Za-z0-9_-]{8,}+",
            false,
            BASE64URL,
            group(0),
            "eyJ"),
        // the generic sk- shapes run after every other token's rule: "sk-" is short enough to
        // occur inside another credential's random body, which must be redacted as that credential
        triggered(
            "openai-key",
            "sk-(?:(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,}+"
                + "|[A-Za-z0-9]{48}(?![A-Za-z0-9_-]))",
            false,
            "",
            group(0),
            "sk-"),
        triggered("api-key", "sk-[A-Za-z0-9_-]{20,}+", false, "", group(0), "sk-"),
        new BearerTokens(),
        KeyValueSecrets.awsSecretAccessKeys(),
        KeyValueSecrets.generic(),
        new SpokenSecrets());
  }
}
