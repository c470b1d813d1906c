package dev.memhook.testkit;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.IntFunction;

/**
 * Texts built to make a sanitizer slow or wrong: repeated near-misses of every rule's trigger, long
 * runs of separators, dotted shapes, nested quotes, mixed scripts, lone surrogates and control
 * characters, and random mixtures of all of them with real secrets. For tests of a sanitizer or a
 * redaction, and for measuring what they cost per character.
 *
 * <p>Stateless and thread-safe; every generator is deterministic for its arguments.
 */
public final class AdversarialText {

  private AdversarialText() {}

  /** Shapes by name: each makes a text of exactly the asked length by repeating a unit. */
  public static final Map<String, IntFunction<String>> SHAPES =
      Map.ofEntries(
          shape("dotted a.a.", "a."),
          shape("dotted a1.b2.", "a1.b2."),
          shape("equals run", "="),
          shape("colon run", ":"),
          shape("slash run", "/"),
          shape("dash run", "-"),
          shape("at run", "@"),
          shape("nested brackets and quotes", "[{(\"'`<"),
          shape("password= with nothing", "password= "),
          shape("unclosed quoted secrets", "password=\"x password='y "),
          shape("keys ending their lines", "password:\n  token:\n"),
          shape("JSON keys over unquoted values", "{\"token\":1}]"),
          shape("keys without separators", "passpwdsecrettokenkey"),
          shape("BEGIN without end", "-----BEGIN RSA PRIVATE KEY----- "),
          shape("BEGIN labels", "-----BEGIN "),
          shape("scheme runs", "://"),
          shape("credential-less URLs", "a://a:b"),
          shape("eyJ run", "eyJ"),
          shape("JWT near-misses", "eyJaaaaaaaaa.bbbbbbbbb."),
          shape("sk- run", "sk-"),
          shape("words ending in sk-", "task-"),
          shape("glued sk- words", "ask-aaaaaaaaaaaaaaaaaaaaaaaa-"),
          shape("glued JWT near-misses", "xeyJaaaaaaaaa_bbbbbbbbb-"),
          shape("glued ghp_ run", "aghp_"),
          shape("glued AKIA run", "xAKIA"),
          shape("underscored github_pat_ run", "_github_pat_"),
          shape("bearer words", "bearer "),
          shape("stray private tags", "<priv</private>"),
          shape("spoken near-misses", "the password is "),
          shape("spoken disclosures", "the password is: a "),
          shape("spoken qualifiers", "the password for a b c "),
          shape("AKIA run", "AKIA"),
          shape("glpat- run", "glpat-"),
          shape("npm_ run", "npm_"),
          shape("pypi prefix run", "pypi-AgEIcHlwaS5vcmc"),
          shape("xapp- run", "xapp-"),
          shape("slack hook run", "hooks.slack.com/services/"),
          shape("escaped JSON keys", "{\\\"apiKey\\\":\\\""),
          shape("card-like digits", "4111 "),
          shape("phone-like digits", "+1 555 "),
          shape("national-id near-misses", "123-45-AB 12 34 "),
          shape("e-mail near-misses", "a@b."),
          shape("NUL and controls", "\u0000\u0001\u001b\t\r\n"),
          shape("lone surrogates", "\uD800x\uDC00"));

  private static Map.Entry<String, IntFunction<String>> shape(String name, String unit) {
    return Map.entry(name, n -> repeatTo(unit, n));
  }

  public static String repeatTo(String unit, int length) {
    StringBuilder sb = new StringBuilder(length + unit.length());
    while (sb.length() < length) {
      sb.append(unit);
    }
    sb.setLength(length);
    return sb.toString();
  }

  private static final List<String> WORDS =
      List.of(
          "the",
          "deploy",
          "uses",
          "a",
          "gateway",
          "timeout",
          "of",
          "thirty",
          "seconds",
          "and",
          "retries",
          "twice",
          "before",
          "it",
          "reports",
          "an",
          "error",
          "to",
          "the",
          "caller",
          "we",
          "agreed",
          "that",
          "builds",
          "ship",
          "weekly",
          "from",
          "main",
          "after",
          "review",
          "logs",
          "are",
          "kept",
          "for",
          "ninety",
          "days",
          "in",
          "cold",
          "storage",
          "with",
          "compression",
          "enabled",
          "by",
          "default",
          "on",
          "every",
          "node");

  /** Ordinary English-like prose of exactly {@code length} characters. */
  public static String prose(long seed, int length) {
    SplittableRandom random = new SplittableRandom(seed);
    StringBuilder sb = new StringBuilder(length + 16);
    int inSentence = 0;
    while (sb.length() < length) {
      String word = WORDS.get(random.nextInt(WORDS.size()));
      if (inSentence == 0) {
        word = Character.toUpperCase(word.charAt(0)) + word.substring(1);
      }
      sb.append(word);
      if (++inSentence > 8 + random.nextInt(10)) {
        sb.append(". ");
        inSentence = 0;
      } else {
        sb.append(' ');
      }
    }
    sb.setLength(length);
    return sb.toString();
  }

  /** Pieces random texts are made of: triggers, separators, markers, scripts, real secrets. */
  private static final List<String> PIECES =
      List.of(
          "password",
          "Password",
          "passwd",
          "pwd",
          "secret",
          "token",
          "api_key",
          "key",
          "pin",
          "passcode",
          " is ",
          " was ",
          "=",
          ":",
          "=>",
          ":=",
          " ",
          "\t",
          "\n",
          "\r\n",
          ",",
          ";",
          "\"",
          "'",
          "\\",
          "“",
          "”",
          "{",
          "}",
          "[",
          "]",
          "(",
          ")",
          "<",
          ">",
          "/",
          "//",
          "://",
          "@",
          ".",
          "-",
          "_",
          "+",
          "a",
          "b",
          "x1",
          "42",
          "1234",
          "0000",
          "555",
          "4111",
          "hunter2",
          "-----BEGIN ",
          "-----END ",
          "RSA ",
          "PGP ",
          "PRIVATE KEY",
          " BLOCK",
          "-----",
          "<private>",
          "</private>",
          "<PRIVATE>",
          "<priv",
          "ate>",
          "[private]",
          "[redacted:",
          "[redacted:secret]",
          "[redacted:jwt]",
          "eyJ",
          "eyJhbGciOiJIUzI1NiJ9",
          "AKIA",
          "ASIA",
          "IOSFODNN7EXAMPLE",
          "sk-",
          "sk_live_",
          "rk_live_",
          "abcdefghijklmnopqrstuvwx",
          "ghp_",
          "xoxb-",
          "xapp-",
          "xoxe.",
          "glpat-",
          "gldt-",
          "npm_",
          "pypi-AgEIcHlwaS5vcmc",
          "hooks.slack.com/services/",
          "sk-ant-api03-",
          "sk-proj-",
          "SecretAccessKey",
          "\\\"",
          "AIza",
          "bearer ",
          "Bearer ",
          "redis",
          "postgres",
          "http",
          "is",
          "the ",
          "my ",
          "now ",
          "set to ",
          "aws_secret_access_key",
          "+1",
          "+44 ",
          "(555) ",
          "123-45-6789",
          "AB123456C",
          "bob",
          "example",
          "com",
          "org",
          "\u0000",
          "\u001b",
          "\uD800",
          "\uDC00",
          "\uD83D\uDE00",
          "пароль",
          "密码",
          "كلمة",
          "é",
          "İ",
          "ß");

  /** A random mixture of up to {@code maxPieces} pieces. */
  public static String mixture(SplittableRandom random, int maxPieces) {
    int count = 1 + random.nextInt(maxPieces);
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < count; i++) {
      sb.append(PIECES.get(random.nextInt(PIECES.size())));
    }
    return sb.toString();
  }
}
