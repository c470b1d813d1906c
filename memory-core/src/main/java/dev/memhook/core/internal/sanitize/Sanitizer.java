package dev.memhook.core.internal.sanitize;

import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one place where text is redacted before anything is stored: {@code <private>…</private>}
 * regions (an unclosed tag hides the rest of the text) and credential patterns (cloud keys, API
 * tokens, bearer tokens, JWTs, private-key blocks, passwords in URLs and {@code key=value}
 * secrets). Redactions read {@code [private]} or {@code [redacted:KIND]}, so a reader can tell
 * something was there without seeing it.
 *
 * <p>Stateless and thread-safe. Applying it twice gives the same text as applying it once.
 */
public final class Sanitizer {

  private record Rule(String kind, Pattern pattern, String replacement) {}

  private static final Pattern PRIVATE_BLOCK =
      Pattern.compile("(?is)<private>.*?(?:</private>|\\z)");
  private static final Pattern STRAY_CLOSE = Pattern.compile("(?i)</private>");

  private static final List<Rule> RULES =
      List.of(
          new Rule(
              "private-key",
              Pattern.compile(
                  "-----BEGIN [A-Z ]*PRIVATE KEY-----[\\s\\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|\\z)"),
              null),
          new Rule("aws-key", Pattern.compile("\\b(?:AKIA|ASIA)[0-9A-Z]{16}\\b"), null),
          new Rule("api-key", Pattern.compile("\\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}"), null),
          new Rule(
              "github-token",
              Pattern.compile("\\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})"),
              null),
          new Rule("slack-token", Pattern.compile("\\bxox[abprs]-[A-Za-z0-9-]{10,}"), null),
          new Rule("google-key", Pattern.compile("\\bAIza[0-9A-Za-z_-]{35}\\b"), null),
          new Rule(
              "jwt",
              Pattern.compile("\\beyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}"),
              null),
          new Rule(
              "bearer",
              Pattern.compile("(?i)\\b(bearer)\\s+(?!\\[redacted)[A-Za-z0-9._~+/-]{12,}=*"),
              "$1 [redacted:bearer]"),
          new Rule(
              "url-password",
              Pattern.compile("(?i)\\b([a-z][a-z0-9+.-]*://)[^/\\s:@]+:[^/\\s@]+@"),
              "$1[redacted:url-credentials]@"),
          new Rule(
              "secret",
              Pattern.compile(
                  "(?i)\\b((?:password|passwd|pwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token|client[_-]?secret|private[_-]?key)"
                      + "\\s*[:=]\\s*)(?!\\[redacted)(\"[^\"]*\"|'[^']*'|[^\\s,;]+)"),
              "$1[redacted:secret]"));

  private static final Sanitizer DEFAULTS = new Sanitizer();

  private Sanitizer() {}

  /** The built-in rules. */
  public static Sanitizer defaults() {
    return DEFAULTS;
  }

  /** {@code text} with private regions and credentials redacted. */
  public String sanitize(String text) {
    Objects.requireNonNull(text, "text");
    String out = PRIVATE_BLOCK.matcher(text).replaceAll("[private]");
    out = STRAY_CLOSE.matcher(out).replaceAll("");
    for (Rule rule : RULES) {
      Matcher m = rule.pattern().matcher(out);
      if (m.find()) {
        String replacement =
            rule.replacement() != null
                ? rule.replacement()
                : Matcher.quoteReplacement("[redacted:" + rule.kind() + "]");
        out = m.replaceAll(replacement);
      }
    }
    return out;
  }
}
