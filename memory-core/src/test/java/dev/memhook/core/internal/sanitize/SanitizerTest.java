package dev.memhook.core.internal.sanitize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class SanitizerTest {

  @Test
  void privateRegions_areReplaced_evenAcrossLines() {
    assertEquals("keep [private] keep", Sanitizer.sanitize("keep <private>my\nsalary</private> keep"));
    assertEquals("a [private] b [private]", Sanitizer.sanitize("a <PRIVATE>x</Private> b <private>y</private>"));
  }

  @Test
  void anUnclosedPrivateTag_hidesTheRest() {
    assertEquals("visible [private]", Sanitizer.sanitize("visible <private>everything after"));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "key AKIAIOSFODNN7EXAMPLE here|AKIAIOSFODNN7EXAMPLE|aws-key",
      "use sk-proj-abcdefghijklmnopqrstuvwxyz123456 now|sk-proj-abcdefghijklmnopqrstuvwxyz123456|api-key",
      "token ghp_abcdefghijklmnopqrstuvwxyz0123456789AB ok|ghp_abcdefghijklmnopqrstuvwxyz0123456789AB|github-token",
      "Authorization: Bearer abc.def-ghi_jkl123456|abc.def-ghi_jkl123456|bearer",
      "db postgres://admin:hunter2@db.internal/app|hunter2|url-credentials",
      "password=hunter2 and more|hunter2|secret",
      "API_KEY: 'q1w2e3r4'|q1w2e3r4|secret",
      "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U|eyJzdWIiOiIxMjM0NTY3ODkwIn0|jwt",
      "slack xoxb-1234567890-abcdefghij|xoxb-1234567890-abcdefghij|slack-token"})
  void credentials_areRedacted_andNamed(String input, String secret, String kind) {
    String out = Sanitizer.sanitize(input);
    assertFalse(out.contains(secret), out);
    assertTrue(out.contains("[redacted:" + kind) || out.contains("[redacted:secret]"), out);
  }

  @Test
  void privateKeyBlocks_areRedacted() {
    String key = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----";
    assertEquals("cfg [redacted:private-key] end", Sanitizer.sanitize("cfg " + key + " end"));
  }

  @Test
  void ordinaryTechnicalText_isLeftAlone() {
    String text = "Run mvn -pl core test; see src/main/AuthMiddleware.java and commit 3f2a9c1. Password policy: 12 chars.";
    assertEquals(text, Sanitizer.sanitize(text));
  }

  @Test
  void sanitizing_isIdempotent() {
    String once = Sanitizer.sanitize("password=hunter2 Bearer abcdefghijklmnop <private>x</private>");
    assertEquals(once, Sanitizer.sanitize(once));
  }
}
