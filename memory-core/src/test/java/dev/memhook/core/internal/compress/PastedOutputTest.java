package dev.memhook.core.internal.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PastedOutputTest {

  @Test
  void aMessageWithNothingPasted_isReturnedAsItIs() {
    String said = "we use pnpm here.\n- always run the linter\n  1. then the tests";
    assertSame(said, PastedOutput.without(said));
    String oneLine = "the deploy failed again";
    assertSame(oneLine, PastedOutput.without(oneLine));
  }

  @Test
  void fencedAndIndentedBlocks_areBlanked_keepingTheirLineBreaks() {
    assertEquals(
        "got this:\n\n\n\nany idea?",
        PastedOutput.without("got this:\n```\nnpm ERR! code E404\n```\nany idea?"));
    assertEquals(
        "the config:\n\n\nlooks right to me",
        PastedOutput.without("the config:\n  port: 8080\n\thost: db\nlooks right to me"));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "File \"/w/app/routes.py\", line 48, in get_invoice",
        "Traceback (most recent call last):",
        "at com.acme.Billing.charge(Billing.java:42)",
        "at JSON.stringify (<anonymous>)",
        "sqlalchemy.exc.MissingGreenlet: greenlet_spawn has not been called",
        "java.lang.IllegalStateException: closed",
        "TypeError: Do not know how to serialize a BigInt",
        "E   assert 3 == 4",
        "2024-06-13T17:04:12.377+0000 scheduler exited",
        "[ERROR] Failed to execute goal",
        "#3 0x55d4c8b40a27 in main /w/main.cpp:12",
        "$ curl -s localhost:8082/v1/rates/latest | jq",
        "Hl-Staging-Shared | UPDATE_FAILED | AWS::CloudFormation::Stack | Hl-Staging-Shared",
        "{",
        "],"
      })
  void aTraceOrLogLine_isPasted_wherever_itStands(String line) {
    assertEquals("my words\n", PastedOutput.without("my words\n" + line));
  }

  @Test
  void aLineOfMegabytes_isJudgedByItsHead_withoutOverflowingTheMatchersStack() {
    String dotted = "at " + "a.".repeat(5_000_000);
    assertSame(dotted, PastedOutput.without(dotted), "no call in parentheses: no frame");
    assertEquals(
        "we use uv\n",
        PastedOutput.without(
            "we use uv\njava.lang.IllegalStateException: " + "x".repeat(5_000_000)));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "Fix: clamp the width at 1",
        "Note: the staging db is on 5433",
        "at the moment we deploy by hand",
        "Errors: none so far",
        "| layer | folder |",
        "use pnpm | never npm"
      })
  void aSentenceAPersonWrites_isNotALogLine(String line) {
    String said = "first\n" + line;
    assertSame(said, PastedOutput.without(said));
  }
}
