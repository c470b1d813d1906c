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
 * <p><b>Built-in rules</b>, always on: {@code <private>…</private>} regions become {@code
 * [private]}; private keys, passwords in URLs, cloud and API keys, tokens, JWTs, bearer tokens,
 * secret-named keys' values ({@code password=…}, {@code "api_key": "…"}) and secrets said in words
 * ({@code the password is …}) become {@code [redacted:KIND]}. They run in time linear in the text.
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

  private Redaction(List<HostRule> rules, boolean personalData) {
    this.rules = List.copyOf(rules);
    this.personalData = personalData;
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

  /** The sanitizer that applies this redaction. */
  Sanitizer sanitizer() {
    return Sanitizer.create(rules, personalData);
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
