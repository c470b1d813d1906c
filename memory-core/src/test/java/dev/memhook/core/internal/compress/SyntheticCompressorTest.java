package dev.memhook.core.internal.compress;

import static dev.memhook.core.internal.compress.CaptureFixtures.EDIT_INPUT;
import static dev.memhook.core.internal.compress.CaptureFixtures.SUREFIRE_FAILURE;
import static dev.memhook.core.internal.compress.CaptureFixtures.bash;
import static dev.memhook.core.internal.compress.CaptureFixtures.observation;
import static dev.memhook.core.internal.compress.CaptureFixtures.prompt;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.capture.CompressedObservation;
import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEventType;
import dev.memhook.api.capture.ObservationKind;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The synthetic compression of realistic Claude Code events. */
class SyntheticCompressorTest {

  private final SyntheticCompressor compressor = new SyntheticCompressor();

  @Test
  void mvnTestWithSurefireFailures_isATestResult_withCountsFailedTestAndErrorClass() {
    CompressedObservation c = compressor.compress(bash("o1", "mvn test", SUREFIRE_FAILURE));

    assertEquals(ObservationKind.TEST_RESULT, c.kind());
    assertEquals("Ran mvn test: 1 failure", c.title());
    assertTrue(c.facts().contains("Ran mvn test."), c.facts().toString());
    assertTrue(
        c.facts().contains("Tests run: 12, Failures: 1, Errors: 0, Skipped: 0."),
        c.facts().toString());
    assertTrue(
        c.facts()
            .contains("Failed: CalculatorTest.addsNegativeNumbers:42 expected: <-3> but was: <3>."),
        c.facts().toString());
    assertTrue(c.facts().contains("The build failed."), c.facts().toString());
    assertEquals("bash", c.concepts().get(0));
    assertTrue(
        c.concepts().containsAll(List.of("maven", "junit", "java")), c.concepts().toString());
    assertTrue(c.concepts().contains("assertionfailederror"), c.concepts().toString());
    assertTrue(c.concepts().contains("calculatortest"), c.concepts().toString());
    assertEquals(List.of("CalculatorTest.java"), c.files(), "a directory is not a file");
    assertTrue(c.importance() > 0.5, "a failing test run matters more than a passing one");
  }

  @Test
  void wellKnownDotfiles_areFiles_butAMethodCallIsNot() {
    CompressedObservation c =
        compressor.compress(
            observation(
                "o-dot",
                LifecycleEventType.POST_TOOL_USE,
                EventData.tool(
                    "Bash",
                    "{\"command\":\"cat .clang-tidy .env.example .gitignore && grep -rn .then"
                        + " src\"}",
                    "{\"stdout\":\"Checks: '-*,bugprone-*'\\n\"}")));

    assertEquals(List.of(".clang-tidy", ".env.example", ".gitignore"), c.files());
  }

  @Test
  void editOfAJavaFile_isAFileEdit_titledWithThePath_andCountsTheChangedLines() {
    CompressedObservation c =
        compressor.compress(
            observation(
                "o2",
                LifecycleEventType.POST_TOOL_USE,
                EventData.tool(
                    "Edit",
                    EDIT_INPUT,
                    "{\"filePath\":\"/work/calc/src/main/java/dev/example/Calculator.java\"}")));

    String path = "/work/calc/src/main/java/dev/example/Calculator.java";
    assertEquals(ObservationKind.FILE_EDIT, c.kind());
    assertEquals("Edited " + path, c.title());
    assertEquals(List.of(path), c.files());
    assertTrue(c.facts().contains("Edited " + path + "."), c.facts().toString());
    assertTrue(c.facts().contains("Replaced 1 line with 2 lines."), c.facts().toString());
    assertTrue(
        c.concepts().containsAll(List.of("edit", "java", "calculatortest")),
        c.concepts().toString());
    assertEquals(0.5, c.importance());
  }

  @Test
  void read_isAFileRead_withLowImportance() {
    CompressedObservation c =
        compressor.compress(
            observation(
                "o3",
                LifecycleEventType.POST_TOOL_USE,
                EventData.tool(
                    "Read",
                    "{\"file_path\":\"src/main/resources/application.yml\"}",
                    "server:\n  port: 8080\n# Error: not an error, just a comment")));

    assertEquals(ObservationKind.FILE_READ, c.kind());
    assertEquals("Read src/main/resources/application.yml", c.title());
    assertEquals(List.of("src/main/resources/application.yml"), c.files());
    assertTrue(c.concepts().contains("yaml"), c.concepts().toString());
    assertTrue(c.importance() < 0.3);
  }

  @Test
  void aLookUpsShortOutput_isInItsNarrative_butATestRunsIsNot() {
    CompressedObservation lookUp = compressor.compress(bash("o9", "cat .nvmrc", "20.11.1\n"));
    assertTrue(lookUp.narrative().contains("Output: 20.11.1."), lookUp.narrative());

    CompressedObservation remote =
        compressor.compress(
            bash("o10", "git remote -v", "origin\tgit@github.com:acme/shop-web.git (fetch)\n"));
    assertTrue(remote.narrative().contains("acme/shop-web"), remote.narrative());

    CompressedObservation tests = compressor.compress(bash("o11", "mvn test", SUREFIRE_FAILURE));
    assertFalse(tests.narrative().contains("Output:"), tests.narrative());
  }

  @Test
  void aNarrative_saysWhatTheToolRanOnOnce() {
    String command = "terraform -chdir=envs/prod output";
    CompressedObservation run =
        compressor.compress(bash("o12", command, "alb_dns_name = \"prod-alb.example.com\"\n"));
    assertEquals(
        "Ran " + command + ". Output: alb_dns_name = \"prod-alb.example.com\".", run.narrative());

    String path = "/work/calc/src/main/java/dev/example/Calculator.java";
    CompressedObservation edit =
        compressor.compress(
            observation(
                "o13",
                LifecycleEventType.POST_TOOL_USE,
                EventData.tool("Edit", EDIT_INPUT, "{\"filePath\":\"" + path + "\"}")));
    assertEquals("Edited " + path + ". Replaced 1 line with 2 lines.", edit.narrative());

    CompressedObservation search =
        compressor.compress(
            observation(
                "o14",
                LifecycleEventType.POST_TOOL_USE,
                EventData.tool("WebSearch", "{\"query\":\"lucene hnsw\"}", "3 results")));
    assertTrue(
        search.narrative().startsWith("WebSearch ran on lucene hnsw."),
        "with no fact naming it, the lead says what the tool ran on: " + search.narrative());
  }

  @Test
  void catThroughBash_isAFileRead() {
    CompressedObservation c = compressor.compress(bash("o4", "cat pom.xml", "<project/>"));
    assertEquals(ObservationKind.FILE_READ, c.kind());
    assertEquals(List.of("pom.xml"), c.files());
  }

  @Test
  void failingTool_isAnError_titledWithTheToolAndTheErrorsFirstLine() {
    CompressedObservation c =
        compressor.compress(
            observation(
                "o5",
                LifecycleEventType.TOOL_FAILURE,
                EventData.toolFailure(
                    "Bash",
                    "{\"command\":\"./gradlew build\"}",
                    "Exit code 1\nFAILURE: Build failed with an exception.\n"
                        + "* What went wrong: java.lang.IllegalStateException: no JDK found")));

    assertEquals(ObservationKind.ERROR, c.kind());
    assertEquals("Bash failed on ./gradlew build: Exit code 1", c.title());
    assertTrue(c.facts().contains("It exited with code 1."), c.facts().toString());
    assertTrue(c.facts().contains("Error: Exit code 1."), c.facts().toString());
    assertTrue(c.concepts().containsAll(List.of("bash", "gradle", "illegalstateexception")));
    assertTrue(c.importance() >= 0.7);
  }

  @Test
  void preferencePrompt_isAPreference_titledInTheThirdPerson() {
    CompressedObservation c =
        compressor.compress(
            prompt("o6", "I prefer tabs over spaces. Fix the formatting in App.java."));

    assertEquals(ObservationKind.PREFERENCE, c.kind());
    assertEquals("User: prefers tabs over spaces", c.title());
    assertEquals(List.of("I prefer tabs over spaces."), c.facts());
    assertEquals(List.of("App.java"), c.files());
    assertTrue(
        c.concepts().containsAll(List.of("tabs", "spaces", "java")), c.concepts().toString());
    assertTrue(c.importance() >= 0.8);
  }

  @Test
  void questionPrompt_isConversation_withTheQuestionAsAsked_andNoOtherFacts() {
    CompressedObservation c =
        compressor.compress(prompt("o7", "How do I run only the CalculatorTest?"));

    assertEquals(ObservationKind.CONVERSATION, c.kind());
    assertEquals("User: How do I run only the CalculatorTest?", c.title());
    assertEquals(List.of("The user asked: How do I run only the CalculatorTest?"), c.facts());
    assertTrue(c.importance() < 0.4);
  }

  @Test
  void decisionInAnAgentAnswer_isADecision() {
    CompressedObservation c =
        compressor.compress(
            observation(
                "o8",
                LifecycleEventType.AGENT_RESPONSE,
                EventData.message(
                    "Let me summarise. We decided to keep the parser hand-written.")));
    assertEquals(ObservationKind.DECISION, c.kind());
    assertEquals("Agent: We decided to keep the parser hand-written", c.title());
  }

  @Test
  void sessionStart_isASessionEvent_namingTheProject() {
    CompressedObservation c =
        compressor.compress(observation("o9", LifecycleEventType.SESSION_START, EventData.EMPTY));
    assertEquals(ObservationKind.SESSION, c.kind());
    assertEquals("Session started in calc", c.title());
    assertEquals(List.of("Working directory: /work/calc."), c.facts());
  }

  @Test
  void fiveMegabyteOutput_staysWithinTheLimits_andOnlyItsScannedPrefixYieldsFiles() {
    StringBuilder out = new StringBuilder("compiling src/main/java/Early.java\n");
    while (out.length() < 2_500_000) {
      out.append("line of build noise with words and 12345 numbers ");
    }
    out.append("src/main/java/Late.java\n");
    while (out.length() < 5_000_000) {
      out.append("more noise ");
    }
    out.append("\nTests run: 3, Failures: 0, Errors: 0, Skipped: 0\n");

    CompressedObservation c = compressor.compress(bash("o10", "mvn -q verify", out.toString()));

    assertTrue(c.files().contains("src/main/java/Early.java"), c.files().toString());
    assertFalse(c.files().contains("src/main/java/Late.java"), "past the scanned prefix");
    assertEquals(ObservationKind.TEST_RESULT, c.kind(), "the summary is read from the tail");
    assertEquals("Ran mvn -q verify: 3 passed", c.title());
    Limits.assertWithin(c);
  }

  @Test
  void windowsPaths_areFound_withForwardSlashes() {
    CompressedObservation c =
        compressor.compress(
            bash("o11", "dir", "Error: cannot open C:\\Users\\dev\\app\\Main.java"));
    assertTrue(c.files().contains("C:/Users/dev/app/Main.java"), c.files().toString());
  }
}
