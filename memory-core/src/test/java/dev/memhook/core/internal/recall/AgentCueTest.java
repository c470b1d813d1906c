package dev.memhook.core.internal.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Origin;
import dev.memhook.api.Scope;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which questions ask what the assistant said before, and which memories an agent said. */
class AgentCueTest {

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "I remember you told me to dilute tea tree oil. Can you remind me of the ratio?",
        "Which venue did you recommend last in the list of indie venues?",
        "how many eggs did you say we need for the omelette?",
        "What was the company you mentioned that does well on supply chains?",
        "Can you remind me what we decided in our previous conversation about the zombie's name?",
        "I'm looking back at our last chat. What budget did you give for influencers?",
        "you said the tests pass, so why is CI red?",
        "WHAT  DID YOU   SUGGEST for the cache"
      })
  void asks_whenAQuestionToTheAssistantPointsBackAtWhatItSaid(String question) {
    assertTrue(AgentCue.asks(question));
  }

  @ParameterizedTest(name = "[{index}] \"{0}\"")
  @ValueSource(
      strings = {
        // asks for an answer now, not one given before
        "how do you say thank you in japanese?",
        "What do you recommend for a slow build?",
        "Can you run the e2e tests?",
        "Could you suggest a name for the new service?",
        // points back, but not at the assistant
        "What did I say about the release in our last conversation",
        "What did Caroline say about the support group?",
        // a statement, not a question
        "you told me to use Flyway.",
        // a phrase inside another word
        "Did yousaid work?",
        "",
        "  "
      })
  void doesNotAsk_forAnAnswerNow_aboutSomeoneElse_orInAStatement(String text) {
    assertFalse(AgentCue.asks(text));
  }

  @Test
  void aQuestionAboutTheAsker_andOneAboutTheAssistant_neverBothFire() {
    for (String q :
        new String[] {
          "how many weddings have I attended?",
          "what did you say about my weddings?",
          "Did you tell me which of my bikes is the fastest?",
          "which gym did I join, as I told you in our previous chat?"
        }) {
      assertFalse(AskerCue.asks(q) && AgentCue.asks(q), q);
    }
  }

  @Test
  void said_isOneForAnAgentsMemory_andZeroForAPersonsOrAToolsOrAnImport() {
    assertEquals(1.0, AgentCue.said(memory(Origin.agent())));
    assertEquals(0.0, AgentCue.said(memory(Origin.user())));
    assertEquals(0.0, AgentCue.said(memory(Origin.user("Ann"))));
    assertEquals(0.0, AgentCue.said(memory(Origin.tool("bash"))));
  }

  private static Memory memory(Origin origin) {
    return Memory.builder()
        .id(MemoryId.of("m"))
        .scope(Scope.DEFAULT)
        .content("the ratio is 12 drops per ounce")
        .origin(origin)
        .occurredAt(Instant.EPOCH)
        .createdAt(Instant.EPOCH)
        .build();
  }
}
