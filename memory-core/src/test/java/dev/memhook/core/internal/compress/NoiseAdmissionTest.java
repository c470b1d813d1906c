package dev.memhook.core.internal.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEventType;
import dev.memhook.core.internal.compress.NoiseAdmission.Rejection;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which events are noise, kept in their session but stored as no memory, and why. */
class NoiseAdmissionTest {

  @Test
  void sessionStartAndEnd_withoutAMessage_areScaffolding() {
    assertEquals(
        Optional.of(Rejection.SCAFFOLDING),
        NoiseAdmission.rejection(LifecycleEventType.SESSION_START, EventData.EMPTY));
    assertEquals(
        Optional.of(Rejection.SCAFFOLDING),
        NoiseAdmission.rejection(LifecycleEventType.SESSION_END, EventData.EMPTY));
  }

  @Test
  void sessionEnd_withANoteThatSaysSomething_isAdmitted() {
    assertEquals(
        Optional.empty(),
        NoiseAdmission.rejection(
            LifecycleEventType.SESSION_END,
            EventData.message("Migrated the orders table; the old column is dropped next week.")));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "thanks",
        "thanks, that's all for now",
        "ok",
        "great, thank you!",
        "Sounds good",
        "Anything else?",
        "Thank you so much, have a nice day!",
        "yep, got it",
        "lgtm",
        "👍",
        "🙏🙏 !",
        "works now 🙏",
        "ugh. thanks",
        "finally. thanks",
        "Glad it works.",
        "ok leave it for now",
        "Makes sense, thanks for walking me through it."
      })
  void userAcknowledgements_areNotAdmitted(String prompt) {
    assertEquals(
        Optional.of(Rejection.ACKNOWLEDGEMENT),
        NoiseAdmission.rejection(LifecycleEventType.PROMPT_SUBMIT, EventData.prompt(prompt)));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "Done. Anything else?",
        "Let me know if you need anything else",
        "Is there anything else I can help you with?",
        "You're welcome!",
        "Done.",
        "Anytime.",
        "Good enough for now.",
        "All set. Anything else you need?",
        "Finished. Let me know if you want anything else.",
        "Noted, I'll keep that in mind.",
        "Got it, I'll use that from now on.",
        "Will do, I'll remember that going forward.",
        "Understood, thanks for telling me."
      })
  void agentPleasantries_areNotAdmitted(String message) {
    assertEquals(
        Optional.of(Rejection.ACKNOWLEDGEMENT),
        NoiseAdmission.rejection(LifecycleEventType.AGENT_RESPONSE, EventData.message(message)));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "Looks like a standard setup; nothing unusual stands out. Ready when you are.",
        "Everything looks fine to me, no obvious issues.",
        "Nothing unusual."
      })
  void assessmentsThatFoundNothing_areNotAdmitted(String message) {
    assertEquals(
        Optional.of(Rejection.ACKNOWLEDGEMENT),
        NoiseAdmission.rejection(LifecycleEventType.AGENT_RESPONSE, EventData.message(message)));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "Running git status",
        "Ran git status",
        "Running `pnpm install`...",
        "Let me run mvn -q test",
        "Executed ./gradlew build."
      })
  void toolNarration_thatOnlyNamesTheCommand_isNotAdmitted(String message) {
    assertEquals(
        Optional.of(Rejection.TOOL_NARRATION),
        NoiseAdmission.rejection(LifecycleEventType.AGENT_RESPONSE, EventData.message(message)));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "how do I add lodash?",
        "What port does the staging database use?",
        "Can you check the build? Why does it fail on CI?"
      })
  void bareQuestions_areNotAdmitted(String prompt) {
    assertEquals(
        Optional.of(Rejection.QUESTION),
        NoiseAdmission.rejection(LifecycleEventType.PROMPT_SUBMIT, EventData.prompt(prompt)));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "Should I put it in a `controllers` package, or next to RedemptionService?",
        "What topic name do you want?",
        "Is there a local Postgres I should point it at?"
      })
  void theAgentsBareQuestions_areNotAdmitted(String message) {
    assertEquals(
        Optional.of(Rejection.QUESTION),
        NoiseAdmission.rejection(LifecycleEventType.AGENT_RESPONSE, EventData.message(message)));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "They skip when STOCKD_DATABASE_URL isn't set. Is there a local Postgres I should use?",
        "The production key file isn't in your checkout (it's gitignored). Where is it kept?"
      })
  void anAnswerThatSaysSomethingBeforeItsQuestion_isAdmitted(String message) {
    assertEquals(
        Optional.empty(),
        NoiseAdmission.rejection(LifecycleEventType.AGENT_RESPONSE, EventData.message(message)));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "the queue moved, it's sqs.internal:4566 now Anyway, can you tidy up the helpers?",
        "heads up, my standup moved to 10:15 Anyway, can you rename the job?"
      })
  void aQuestionAfterAStatementWithoutAFullStop_isAdmitted(String prompt) {
    assertEquals(
        Optional.empty(),
        NoiseAdmission.rejection(LifecycleEventType.PROMPT_SUBMIT, EventData.prompt(prompt)));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "thanks — also, we use pnpm not npm",
        "we use pnpm not npm in this repo, remember that",
        "ok, the staging database is on port 5433",
        "The build fails on CI. Why?",
        "thanks, that fixed the flaky OrderServiceTest",
        "works now, it was the proxy",
        "lgtm, but leave the legacy importer alone",
        "👍 42",
        "→ v2",
        "no, use tabs",
        "keep it on main from now on",
        "ready when you are: the cluster is in eu-west-1"
      })
  void promptsThatSaySomething_areAdmitted(String prompt) {
    assertEquals(
        Optional.empty(),
        NoiseAdmission.rejection(LifecycleEventType.PROMPT_SUBMIT, EventData.prompt(prompt)));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "Done. The timeout is now 30 s in gateway.yml",
        "Ran git status: two files are modified, gateway.yml and README.md.",
        "Running the migration to add the orders index",
        "Running git status to see what changed",
        "Great, the cache was stale: clearing it fixed the test.",
        "Looks like a standard setup, except the proxy on port 8443.",
        "Nothing unusual stands out in the logs.",
        "Got it, I'll use pnpm from now on.",
        "Noted, I'll keep the retries in mind when I touch the client."
      })
  void answersThatSaySomething_areAdmitted(String message) {
    assertEquals(
        Optional.empty(),
        NoiseAdmission.rejection(LifecycleEventType.AGENT_RESPONSE, EventData.message(message)));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"command\":\"git status\"}",
        "{\"command\":\"git status -sb\",\"description\":\"Show working tree status\"}",
        "{\"command\":\"  git --no-pager status --porcelain  \"}",
        "{\"cmd\":\"/usr/bin/git status -uno\"}"
      })
  void gitStatus_isTheWorkingTreesMomentaryState_andNotAdmitted(String input) {
    assertEquals(
        Optional.of(Rejection.WORKING_TREE_STATE),
        NoiseAdmission.rejection(
            LifecycleEventType.POST_TOOL_USE,
            EventData.tool(
                "Bash",
                input,
                "On branch dev\nChanges not staged for commit:\n\tmodified:   README.md\n")));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"command\":\"git status src/billing\"}",
        "{\"command\":\"git status | head\"}",
        "{\"command\":\"git status && git diff\"}",
        "{\"command\":\"git -C ../other status\"}",
        "{\"command\":\"git diff --stat\"}",
        "{\"command\":\"git log --oneline -5\"}",
        "{\"command\":\"echo git status\"}",
        "{\"command\":\"git\"}",
        "{\"file_path\":\"/repo/status.md\"}",
        "not json at all: git status"
      })
  void otherToolRuns_areAdmitted(String input) {
    assertEquals(
        Optional.empty(),
        NoiseAdmission.rejection(
            LifecycleEventType.POST_TOOL_USE, EventData.tool("Bash", input, "output")));
  }

  @Test
  void toolEvents_areNotJudgedByTheirText() {
    assertEquals(
        Optional.empty(),
        NoiseAdmission.rejection(
            LifecycleEventType.POST_TOOL_USE, EventData.tool("Bash", "git status", "ok")));
  }
}
