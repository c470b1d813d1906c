package dev.memhook.core.internal.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which queries fusion reads as exact references, and which as natural language. */
class QueryShapeTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "where is AuthMiddleware configured?",
        "what does user_id hold",
        "why did ERR_CONN_RESET happen",
        "events named charge.dispute.created",
        "what is in src/main/resources/db/migration",
        "run ./gradlew",
        "the ~/config file",
        "who edited PaymentService.java?",
        "what changed in Cargo.toml.",
        "what did commit 7c0e5d1 do?",
        "rollback of 0a7f3c9e1d2b4a6f8c0e2d4b6a8c0e1f3a5b7d9c",
        "what does SHIP-E009 mean?",
        "ORA-00942 again",
        "why E017",
        "which --env flag",
        "call -v for details",
        "what does authorize() return",
        "the `deploy` target",
        "https://example.invalid/a/really/long/address/that/goes/on/and/on"
      })
  void exactReferences_areExact(String query) {
    assertEquals(true, QueryShape.exact(query), query);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "What caused last week's outage and how did we recover?",
        "Why would shoppers press the buy button twice?",
        "When did Caroline go to the LGBTQ support group?",
        "what do you like, tabs and/or spaces?",
        "how did the 3D printing go in 2023?",
        "is it defaced or decade old?",
        "version 1.2.3 of the app",
        "e.g. the usual mix, i.e. nothing special.",
        "auth middleware configuration",
        "What did Melanie paint? - a sunset",
        "決済のタイムアウトは何秒ですか？",
        "   ",
        ""
      })
  void naturalLanguage_isNotExact(String query) {
    assertFalse(QueryShape.exact(query), query);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "my visit to the Museum of Modern Art (MoMA) in May",
        "When did I last visit the museum of modern art (MoMA)?",
        "how does a Peer-to-Peer (PtP) network find its peers?"
      })
  void anAbbreviationInBracketsAfterTheWordsItAbbreviates_isNotExact(String query) {
    assertFalse(QueryShape.exact(query), query);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        // the same shapes without the words they would abbreviate just before them
        "my visit to (MoMA) in May",
        "the Museum of Modern Art and (MoMA)",
        "MoMA, the Museum of Modern Art",
        "the Museum of Modern Art (MoMA2)",
        "the auth middleware (AuthMiddleware)",
        "the Museum of Modern Art MoMA",
        // an identifier elsewhere in the query is still one
        "the Museum of Modern Art (MoMA) and AuthMiddleware"
      })
  void anAbbreviationWithoutItsWords_orBesideAnIdentifier_isExact(String query) {
    assertEquals(true, QueryShape.exact(query), query);
  }

  @Test
  void aLongQuery_isClassifiedInLinearTime() {
    String words = "lorem ipsum dolor sit amet ".repeat(200_000);
    String oneWord = "a/".repeat(500_000);
    String dots = "a.".repeat(500_000) + " ";
    String abbreviated = "a- b (aB) ".repeat(200_000);
    assertTimeoutPreemptively(
        Duration.ofSeconds(10),
        () -> {
          assertFalse(QueryShape.exact(words));
          assertEquals(true, QueryShape.exact(oneWord));
          assertEquals(true, QueryShape.exact(dots));
          // each "(aB)" abbreviates the two words before it, so none is exact
          assertFalse(QueryShape.exact(abbreviated));
        });
  }
}
