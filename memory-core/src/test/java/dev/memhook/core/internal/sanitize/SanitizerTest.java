package dev.memhook.core.internal.sanitize;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SanitizerTest {

  @Test
  void privateRegions_areReplaced_evenAcrossLines() {
    assertEquals(
        "keep [private] keep",
        Sanitizer.defaults().sanitize("keep <private>my\nsalary</private> keep"));
    assertEquals(
        "a [private] b [private]",
        Sanitizer.defaults().sanitize("a <PRIVATE>x</Private> b <private>y</private>"));
  }

  @Test
  void anUnclosedPrivateTag_hidesTheRest() {
    assertEquals(
        "visible [private]", Sanitizer.defaults().sanitize("visible <private>everything after"));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "key AKIAIOSFODNN7EXAMPLE here|key [redacted:aws-key] here",
        "temp ASIAIOSFODNN7EXAMPLE here|temp [redacted:aws-key] here",
        "use sk-proj-abcdefghijklmnopqrstuvwxyz123456 now|use [redacted:api-key] now",
        "use sk-ant-abcdefghijklmnopqrstuvwxyz123456 now|use [redacted:api-key] now",
        "token ghp_abcdefghijklmnopqrstuvwxyz0123456789AB ok|token [redacted:github-token] ok",
        "pat github_pat_11ABCDEFG0123456789abcdefghij ok|pat [redacted:github-token] ok",
        "maps AIzaSyA1234567890abcdefghijklmnopqrstuv key|maps [redacted:google-key] key",
        "Authorization: Bearer abc.def-ghi_jkl123456|Authorization: Bearer [redacted:bearer]",
        "db postgres://admin:hunter2@db.internal/app|db postgres://[redacted:url-credentials]@db.internal/app",
        "password=hunter2 and more|password=[redacted:secret] and more",
        "API_KEY: 'q1w2e3r4'|API_KEY: [redacted:secret]",
        "client_secret = \"s3 cr3t\"; next|client_secret = [redacted:secret]; next",
        "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U|jwt [redacted:jwt]",
        "slack xoxb-1234567890-abcdefghij|slack [redacted:slack-token]"
      })
  void credentials_areReplacedByARedactionNamingTheirKind(String input, String expected) {
    assertEquals(expected, Sanitizer.defaults().sanitize(input));
  }

  @Test
  void privateKeyBlocks_areRedacted() {
    String key = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----";
    assertEquals(
        "cfg [redacted:private-key] end", Sanitizer.defaults().sanitize("cfg " + key + " end"));
  }

  @Test
  void ordinaryTechnicalText_isLeftAlone() {
    String text =
        "Run mvn -pl core test; see src/main/AuthMiddleware.java and commit 3f2a9c1. Password policy: 12 chars.";
    assertEquals(text, Sanitizer.defaults().sanitize(text));
  }

  @Test
  void sanitizing_isIdempotent() {
    String once =
        Sanitizer.defaults()
            .sanitize("password=hunter2 Bearer abcdefghijklmnop <private>x</private>");
    assertEquals(once, Sanitizer.defaults().sanitize(once));
  }
}
