package dev.memhook.core.internal.sanitize;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every built-in credential kind, on a realistic example, in the places a coding agent's events
 * carry it: prose, a JSON value, a shell assignment and a URL query string; and the near-misses
 * that must stay as they are.
 */
class CredentialKindsTest {

  private static String sanitize(String text) {
    return Sanitizer.defaults().sanitize(text);
  }

  /** Where a whole token sits in an event; {@code TOKEN} marks its place. */
  private static final List<String> WRAPPERS =
      List.of(
          "the deploy used TOKEN yesterday.",
          "{\"token\":\"TOKEN\",\"region\":\"eu-west-1\"}",
          "export SERVICE_CREDENTIAL=TOKEN && ./deploy.sh",
          "curl 'https://api.example.com/v1/items?key=TOKEN&page=2'");

  /** Kinds whose token is redacted whole, each with a realistic token. */
  static Stream<Arguments> wholeTokens() {
    return Stream.of(
        Arguments.of("aws-key", "AKIAIOSFODNN7EXAMPLE"),
        Arguments.of("aws-key", "ASIAY34FZKBOKMUTVV7A"),
        Arguments.of("stripe-key", "sk_live_51HfXyzAbCdEfGhIjKlMnOpQrStUvWx"),
        Arguments.of("stripe-key", "rk_live_51HfXyzAbCdEfGhIjKlMnOpQrStUvWx"),
        Arguments.of(
            "anthropic-key",
            "sk-ant-api03-Xq9vZ2mK7pL4nR8sT1uW3yB6cD0eF5gH-jK2lM_4nP6qR8sT0uV2wX4yZ6aB8cD0eF2gH4iJ6kL8mN0oP2qR4sT6uV8wX0yZ2aB4cD6eF8gA-BCdEfAA"),
        Arguments.of(
            "anthropic-key", "sk-ant-admin01-Zx8cV7bN6mQ5wE4rT3yU2iO1pA0sD9fG8hJ7kL6zX5cV4bN3mAA"),
        Arguments.of(
            "openai-key",
            "sk-proj-4fGh7JkL9mNpQrStUvWxYz01-23_45AbCdEfGhIjKlMnOpQrT3BlbkFJsTuVwXyZ0a1B2c3D4e5F6g7H8"),
        Arguments.of(
            "openai-key", "sk-svcacct-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56T3BlbkFJQr78St90Uv12Wx34"),
        Arguments.of("openai-key", "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"),
        Arguments.of("api-key", "sk-9f86d081884c7d659a2feaa0c55ad015"),
        Arguments.of("github-token", "ghp_16C7e42F292c6912E7710c838347Ae178B4a"),
        Arguments.of("github-token", "gho_16C7e42F292c6912E7710c838347Ae178B4a"),
        Arguments.of("github-token", "ghu_16C7e42F292c6912E7710c838347Ae178B4a"),
        Arguments.of("github-token", "ghs_16C7e42F292c6912E7710c838347Ae178B4a"),
        Arguments.of("github-token", "ghr_16C7e42F292c6912E7710c838347Ae178B4a"),
        Arguments.of(
            "github-token",
            "github_pat_11ABCDEFG0aBcDeFgHiJkLmN_oPqRsTuVwXyZ0123456789aBcDeFgHiJkLmNoPqRsTuVwXyZ0123"),
        Arguments.of("gitlab-token", "glpat-z_sxgtrfAxKr8q1TPY8Y"),
        Arguments.of("gitlab-token", "glpat-Ab3dEf6hIj9lMn2pQr5tUv8xYz1bCd4fGh7jK.01.0m2hq0s1a"),
        Arguments.of("gitlab-token", "gldt-sYk5Zq2WxA7bC9dE1fG3"),
        Arguments.of("gitlab-token", "glrt-t1_aBcDeFgHiJkLmNoPqRsTuV"),
        Arguments.of("slack-token", "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"),
        Arguments.of("slack-token", "xoxp-123456789012-123456789012-1234567890123-0a1b2c3d4e5f"),
        Arguments.of("slack-token", "xapp-1-A0123456789-1234567890123-0a1b2c3d4e5f6a7b8c9d0e1f"),
        Arguments.of("slack-token", "xoxe.xoxp-1-Mi0yLTEyMzQ1Njc4OTAxMi0xMjM0NTY3"),
        Arguments.of("google-key", "AIzaSyA1234567890abcdefghijklmnopqrstuv"),
        Arguments.of("npm-token", "npm_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hI6"),
        Arguments.of(
            "pypi-token",
            "pypi-AgEIcHlwaS5vcmcCJGI4YjZhNDI0LWM5MzAtNGE0Yi1iNTJkLTA0YjY3NDE3ZjU4OAACKlsz"
                + "LCJiMjNkYjU1Yi1lODUyLTQ5ZTMtOTkxMC0yNDY4OWE2ZTVmMmYiXQAABiDyL0tAo4IQe7Vx"),
        Arguments.of(
            "pypi-token",
            "pypi-AgENdGVzdC5weXBpLm9yZwIkNmY5NzI2ZDUtZTRmYS00YTFlLWJmZjQtMjk3ZTA0ZjEwZGI4"),
        Arguments.of(
            "jwt",
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("wholeTokens")
  void aToken_isReplacedByItsKind_inProseJsonShellAndUrls(String kind, String token) {
    for (String wrapper : WRAPPERS) {
      assertEquals(
          wrapper.replace("TOKEN", Rule.marker(kind)),
          sanitize(wrapper.replace("TOKEN", token)),
          () -> "in " + wrapper);
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        // bearer tokens
        "curl -H 'Authorization: Bearer abc.def-ghi_jkl123456' https://x|curl -H 'Authorization: Bearer [redacted:bearer]' https://x",
        "{\"Authorization\":\"Bearer 9f86d081884c7d659a2f\"}|{\"Authorization\":\"Bearer [redacted:bearer]\"}",
        "export AUTH_HEADER='Bearer 9f86d081884c7d659a2f' ok|export AUTH_HEADER='Bearer [redacted:bearer]' ok",
        // passwords in connection URLs
        "db postgres://app:Hunter2pw@db.internal:5432/app ok|db postgres://[redacted:url-credentials]@db.internal:5432/app ok",
        "{\"dsn\":\"redis://:p4ssw0rd@cache:6379/0\"}|{\"dsn\":\"redis://[redacted:url-credentials]@cache:6379/0\"}",
        "export MONGO_URL=mongodb+srv://app:s3cr3tPw@cluster0.ab1cd.mongodb.net/db|export MONGO_URL=mongodb+srv://[redacted:url-credentials]@cluster0.ab1cd.mongodb.net/db",
        "https://app.example.com/login?next=mysql://root:toor99@db/app&x=1|https://app.example.com/login?next=mysql://[redacted:url-credentials]@db/app&x=1",
        "git clone https://ghp_16C7e42F292c6912E7710c838347Ae178B4a@github.com/o/r.git|git clone https://[redacted:github-token]@github.com/o/r.git",
        "git clone https://oauth2:glpat-z_sxgtrfAxKr8q1TPY8Y@gitlab.com/o/r.git|git clone https://[redacted:url-credentials]@gitlab.com/o/r.git",
        // Slack webhooks: the host stays
        "post to https://hooks.slack.com/services/T0123ABCD/B0456EFGH/aBcDeFgHiJkLmNoPqRsTuVwX now|post to https://hooks.slack.com/services/[redacted:slack-webhook] now",
        "{\"webhook\":\"https://hooks.slack.com/services/T0123ABCD/B0456EFGH/aBcDeFgHiJkLmNoPqRsTuVwX\"}|{\"webhook\":\"https://hooks.slack.com/services/[redacted:slack-webhook]\"}",
        "export SLACK_WEBHOOK_URL=https://hooks.slack.com/services/T0123ABCD/B0456EFGH/aBcDeFgHiJkLmNoPqRsTuVwX|export SLACK_WEBHOOK_URL=https://hooks.slack.com/services/[redacted:slack-webhook]",
        "https://x.example.com/hook?to=https://hooks.slack.com/services/T0123ABCD/B0456EFGH/aBcDeFgHiJkLmNoPq&x=1|https://x.example.com/hook?to=https://hooks.slack.com/services/[redacted:slack-webhook]&x=1",
        // AWS secret access keys: the key stays
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY|aws_secret_access_key = [redacted:aws-secret-key]",
        "{\"AccessKeyId\": \"ASIAY34FZKBOKMUTVV7A\", \"SecretAccessKey\": \"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\"}|{\"AccessKeyId\": \"[redacted:aws-key]\", \"SecretAccessKey\": \"[redacted:aws-secret-key]\"}",
        "export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY|export AWS_SECRET_ACCESS_KEY=[redacted:aws-secret-key]",
        "s3.example.com/b?secretAccessKey=wJalrXUtnFEMI%2FK7MDENG end|s3.example.com/b?secretAccessKey=[redacted:aws-secret-key] end",
        // secret-named keys
        "api_key=q8Zt3xWv9LmN2pR|api_key=[redacted:secret]",
        "apiKey: q8Zt3xWv9LmN2pR|apiKey: [redacted:secret]",
        "{\"apiKey\": \"q8Zt3xWv9LmN2pR\"}|{\"apiKey\": \"[redacted:secret]\"}",
        "https://api.example.com/v1?api_key=q8Zt3xWv9LmN2pR end|https://api.example.com/v1?api_key=[redacted:secret] end",
        "{\"output\":\"{\\\"apiKey\\\":\\\"q8Zt3xWv9LmN2pR\\\",\\\"n\\\":1}\"}|{\"output\":\"{\\\"apiKey\\\":\\\"[redacted:secret]\\\",\\\"n\\\":1}\"}",
        "{\"output\":\"{\\\"SecretAccessKey\\\": \\\"wJalrXUtnFEMI/K7MDENG\\\"}\"}|{\"output\":\"{\\\"SecretAccessKey\\\": \\\"[redacted:aws-secret-key]\\\"}\"}",
        // private keys and private regions
        "{\"key\":\"-----BEGIN EC PRIVATE KEY-----\\nMHcCAQEEIBkg\\n-----END EC PRIVATE KEY-----\"}|{\"key\":\"[redacted:private-key]\"}",
        "note <private>my home address</private> end|note [private] end",
        // a full stop after a token is not part of it
        "use glpat-z_sxgtrfAxKr8q1TPY8Y. Then push.|use [redacted:gitlab-token]. Then push."
      })
  void keyedAndStructuredCredentials_keepTheirKeyOrHost(String input, String expected) {
    assertEquals(expected, sanitize(input));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "sk-abcde is not a key",
        "keys start with sk- or sk-ant- or sk-proj- and are long",
        "sk-ant-short and sk-proj-short",
        "npm_config_registry=https://registry.npmjs.org/ and npm_package_version",
        "run npm_config and npm_token_here",
        "npm_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hI is one short",
        "AKIA is the prefix of AWS access key ids; AKIAIOSFODNN7 is too short",
        "glpat- tokens and glpat-tooshort and gldt-x",
        "pypi-AgEIcHlwaS5vcmc alone, pypi-token, pypi-AgEshort",
        "xapp-1 and xoxb-123 are too short",
        "see https://hooks.slack.com/services/ and hooks.slack.com/apps",
        "ghp_ prefix and github_pat_short",
        "AIzaSyShort and sk_live_ and whsec_x",
        "the bearer of bad news; Bearer authentication",
        "the SecretAccessKey field and aws_secret_access_key docs",
        "mongodb+srv://cluster0.example.net/db and redis://cache:6379",
        "long runs ---------- ___________ ..........",
        "eyJhbGciOiJIUzI1NiJ9 alone is a header"
      })
  void nearMisses_areLeftAlone(String text) {
    assertEquals(text, sanitize(text));
  }
}
