package dev.memhook.core.internal.compress;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Which statements a correction speaks of: the subject words they share. */
class CorrectionsTest {

  @Test
  void statementsSharingASubjectWord_speakOfTheSameSubject() {
    assertTrue(
        Corrections.sameSubject(
            "We deploy on Fridays.", "No more Friday deploys: releases go out on Tuesdays now."));
  }

  @Test
  void wordsOfChangeAndWordsThatNameNothing_makeNoSharedSubject() {
    assertFalse(
        Corrections.sameSubject(
            "Forgot where I left off.",
            "I don't want exceptions in the packer, half the callers run where a throw is a"
                + " crash."));
    assertFalse(
        Corrections.sameSubject(
            "We moved it over here now.", "The staging database could still run over there."));
  }
}
