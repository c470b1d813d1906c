package dev.memhook.core;

import static com.google.common.base.Preconditions.checkArgument;

import dev.memhook.core.internal.sanitize.HostRule;
import dev.memhook.core.internal.sanitize.Sanitizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * What is redacted from every text a service stores, before anything is written: the built-in
 * rules, the host's own rules, and whether the optional personal-data rules run. Set it with {@link
 * Memhook.Builder#redaction(Redaction)}.
 *
 * <pre>{@code
 * Redaction redaction = Redaction.defaults()
 *     .withRule("ticket", Pattern.compile("TCK-[0-9]{6}"))
 *     .withRule("employee-id", Pattern.compile("(employee id: *)[0-9]+"), 1)
 *     .withPersonalData();
 * }</pre>
 *
 * <p><b>Built-in rules</b>, always on, linear in the text's length: {@code <private>…</private>}
 * regions become {@code [private]}, and each credential below becomes {@code [redacted:KIND]}, the
 * most specific kind first. Where a value follows a key or a word ({@code Bearer}, {@code
 * password=}, a URL's host), the key stays so a reader can tell what was there.
 *
 * <ul>
 *   <li>{@code private-key}: PEM and PGP private-key blocks
 *   <li>{@code url-credentials}: the user and password of a URL ({@code postgres://user:pw@},
 *       {@code redis://:pw@}, {@code mongodb+srv://user:pw@})
 *   <li>{@code aws-key}: AWS access key ids ({@code AKIA…}, {@code ASIA…})
 *   <li>{@code aws-secret-key}: AWS secret access keys ({@code aws_secret_access_key = …}, {@code
 *       "SecretAccessKey": "…"})
 *   <li>{@code stripe-key}: {@code sk_live_}, {@code sk_test_}, {@code rk_live_}, {@code rk_test_},
 *       {@code whsec_}
 *   <li>{@code anthropic-key}: {@code sk-ant-api03-…}, {@code sk-ant-admin01-…}
 *   <li>{@code openai-key}: {@code sk-proj-…}, {@code sk-svcacct-…}, {@code sk-admin-…} and classic
 *       {@code sk-…} keys
 *   <li>{@code api-key}: any other {@code sk-…} key
 *   <li>{@code github-token}: {@code ghp_ gho_ ghu_ ghs_ ghr_ github_pat_}
 *   <li>{@code gitlab-token}: {@code glpat- gldt- glrt- glptt-}
 *   <li>{@code slack-token}: {@code xoxb- xoxp- xoxa- xoxr- xoxs- xoxe-} and {@code xapp-}
 *   <li>{@code slack-webhook}: the path of a {@code hooks.slack.com/services/…} URL
 *   <li>{@code google-key}: Google API keys ({@code AIza…})
 *   <li>{@code npm-token}: {@code npm_…}
 *   <li>{@code pypi-token}: PyPI and TestPyPI upload tokens ({@code pypi-AgEIcHlwaS5vcmc…})
 *   <li>{@code jwt}: JSON web tokens ({@code eyJ….….…})
 *   <li>{@code bearer}: the token after {@code Bearer}, as in {@code Authorization: Bearer …}
 *   <li>{@code secret}: the value of any other secret-named key ({@code password=…}, {@code
 *       api_key=…}, {@code apiKey: …}, {@code "token": "…"}) and a secret said in words ({@code the
 *       password is …}, {@code my pin is 1234})
 * </ul>
 *
 * <p><b>Personal data</b>, off by default, on with {@link #withPersonalData()}: payment card
 * numbers that pass the Luhn check ({@code card}), US social security and UK national insurance
 * numbers ({@code national-id}), e-mail addresses ({@code email}) and phone numbers ({@code
 * phone}). A long number that happens to pass the Luhn check is redacted too.
 *
 * <p><b>Host rules</b> run after the built-in ones, in the order added; every match becomes {@code
 * [redacted:KIND]}. A host pattern may backtrack, so each rule's work on a text is bounded by a
 * budget proportional to the text's length: a rule that spends it makes {@code remember} or {@code
 * update} throw {@link IllegalArgumentException} naming the rule, and the text is not stored
 * (redaction fails closed, never open).
 *
 * <p>Immutable and thread-safe; every {@code with…} method returns a new value. Null arguments
 * throw {@link NullPointerException}.
 */
public final class Redaction {

  private static final Redaction DEFAULTS = new Redaction(List.of(), false);

  private final List<HostRule> rules;
  private final boolean personalData;
  private final Sanitizer sanitizer;

  private Redaction(List<HostRule> rules, boolean personalData) {
    this.rules = List.copyOf(rules);
    this.personalData = personalData;
    this.sanitizer = Sanitizer.create(this.rules, personalData);
  }

  /** The built-in rules only: no host rule, personal-data rules off. */
  public static Redaction defaults() {
    return DEFAULTS;
  }

  /**
   * This redaction and a rule that replaces every match of {@code pattern} by {@code
   * [redacted:KIND]}.
   *
   * @throws IllegalArgumentException if {@code kind} is not 1 to 40 characters of {@code a-z},
   *     {@code 0-9} and {@code -}, or another host rule already has it
   */
  public Redaction withRule(String kind, Pattern pattern) {
    return withRule(kind, pattern, 0);
  }

  /**
   * This redaction and a rule that replaces every match of {@code pattern} by {@code
   * [redacted:KIND]}, keeping the match's text up to the end of group {@code keptGroup} as a prefix
   * (0 keeps nothing).
   *
   * @throws IllegalArgumentException if {@code kind} is not 1 to 40 characters of {@code a-z},
   *     {@code 0-9} and {@code -}, another host rule already has it, or {@code keptGroup} is not 0
   *     or a group of {@code pattern}
   */
  public Redaction withRule(String kind, Pattern pattern, int keptGroup) {
    HostRule rule = new HostRule(kind, pattern, keptGroup);
    for (HostRule existing : rules) {
      checkArgument(
          !existing.kind().equals(kind),
          "a redaction rule of kind '%s' was already added (%s); give each rule its own kind",
          kind,
          existing.pattern());
    }
    List<HostRule> next = new ArrayList<>(rules);
    next.add(rule);
    return new Redaction(next, personalData);
  }

  /** This redaction with the personal-data rules on. */
  public Redaction withPersonalData() {
    return new Redaction(rules, true);
  }

  /** Whether the personal-data rules run. */
  public boolean personalData() {
    return personalData;
  }

  /** The kinds of the host rules, in the order they run. */
  public List<String> ruleKinds() {
    List<String> kinds = new ArrayList<>();
    for (HostRule rule : rules) {
      kinds.add(rule.kind());
    }
    return List.copyOf(kinds);
  }

  /**
   * {@code text} redacted exactly as a service built with this redaction redacts what it stores,
   * for text a host writes somewhere else first (a spool, a log) and must not keep in the clear.
   * Idempotent: redacting redacted text changes nothing.
   *
   * @throws NullPointerException if {@code text} is null
   * @throws IllegalArgumentException if a host rule spends its step budget; the message names the
   *     rule, and the text must not be written
   */
  public String redact(String text) {
    return sanitizer.sanitize(text);
  }

  /** The sanitizer that applies this redaction. */
  Sanitizer sanitizer() {
    return sanitizer;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof Redaction)) {
      return false;
    }
    Redaction other = (Redaction) o;
    return personalData == other.personalData && sameRules(other);
  }

  private boolean sameRules(Redaction other) {
    if (rules.size() != other.rules.size()) {
      return false;
    }
    for (int i = 0; i < rules.size(); i++) {
      HostRule a = rules.get(i);
      HostRule b = other.rules.get(i);
      if (!a.kind().equals(b.kind())
          || a.keptGroup() != b.keptGroup()
          || !a.pattern().pattern().equals(b.pattern().pattern())
          || a.pattern().flags() != b.pattern().flags()) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    return Objects.hash(ruleKinds(), personalData);
  }

  @Override
  public String toString() {
    return "Redaction{rules=" + ruleKinds() + ", personalData=" + personalData + "}";
  }
}
