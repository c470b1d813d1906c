package dev.memhook.core.internal.sanitize;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class SanitizerTest {

  private static String sanitize(String text) {
    return Sanitizer.defaults().sanitize(text);
  }

  @Test
  void privateRegions_areReplaced_evenAcrossLines() {
    assertEquals("keep [private] keep", sanitize("keep <private>my\nsalary</private> keep"));
    assertEquals(
        "a [private] b [private]", sanitize("a <PRIVATE>x</Private> b <private>y</private>"));
  }

  @Test
  void anUnclosedPrivateTag_hidesTheRest() {
    assertEquals("visible [private]", sanitize("visible <private>everything after"));
  }

  @Test
  void strayCloseTags_areRemoved() {
    assertEquals("a  b", sanitize("a </private> b</PRIVATE>"));
  }

  @Test
  void aTagJoinedByRemovingAStrayCloseTag_opensARegion() {
    assertEquals("x [private]", sanitize("x <priv</private>ate>hidden"));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "key AKIAIOSFODNN7EXAMPLE here|key [redacted:aws-key] here",
        "temp ASIAIOSFODNN7EXAMPLE here|temp [redacted:aws-key] here",
        "use sk-proj-abcdefghijklmnopqrstuvwxyz123456 now|use [redacted:openai-key] now",
        "use sk-ant-abcdefghijklmnopqrstuvwxyz123456 now|use [redacted:anthropic-key] now",
        "token ghp_abcdefghijklmnopqrstuvwxyz0123456789AB ok|token [redacted:github-token] ok",
        "pat github_pat_11ABCDEFG0123456789abcdefghij ok|pat [redacted:github-token] ok",
        "maps AIzaSyA1234567890abcdefghijklmnopqrstuv key|maps [redacted:google-key] key",
        "Authorization: Bearer abc.def-ghi_jkl123456|Authorization: Bearer [redacted:bearer]",
        "db postgres://admin:hunter2@db.internal/app|db postgres://[redacted:url-credentials]@db.internal/app",
        "password=hunter2 and more|password=[redacted:secret] and more",
        "API_KEY: 'q1w2e3r4'|API_KEY: '[redacted:secret]'",
        "client_secret = \"s3 cr3t\"; next|client_secret = \"[redacted:secret]\"; next",
        "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U|jwt [redacted:jwt]",
        "slack xoxb-1234567890-abcdefghij|slack [redacted:slack-token]"
      })
  void credentials_areReplacedByARedactionNamingTheirKind(String input, String expected) {
    assertEquals(expected, sanitize(input));
  }

  /** Shapes the first sanitizer let through; each row failed on it. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"password\": \"hunter2\"}|{\"password\": \"[redacted:secret]\"}",
        "{\"api_key\":\"abc123\",\"user\":\"bob\"}|{\"api_key\":\"[redacted:secret]\",\"user\":\"bob\"}",
        "{'client_secret' :  'xyz'}|{'client_secret' :  '[redacted:secret]'}",
        "{\"token\": \"t0k3n-value\"}|{\"token\": \"[redacted:secret]\"}",
        "{\"secret\":\t\"a\\\"b\"}|{\"secret\":\t\"[redacted:secret]\"}",
        "pay with sk_live_4eC39HqLyjWDarjtT1zdp7dc today|pay with [redacted:stripe-key] today",
        "restricted rk_live_51HfXyzAbCdEfGhIjKlMn ok|restricted [redacted:stripe-key] ok",
        "test sk_test_4eC39HqLyjWDarjtT1zdp7dc ok|test [redacted:stripe-key] ok",
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY|aws_secret_access_key = [redacted:aws-secret-key]",
        "aws_session_token=IQoJb3JpZ2luX2VjEJr//////////wEaCXVz|aws_session_token=[redacted:secret]",
        "export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG|export AWS_SECRET_ACCESS_KEY=[redacted:aws-secret-key]",
        "cache redis://:p4ss@cache.internal:6379/0|cache redis://[redacted:url-credentials]@cache.internal:6379/0",
        "amqp://guest:gu@st@mq:5672|amqp://[redacted:url-credentials]@mq:5672",
        "the password is hunter2|the password is [redacted:secret]",
        "My password is: swordfish.|My password is: [redacted:secret].",
        "the passcode is 7731|the passcode is [redacted:secret]",
        "my PIN is 1234, ok|my PIN is [redacted:secret], ok",
        "pin code is 998877|pin code is [redacted:secret]",
        "the wifi password was 'letmein'|the wifi password was '[redacted:secret]'",
        "password is now Tr0ub4dor|password is now [redacted:secret]"
      })
  void shapesTheFirstSanitizerMissed_areRedacted(String input, String expected) {
    assertEquals(expected, sanitize(input));
  }

  static Stream<Arguments> valuesOnTheNextLine() {
    return Stream.of(
        Arguments.of("{\"password\":\n  \"hunter2\"}", "{\"password\":\n  \"[redacted:secret]\"}"),
        Arguments.of("{\"api_key\":\r\n\"abc123\"}", "{\"api_key\":\r\n\"[redacted:secret]\"}"),
        Arguments.of("{\"token\":\n    t0k3n\n}", "{\"token\":\n    [redacted:secret]\n}"),
        Arguments.of(
            "db:\n  password:\n    hunter2\n  user: bob",
            "db:\n  password:\n    [redacted:secret]\n  user: bob"),
        Arguments.of("password:\t\n\thunter2 # old", "password:\t\n\t[redacted:secret] # old"),
        Arguments.of("client_secret =\n  c2VjcmV0==", "client_secret =\n  [redacted:secret]"));
  }

  /** JSON and YAML put a value on the line after its key; one line break and indentation. */
  @ParameterizedTest
  @MethodSource("valuesOnTheNextLine")
  void aValueOnTheLineAfterItsKey_isRedacted(String input, String expected) {
    assertEquals(expected, sanitize(input));
  }

  /** What follows a key on the next line is not its value when it is a key or a structure. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "password:\n  min_length: 12\n  max_length: 64",
        "password:\n  \"min_length\": 12",
        "{\"password\":\n  {\"min_length\": 12}}",
        "{\"passwords\": 1, \"password\":\n  [\"a\", \"b\"]}",
        "password:\n  - one\n  - two",
        "password:\n  # set from the vault",
        "PASSWORD=\nUSER=bob",
        "[db]\n  password =\n  user = bob",
        "password:\nThe next paragraph starts here.",
        "password:\n\n  hunter2"
      })
  void aKeyOrStructureOnTheNextLine_isNotTakenForAValue(String text) {
    assertEquals(text, sanitize(text));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"password\": 12345678}|{\"password\": [redacted:secret]}",
        "[{\"token\":abc}]|[{\"token\":[redacted:secret]}]",
        "{\"a\": {\"pin\": 1, \"secret\": x]}|{\"a\": {\"pin\": 1, \"secret\": [redacted:secret]]}"
      })
  void anUnquotedValueOfAQuotedKey_endsAtAClosingBrace(String input, String expected) {
    assertEquals(expected, sanitize(input));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "the password is: correct horse battery staple|the password is: [redacted:secret]",
        "The passphrase was: correct horse battery staple. Then we left.|The passphrase was: [redacted:secret]. Then we left.",
        "my password is now: not so secret! ok|my password is now: [redacted:secret]! ok",
        "the password is: 'open sesame' it said|the password is: '[redacted:secret]' it said",
        "the passcode is: required? yes|the passcode is: [redacted:secret]? yes"
      })
  void aSecretDisclosedWithIsAndAColon_isRedactedToTheEndOfItsClause(
      String input, String expected) {
    assertEquals(expected, sanitize(input));
  }

  @Test
  void aDisclosedClause_endsAtTheLineEnd() {
    assertEquals(
        "the password is: [redacted:secret]\nnext line stays",
        sanitize("the password is: correct horse battery staple\nnext line stays"));
  }

  @Test
  void aDisclosedClauseWithoutAnEnd_isRedactedForABoundedStretch_toAWordEnd() {
    String words = "word ".repeat(40); // 200 characters, no sentence end
    String out = sanitize("the password is: " + words);
    // 128 characters reach into the 26th word, which is redacted to its end
    assertEquals("the password is: [redacted:secret] " + "word ".repeat(14), out);
  }

  @Test
  void aBarePasswordColon_keepsItsOneWordValue() {
    assertEquals(
        "the password: [redacted:secret] is what it said",
        sanitize("the password: hunter2 is what it said"));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "the password for prod is hunter2|the password for prod is [redacted:secret]",
        "The password of the admin account was s3cret!|The password of the admin account was [redacted:secret]!",
        "the password to db.prod.internal is now Tr0ub4dor|the password to db.prod.internal is now [redacted:secret]",
        "the passphrase on the old laptop is: correct horse battery|the passphrase on the old laptop is: [redacted:secret]",
        "the pin for my card is 4321|the pin for my card is [redacted:secret]"
      })
  void aSecretWithAShortQualifierBeforeIs_isRedacted(String input, String expected) {
    assertEquals(expected, sanitize(input));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "I will log in with the password hunter2-Xyzzy-99|I will log in with the password [redacted:secret]",
        "use password Tr0ub4dor&3 for the admin|use password [redacted:secret] for the admin",
        "the wifi password \"s3cretw1fi\" works|the wifi password \"[redacted:secret]\" works",
        "my PIN 4821 again|my PIN [redacted:secret] again",
        "the pin code 998877.|the pin code [redacted:secret].",
        "the passcode 77316 opens it|the passcode [redacted:secret] opens it"
      })
  void aValueRightAfterTheKeyword_isRedacted_whenItHoldsADigit(String input, String expected) {
    assertEquals(expected, sanitize(input));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "the password reset flow sends a mail",
        "a password manager such as KeePass",
        "the password v2 endpoint",
        "pin 13 on the board drives the LED",
        "the password hunter is an ordinary word here",
        "login with email and password (1.6s)"
      })
  void aWordRightAfterTheKeyword_isLeftAlone(String text) {
    assertEquals(text, sanitize(text));
  }

  @Test
  void aTokenWhoseBodyHoldsAnotherTokensPrefix_isRedactedWhole_asItsOwnKind() {
    // a PyPI token's random body happened to hold "gho_" and 30 letters and digits: redacted as
    // a GitHub token first, the body was cut in two and its tail stayed in the text
    String token =
        "pypi-AgENdGVzdC5weXBpLm9yZwYzhOTrCSmEicaZ4G48I3SeNMV8-P9DYWhipNkMizXgdOKvU_w5Rqp2"
            + "_uWtLXs0asf3MvXzYKyBN3wyRGGmmlXcogqKUUIVW9YrK7PPnyJu_IJzjdgho_hZ5k9RmTIh4WqBmFQU"
            + "2qJU6JKVIee8tGQmP0PdHoPVS9BS8L-eHcDfbPIZAMA1jErlgrtT0qYLqCub";
    assertEquals(
        "export PYPITOKEN=[redacted:pypi-token] ran",
        sanitize("export PYPITOKEN=" + token + " ran"));
    String gitlab = "glpat-Xq3" + "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6" + "-tail9Z";
    assertEquals("t [redacted:gitlab-token] t", sanitize("t " + gitlab + " t"));
  }

  @Test
  void privateKeyBlocks_areRedacted_throughTheirEndLine() {
    String key = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----";
    assertEquals("cfg [redacted:private-key] end", sanitize("cfg " + key + " end"));
    String pgp =
        "-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: x\n\nlQOYBF\n-----END PGP PRIVATE KEY BLOCK-----";
    assertEquals("a [redacted:private-key] b", sanitize("a " + pgp + " b"));
    String openssh =
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----";
    assertEquals("[redacted:private-key]", sanitize(openssh));
  }

  @Test
  void aPrivateKeyBlockWithoutItsEndLine_isRedactedToTheEnd() {
    assertEquals(
        "pasted: [redacted:private-key]",
        sanitize("pasted: -----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nmore"));
  }

  @Test
  void certificatesAndPublicKeys_areLeftAlone() {
    String cert = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----";
    assertEquals(cert, sanitize(cert));
    String pub = "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----";
    assertEquals(pub, sanitize(pub));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "Run mvn -pl core test; see src/main/AuthMiddleware.java and commit 3f2a9c1. Password policy: 12 chars.",
        "password_policy: strict",
        "Fill in the password field, then press enter.",
        "The password is required and must be at least 12 characters.",
        "The password is too short.",
        "the password isn't valid",
        "the pin is loose; spinning pins at 3000 rpm",
        "the bearer of bad news; bearer authentication is configured",
        "ssh://git@github.com/org/repo.git and https://example.com:8443/path?q=1",
        "keyboard = us; monkey: banana; primary_key = id",
        "password=",
        "The password for the new user is required.",
        "Reset the password for prod. The weather is nice",
        "the password for one two three four is lost",
        "versions 1.2.3 and 2024-01-15, order 4111 1111 1111 1111, mail bob@example.com"
      })
  void ordinaryText_isLeftAlone(String text) {
    assertEquals(text, sanitize(text));
  }

  @Test
  void aValueThatIsAlreadyARedaction_isLeftAsItIs() {
    assertEquals(
        "{\"token\": \"[redacted:jwt]\"}",
        sanitize("{\"token\": \"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3\"}"));
  }

  @Test
  void sanitizing_isIdempotent() {
    String once =
        sanitize(
            "password=hunter2 Bearer abcdefghijklmnop1 <private>x</private> redis://:p@h"
                + " {\"token\": \"x\"} the password is y");
    assertEquals(once, sanitize(once));
  }
}
