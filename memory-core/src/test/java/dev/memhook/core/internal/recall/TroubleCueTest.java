package dev.memhook.core.internal.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Scope;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Which questions describe trouble, and which memories record a bug. */
class TroubleCueTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "the order summary shows NaN for the total, what could cause that?",
        "remind me what broke the checkout sum last time",
        "the plan step hangs saying someone else holds the state",
        "CI can't apply infra changes because of a leftover from a crashed pipeline",
        "under load the API starts returning bad gateway errors",
        "what did we change last time requests started timing out under traffic?",
        "why can't the local UI reach the backend?",
        "the app does not start after the upgrade",
        "partners were receiving duplicate callbacks, why?",
        "Why did the Build FAIL on main?",
        "the import job is slower than last week"
      })
  void aQuestionNamingAFailure_describesTrouble(String question) {
    assertTrue(TroubleCue.asks(question), question);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "which dataframe lib should the new returns job be written with?",
        "which port for staging?",
        "how do I add lodash to the project?",
        "where does the setup guide live now?",
        "what is a monad?",
        "add a --version flag to cvpack",
        "the deployment went fine, what's next?",
        "is the failover region eu-west-2?"
      })
  void aQuestionWithoutOne_doesNot(String question) {
    assertFalse(TroubleCue.asks(question), question);
  }

  @ParameterizedTest
  @EnumSource(MemoryType.class)
  void onlyABugMemory_answersTrouble(MemoryType type) {
    Memory m =
        Memory.builder()
            .id(MemoryId.of("m1"))
            .scope(Scope.DEFAULT)
            .type(type)
            .content("Pool exhausted: rows were never closed.")
            .occurredAt(Instant.EPOCH)
            .createdAt(Instant.EPOCH)
            .build();
    assertEquals(type == MemoryType.BUG, TroubleCue.answers(m), type.name());
  }

  @Test
  void aRecordThatIsGone_answersNothing() {
    assertFalse(TroubleCue.answers(null));
  }
}
