package dev.memhook.core.internal.sanitize;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

/**
 * Random credentials of every built-in kind, shaped like the real ones, each with the name it is
 * usually stored under (a JSON key, an environment variable, a query parameter).
 */
final class CredentialSamples {

  private CredentialSamples() {}

  /**
   * One generated credential.
   *
   * @param kind the kind its marker must name ({@code private} for a private region)
   * @param secret the characters that must not survive sanitizing
   * @param plain how it appears in prose: the token, or {@code name = value} for keyed kinds
   * @param name the key it is stored under in JSON, an environment or a query string
   * @param value what is stored under {@code name}
   * @param urlSafe whether {@code value} can sit in a URL's query string
   */
  record Sample(
      String kind, String secret, String plain, String name, String value, boolean urlSafe) {

    String marker() {
      return kind.equals("private") ? PrivateRegions.MARKER : Rule.marker(kind);
    }
  }

  private static final String UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  private static final String DIGITS = "0123456789";
  private static final String ALNUM = UPPER + UPPER.toLowerCase(Locale.ROOT) + DIGITS;
  private static final String BASE64URL = ALNUM + "-_";
  private static final String BASE64 = ALNUM + "+/";
  private static final String HEX = "0123456789abcdef";

  /** A generator per kind. */
  static final Map<String, Function<Random, Sample>> KINDS =
      Map.ofEntries(
          token(
              "aws-key",
              r -> pick(r, "AKIA", "ASIA") + chars(r, UPPER + DIGITS, 16),
              "AWS_ACCESS_KEY_ID",
              "AccessKeyId"),
          token(
              "stripe-key",
              r ->
                  pick(r, "sk_live_", "rk_live_", "sk_test_", "rk_test_") + chars(r, ALNUM, 24, 99),
              "STRIPE_SECRET_KEY",
              "stripeKey"),
          token(
              "anthropic-key",
              r -> "sk-ant-" + pick(r, "api03-", "admin01-") + chars(r, BASE64URL, 93) + "AA",
              "ANTHROPIC_API_KEY",
              "x-api-key"),
          token(
              "openai-key",
              r ->
                  switch (r.nextInt(3)) {
                    case 0 ->
                        "sk-proj-" + chars(r, BASE64URL, 74) + "T3BlbkFJ" + chars(r, ALNUM, 74);
                    case 1 -> "sk-svcacct-" + chars(r, BASE64URL, 40, 120);
                    default -> "sk-" + chars(r, ALNUM, 20) + "T3BlbkFJ" + chars(r, ALNUM, 20);
                  },
              "OPENAI_API_KEY",
              "openai_api_key"),
          token("api-key", r -> "sk-" + chars(r, HEX, 32), "DEEPSEEK_API_KEY", "llmKey"),
          token(
              "github-token",
              r ->
                  r.nextInt(4) == 0
                      ? "github_pat_" + chars(r, ALNUM, 22) + "_" + chars(r, ALNUM, 59)
                      : pick(r, "ghp_", "gho_", "ghu_", "ghs_", "ghr_") + chars(r, ALNUM, 36),
              "GITHUB_TOKEN",
              "GH_TOKEN"),
          token(
              "gitlab-token",
              r ->
                  r.nextInt(4) == 0
                      ? "glpat-" + chars(r, BASE64URL, 37, 60) + ".01." + chars(r, ALNUM, 9)
                      : pick(r, "glpat-", "gldt-", "glrt-") + chars(r, BASE64URL, 20, 40),
              "GITLAB_TOKEN",
              "private_token"),
          token(
              "slack-token",
              r ->
                  r.nextBoolean()
                      ? pick(r, "xoxb-", "xoxp-")
                          + chars(r, DIGITS, 12)
                          + "-"
                          + chars(r, DIGITS, 13)
                          + "-"
                          + chars(r, ALNUM, 24)
                      : "xapp-1-A"
                          + chars(r, UPPER + DIGITS, 10)
                          + "-"
                          + chars(r, DIGITS, 13)
                          + "-"
                          + chars(r, HEX, 64),
              "SLACK_BOT_TOKEN",
              "slackToken"),
          token("google-key", r -> "AIza" + chars(r, BASE64URL, 35), "GOOGLE_API_KEY", "mapsKey"),
          token("npm-token", r -> "npm_" + chars(r, ALNUM, 36), "NPM_TOKEN", "_authToken"),
          token(
              "pypi-token",
              r ->
                  pick(r, "pypi-AgEIcHlwaS5vcmc", "pypi-AgENdGVzdC5weXBpLm9yZw")
                      + chars(r, BASE64URL, 60, 200),
              "TWINE_PASSWORD",
              "pypiToken"),
          token(
              "jwt",
              r ->
                  "eyJ"
                      + chars(r, BASE64URL, 20, 40)
                      + ".eyJ"
                      + chars(r, BASE64URL, 30, 80)
                      + "."
                      + chars(r, BASE64URL, 43),
              "ID_TOKEN",
              "jwt"),
          Map.entry(
              "slack-webhook",
              r -> {
                String path =
                    "T"
                        + chars(r, UPPER + DIGITS, 8, 10)
                        + "/B"
                        + chars(r, UPPER + DIGITS, 8, 10)
                        + "/"
                        + chars(r, ALNUM, 24);
                String url = "https://hooks.slack.com/services/" + path;
                return new Sample("slack-webhook", path, url, "SLACK_WEBHOOK_URL", url, true);
              }),
          Map.entry(
              "bearer",
              r -> {
                // no '.' or '~': either could let a JWT or another rule start inside the token
                String token = chars(r, DIGITS, 2) + chars(r, BASE64URL, 22, 60);
                String value = "Bearer " + token;
                return new Sample(
                    "bearer", token, "Authorization: " + value, "Authorization", value, false);
              }),
          Map.entry(
              "url-credentials",
              r -> {
                String scheme = pick(r, "postgres", "postgresql", "mysql", "mongodb+srv", "amqp");
                boolean redis = r.nextInt(5) == 0;
                String user = redis ? "" : chars(r, "abcdefghijklmnopqrstuvwxyz", 3, 10);
                String password = chars(r, ALNUM + "-._~", 12, 24);
                String url =
                    (redis ? "redis" : scheme)
                        + "://"
                        + user
                        + ":"
                        + password
                        + "@db-"
                        + chars(r, DIGITS, 1, 3)
                        + ".internal:5432/app";
                return new Sample(
                    "url-credentials", user + ":" + password, url, "DATABASE_URL", url, true);
              }),
          Map.entry(
              "private-key",
              r -> {
                String label = pick(r, "RSA ", "EC ", "OPENSSH ", "ENCRYPTED ", "");
                StringBuilder body = new StringBuilder();
                for (int line = 1 + r.nextInt(6); line > 0; line--) {
                  body.append(chars(r, BASE64, 64)).append('\n');
                }
                String key =
                    "-----BEGIN "
                        + label
                        + "PRIVATE KEY-----\n"
                        + body
                        + "-----END "
                        + label
                        + "PRIVATE KEY-----";
                return new Sample(
                    "private-key", body.toString().trim(), key, "SSH_KEY", key, false);
              }),
          Map.entry(
              "private",
              r -> {
                String inner = "home " + chars(r, ALNUM, 10, 30);
                String region = pick(r, "<private>", "<PRIVATE>") + inner + "</private>";
                return new Sample("private", inner, region, "note", region, false);
              }),
          Map.entry(
              "aws-secret-key",
              r -> {
                String name =
                    pick(
                        r,
                        "aws_secret_access_key",
                        "AWS_SECRET_ACCESS_KEY",
                        "SecretAccessKey",
                        "secretAccessKey");
                String value = chars(r, BASE64, 40);
                return new Sample(
                    "aws-secret-key",
                    value,
                    name + pick(r, " = ", "=", ": ") + value,
                    name,
                    value,
                    true);
              }),
          Map.entry(
              "secret",
              r -> {
                String name =
                    pick(
                        r,
                        "api_key",
                        "apiKey",
                        "API_KEY",
                        "x-api-key",
                        "db_password",
                        "client_secret",
                        "access_token");
                String value = chars(r, ALNUM, 1) + chars(r, ALNUM + "!#%*^", 11, 31);
                return new Sample(
                    "secret", value, name + pick(r, " = ", "=", ": ") + value, name, value, true);
              }));

  /** The kinds, in a fixed order, so a seed picks the same kinds on every run. */
  static final List<String> KIND_NAMES = KINDS.keySet().stream().sorted().toList();

  /** A random credential of a random kind. */
  static Sample next(Random random) {
    return KINDS.get(KIND_NAMES.get(random.nextInt(KIND_NAMES.size()))).apply(random);
  }

  /** A kind whose credential is one token, stored under one of {@code names}. */
  private static Map.Entry<String, Function<Random, Sample>> token(
      String kind, Function<Random, String> token, String... names) {
    return Map.entry(
        kind,
        r -> {
          String t = token.apply(r);
          String name = pick(r, names);
          return new Sample(kind, t, t, name, t, true);
        });
  }

  static String pick(Random random, String... options) {
    return options[random.nextInt(options.length)];
  }

  static String chars(Random random, String alphabet, int length) {
    StringBuilder sb = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return sb.toString();
  }

  static String chars(Random random, String alphabet, int min, int max) {
    return chars(random, alphabet, min + random.nextInt(max - min + 1));
  }
}
