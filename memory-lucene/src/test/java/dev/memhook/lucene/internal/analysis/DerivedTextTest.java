package dev.memhook.lucene.internal.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DerivedTextTest {

  private static final String CONTENT =
      "Deploys happen on Tuesdays after the standup.\nRollbacks need two approvals.";

  @Test
  void anEmptyOrBlankPart_addsNothing() {
    assertFalse(DerivedText.addsTo("", CONTENT));
    assertFalse(DerivedText.addsTo(" \n\t", CONTENT));
    assertFalse(DerivedText.addsTo("…", CONTENT));
  }

  @Test
  void aPartTheContentSaysWordForWord_addsNothing_whereverItStands() {
    assertFalse(
        DerivedText.addsTo("Deploys happen on Tuesdays", CONTENT), "the first line's start");
    assertFalse(
        DerivedText.addsTo("after the standup. Rollbacks need", CONTENT), "across the line break");
    assertFalse(DerivedText.addsTo("two approvals.", CONTENT), "the end");
    assertFalse(DerivedText.addsTo(CONTENT, CONTENT), "the whole content");
  }

  @Test
  void whitespaceDifferences_doNotCount() {
    assertFalse(DerivedText.addsTo("  Deploys   happen\non Tuesdays  ", CONTENT));
    assertFalse(
        DerivedText.addsTo(
            "standup. Rollbacks", "after the standup.\n\n   Rollbacks need two approvals."));
  }

  @Test
  void aPartCutWithAnEllipsis_addsNothing_whenWhatPrecedesTheEllipsisIsInTheContent() {
    assertFalse(DerivedText.addsTo("Deploys happen on Tuesdays after…", CONTENT));
    assertFalse(DerivedText.addsTo("Deploys happen on Tuesdays after …", CONTENT));
    assertTrue(DerivedText.addsTo("Deploys happen on Mondays…", CONTENT));
  }

  @Test
  void aPartWithWordsTheContentDoesNotHave_orSpellsDifferently_adds() {
    assertTrue(DerivedText.addsTo("Release process", CONTENT));
    assertTrue(
        DerivedText.addsTo("Deploys happen on Tuesdays and Thursdays", CONTENT),
        "says more than the content");
    assertTrue(
        DerivedText.addsTo("deploys happen on tuesdays", CONTENT),
        "the comparison is case-sensitive");
    assertTrue(
        DerivedText.addsTo("Deploys happen…on Tuesdays", CONTENT),
        "only a trailing ellipsis is a cut");
  }

  @Test
  void wordsBeyond_keepsTheContextsWordsTheOwnTextLacks_inOrder_ignoringCase() {
    assertEquals(
        "Melanie I a for mental health last Saturday",
        DerivedText.wordsBeyond(
            "Melanie: I ran a charity race for mental health last Saturday",
            "That charity Race sounds great, RAN it?"));
    assertEquals("", DerivedText.wordsBeyond("", "anything"));
    assertEquals("all of it", DerivedText.wordsBeyond("all of it", ""));
    assertEquals("", DerivedText.wordsBeyond("same words", "Same, words."));
    assertEquals("決済 二重", DerivedText.wordsBeyond("決済 タイムアウト 二重", "タイムアウト"));
  }

  @Test
  void wordsBeyond_isLinearInALongContext() {
    String context = "alpha beta gamma ".repeat(300_000);
    assertEquals("", DerivedText.wordsBeyond(context, "gamma beta alpha"));
  }
}
