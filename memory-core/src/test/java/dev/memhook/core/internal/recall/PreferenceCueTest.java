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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Which questions ask for a preference, and how fully a memory states one. */
class PreferenceCueTest {

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "I'm planning a trip to Lisbon. Any tips?",
        "any suggestions for dinner tonight?",
        "Can you recommend a good laptop bag?",
        "what should I cook this weekend",
        "Which library should new code use?",
        "Should we squash commits?",
        "How should errors be logged?",
        "Do you think it would be a good idea to move?",
        "What style of tests do we prefer?",
        "Which database did we choose?",
        "What is the rule for naming branches?",
        "Are we allowed to push on Fridays?"
      })
  void asks_advice_orAStandingChoice(String question) {
    assertTrue(PreferenceCue.asks(question));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "May I ask you something?",
        "When did Caroline go to the support group?",
        "What is the payment timeout?",
        "Where did we put the migration files?",
        "How many days passed between the two visits?",
        "fix the flaky test"
      })
  void asks_notForFactsOrRequests(String question) {
    assertFalse(PreferenceCue.asks(question));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "I prefer tabs over spaces.                         | 1.0",
        "We decided to keep the monolith for now.           | 1.0",
        "Never deploy on Fridays.                           | 1.0",
        "I love the city's music scene.                     | 1.0",
        "I'm considering a Gibson Les Paul.                 | 1.0",
        "I recently bought a new utensil holder.            | 0.5",
        "Our office moved to the fifth floor.               | 0.5",
        "The build takes four minutes on CI.                | 0.0"
      })
  void stance_ofAPersonsWords_byTheirWording(String content, double expected) {
    assertEquals(
        expected, PreferenceCue.stance(memory(content, MemoryType.OBSERVATION, Origin.user())));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"PREFERENCE", "DECISION", "PATTERN"})
  void stance_ofATypedMemory_isFull_whoeverWroteIt(MemoryType type) {
    assertEquals(
        1.0, PreferenceCue.stance(memory("Release notes go in the wiki.", type, Origin.agent())));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"AGENT", "TOOL"})
  void stance_ofAnAgentOrToolsWords_isNone_evenWhenTheyReadLikeOne(Origin.Kind kind) {
    Origin origin = kind == Origin.Kind.AGENT ? Origin.agent() : Origin.tool("shell");
    assertEquals(
        0.0,
        PreferenceCue.stance(
            memory("I prefer to always run the linter first.", MemoryType.OBSERVATION, origin)));
  }

  private static Memory memory(String content, MemoryType type, Origin origin) {
    return Memory.builder()
        .id(MemoryId.of("m1"))
        .scope(Scope.DEFAULT)
        .type(type)
        .origin(origin)
        .content(content)
        .occurredAt(Instant.EPOCH)
        .createdAt(Instant.EPOCH)
        .build();
  }
}
