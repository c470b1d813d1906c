package dev.memhook.core.internal.sanitize;

import static com.google.common.base.Preconditions.checkArgument;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The one place where text is redacted before anything is stored.
 *
 * <p><b>What it redacts</b>, in this order: {@code <private>…</private>} regions, in any case,
 * become {@code [private]} (an unclosed tag hides the rest of the text; a stray close tag is
 * removed); then each credential shape becomes {@code [redacted:KIND]}, in the order and with the
 * kinds {@code CredentialRules} lists: private-key blocks, passwords in URLs, cloud, payment, model
 * provider, code host, chat and package registry keys and tokens (each with its provider's kind:
 * {@code aws-key}, {@code stripe-key}, {@code anthropic-key}, {@code openai-key}, {@code
 * github-token}, {@code gitlab-token}, {@code slack-token}, {@code npm-token}, …), JWTs, bearer
 * tokens, AWS secret access keys ({@code aws-secret-key}), the value of a secret-named key in
 * configuration, environment, JSON and YAML ({@code password=…}, {@code "api_key": "…"}; kind
 * {@code secret}), and a secret said in words ({@code the password is …}, {@code pin is 1234}; kind
 * {@code secret}). Where a rule redacts a value after a key, the key and separator stay so a reader
 * can tell what was there. Optional rules for personal data ({@code card}, {@code national-id},
 * {@code email}, {@code phone}) and the host's own rules run last, in the order given.
 *
 * <p><b>Idempotent:</b> sanitizing sanitized text changes nothing. The rules run again over their
 * own output until it stops changing (text without secrets takes one pass), so a redaction that
 * changes what an earlier rule sees is caught; a host rule that matches inside a marker can break
 * this.
 *
 * <p><b>Linear time:</b> every built-in rule finds its candidates by a literal scan and reads each
 * character a bounded number of times, so sanitizing takes time proportional to the text's length
 * whatever its shape.
 *
 * <p><b>Bounded per call:</b> every rule that runs a regex reads the text under a step budget
 * proportional to its length. A rule that spends it (a host pattern that backtracks, such as {@code
 * (a+)+b}) or that recurses too deeply for the text makes the call fail closed: {@link #sanitize}
 * throws {@link IllegalArgumentException} naming the rule's kind and saying that the text was not
 * stored, rather than storing it unredacted or hanging the caller.
 *
 * <p>Immutable and thread-safe: each call works on its own copy of the state it needs.
 */
public final class Sanitizer {

  private static final Sanitizer DEFAULTS = new Sanitizer(CredentialRules.all());

  /**
   * Passes of the rules at most. A redaction can change what a rule that ran before it sees (a
   * marker where a digit was lets an id before it end there), so the rules run again until the text
   * stops changing; text without secrets takes one pass, and each pass is linear.
   */
  private static final int MAX_PASSES = 4;

  private final List<Rule> rules;

  private Sanitizer(List<Rule> rules) {
    this.rules = List.copyOf(rules);
  }

  /** The built-in credential rules, without the personal-data rules or any host rule. */
  public static Sanitizer defaults() {
    return DEFAULTS;
  }

  /**
   * The built-in credential rules, then the personal-data rules if {@code personalData}, then
   * {@code hostRules} in order.
   *
   * @throws NullPointerException if {@code hostRules} or one of them is null
   * @throws IllegalArgumentException if two host rules have the same kind
   */
  public static Sanitizer create(List<HostRule> hostRules, boolean personalData) {
    Objects.requireNonNull(hostRules, "hostRules");
    if (hostRules.isEmpty() && !personalData) {
      return DEFAULTS;
    }
    List<Rule> all = new ArrayList<>(CredentialRules.all());
    if (personalData) {
      all.addAll(PersonalDataRules.all());
    }
    Set<String> kinds = new HashSet<>();
    for (HostRule rule : hostRules) {
      Objects.requireNonNull(rule, "host rule");
      checkArgument(
          kinds.add(rule.kind()),
          "two redaction rules have the kind '%s'; give each rule its own kind",
          rule.kind());
      all.add(rule.toRule());
    }
    return new Sanitizer(all);
  }

  /**
   * {@code text} with private regions and everything the rules match redacted.
   *
   * @throws NullPointerException if {@code text} is null
   * @throws IllegalArgumentException if a rule spends its step budget or recurses too deeply; the
   *     message names the rule's kind, and the text must not be stored
   */
  public String sanitize(String text) {
    Objects.requireNonNull(text, "text");
    String out = PrivateRegions.hide(text);
    for (int pass = 0; pass < MAX_PASSES; pass++) {
      String next = applyRules(out, text.length());
      if (next.equals(out)) {
        break;
      }
      out = next;
    }
    return out;
  }

  /**
   * {@code value} as the value of {@code key} in a structure, such as a memory's attribute:
   * redacted whole when {@code key} names a secret ({@code password}, {@code db_password}, {@code
   * Deploy Token}, {@code aws_secret_access_key}), as the rules redact the value of such a key in
   * {@code key=value} text, and otherwise sanitized as any text. The key and the value are held
   * apart, so no text holds the pair for a rule to find, and a secret without a shape of its own (a
   * password) would be stored as given.
   *
   * @throws NullPointerException if an argument is null
   * @throws IllegalArgumentException as {@link #sanitize}
   */
  public String sanitizeValue(String key, String value) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    String kind = KeyValueSecrets.kindOfKey(key);
    return kind != null && !value.isBlank() ? Rule.marker(kind) : sanitize(value);
  }

  private String applyRules(String input, int originalLength) {
    Subject subject = new Subject(input);
    for (Rule rule : rules) {
      Edits edits = new Edits();
      try {
        rule.find(subject, edits);
      } catch (StepBudget.Exceeded e) {
        throw failClosed(rule, originalLength, "did not finish within its time budget");
      } catch (StackOverflowError e) {
        throw failClosed(rule, originalLength, "recursed too deeply");
      }
      subject.apply(edits, Rule.marker(rule.kind()));
    }
    return subject.text();
  }

  private static IllegalArgumentException failClosed(Rule rule, int length, String what) {
    return new IllegalArgumentException(
        "redaction rule '"
            + rule.kind()
            + "' "
            + what
            + " on a text of "
            + length
            + " characters, so the text was not stored; rewrite the rule's pattern without nested"
            + " or overlapping repetition such as (a+)+, or store shorter texts");
  }

  @Override
  public String toString() {
    List<String> kinds = new ArrayList<>();
    for (Rule rule : rules) {
      kinds.add(rule.kind());
    }
    return "Sanitizer" + kinds;
  }
}
