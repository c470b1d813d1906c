package dev.memhook.core.internal.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Origin;
import dev.memhook.api.Scope;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which questions are about their asker, and which memories the asker told. */
class AskerCueTest {

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "How many weddings have I attended this year?",
        "What speed is my new internet plan?",
        "Where did I buy my new bookshelf from?",
        "How old was I when my grandma gave me the silver necklace?",
        "I\u2019m planning my meal prep next week, any suggestions for new recipes?",
        "which device did I get first?",
        "WHAT DID I  EAT ON MONDAY",
        "Remind me: which gym did I join?",
        "my dog's name?",
        "did I pay the invoice already"
      })
  void asks_whenAQuestionSpeaksOfItsAskerInTheFirstPerson(String question) {
    assertTrue(AskerCue.asks(question));
  }

  @ParameterizedTest(name = "[{index}] \"{0}\"")
  @ValueSource(
      strings = {
        // addresses the assistant: the answer may be what the assistant said
        "Can you remind me what you recommended for my skin?",
        "I remember you told me about a ratio. What was it?",
        "What did your last answer say about my budget?",
        // asks for instructions
        "How do I run the e2e tests locally?",
        "how can i pair a controller with my television",
        "Where can I watch the tennis final?",
        "how to rotate my API keys",
        "Added a flag. Anything else I have to do before I push?",
        "what do I need to change on my machine?",
        // a statement reports a situation; it asks nothing about the asker
        "the random rotations in my batches repeat every few images",
        "I changed the ingress template.",
        // not in the first person singular
        "When did Caroline go to the support group?",
        "What did we decide about the migrations?",
        "Which library should new code use?",
        "",
        "   ",
        // "i" inside another word, or glued to letters of another script, is no first person
        "Is the iPhone build green?",
        "what is the mime type of the export?",
        "退款审计表叫什么名字？"
      })
  void asks_not_forStatements_orWhenItAddressesTheAssistant_asksWhatToDo_orHasNoFirstPerson(
      String question) {
    assertFalse(AskerCue.asks(question));
  }

  @Test
  void told_isOneForAPersonsWords_namedOrNot_andForWhatWasDistilledFromThem() {
    assertEquals(1.0, AskerCue.told(memory(Origin.user(), MemoryType.OBSERVATION)));
    assertEquals(1.0, AskerCue.told(memory(Origin.user("Caroline"), MemoryType.OBSERVATION)));
    assertEquals(1.0, AskerCue.told(memory(Origin.user(), MemoryType.PREFERENCE)));
  }

  @Test
  void told_isZeroForAgentsToolsImportsAndSharedMemories() {
    assertEquals(0.0, AskerCue.told(memory(Origin.agent(), MemoryType.OBSERVATION)));
    assertEquals(0.0, AskerCue.told(memory(Origin.tool("mvn"), MemoryType.OBSERVATION)));
    assertEquals(0.0, AskerCue.told(memory(Origin.imported(), MemoryType.FACT)));
    assertEquals(
        0.0, AskerCue.told(memory(new Origin(Origin.Kind.SHARED, "team"), MemoryType.FACT)));
  }

  private static Memory memory(Origin origin, MemoryType type) {
    return Memory.builder()
        .id(MemoryId.of("m1"))
        .scope(Scope.DEFAULT)
        .type(type)
        .origin(origin)
        .content("I went to two weddings in May.")
        .occurredAt(Instant.EPOCH)
        .createdAt(Instant.EPOCH)
        .build();
  }
}
