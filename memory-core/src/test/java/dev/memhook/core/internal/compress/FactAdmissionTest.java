package dev.memhook.core.internal.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.memhook.core.internal.compress.FactAdmission.Rejection;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Which sentences may become durable facts, and why the others may not. */
class FactAdmissionTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "I prefer tabs over spaces in every Java file.",
        "Always use AssertJ for assertions in new tests.",
        "Do not commit generated sources to the repository.",
        "We decided to keep the parser hand-written.",
        "The staging database runs on port 5433.",
        "Surefire reports are written to target/surefire-reports.",
        "Greatest common divisor is computed in MathUtil.",
        "I found the problem: the scheduler uses UTC.",
        "I found that the cache key ignores the locale.",
        "Note: the staging database runs on port 5433."
      })
  void statements_areAdmitted(String sentence) {
    assertEquals(Optional.empty(), FactAdmission.rejection(sentence));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "How do I run the tests?|QUESTION",
        "what is the port of the staging database|QUESTION",
        "Should we use Gradle instead of Maven|QUESTION",
        "Does the build need Java 21 to run|QUESTION",
        "The port is 5433, right?|QUESTION",
        "Is it safe to delete the cache directory|QUESTION",
        "what's on main since monday|QUESTION",
        "where’s the staging config kept these days|QUESTION",
        "Use tabs|FRAGMENT",
        "src/main/java/App.java|FRAGMENT",
        "mvn -q -pl memory-core verify|FRAGMENT",
        "git commit -am fix|FRAGMENT",
        "12345 67890 !!! ###|FRAGMENT",
        "Root cause and fix, for the record:|FRAGMENT",
        "Here is what I prefer for new tests:.|FRAGMENT",
        "Let me look at the failing test first.|SCAFFOLDING",
        "I'll now run the whole build again.|SCAFFOLDING",
        "Now I will update the documentation for you.|SCAFFOLDING",
        "Okay, the build passes on my machine now.|SCAFFOLDING",
        "Sure, that is easy to change in the config.|SCAFFOLDING",
        "Great, all twelve tests pass now.|SCAFFOLDING",
        "Looking at the stack trace, the cache is stale.|SCAFFOLDING",
        "Running the tests again with more logging enabled.|SCAFFOLDING",
        "I found the problem.|SCAFFOLDING",
        "I've found the root cause!|SCAFFOLDING",
        "Fixed the issue.|SCAFFOLDING"
      })
  void questionsFragmentsAndScaffolding_areNotAdmitted(String sentence, Rejection why) {
    assertEquals(Optional.of(why), FactAdmission.rejection(sentence), sentence);
  }
}
