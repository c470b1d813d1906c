package dev.memhook.core.internal.sanitize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.Origin;
import dev.memhook.api.Scope;
import dev.memhook.api.SourcePin;
import dev.memhook.core.internal.observe.MemoryIntake;
import dev.memhook.core.internal.sanitize.CredentialSamples.Sample;
import dev.memhook.testkit.Seeds;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Credentials glued to what real text glues them to: an identifier's {@code _} or {@code -}, a
 * {@code .}, {@code =} or {@code :}, a quote, or letters and digits, on either side ({@code
 * token_ghp_…}, {@code GH_TOKEN_ghp_…}, {@code key-sk-ant-…}, {@code AKIA…_prod}). Every rule must
 * still find its secret: no stretch of it survives, and a marker stands where it was. The seed is
 * printed and named in every failure; {@code -Dmemhook.seed=N} replays a run.
 */
class GluedCredentialTest {

  private static final int CASES = 3_000;

  /** What a credential is glued to; the empty string is "nothing" on that side. */
  private static final List<String> GLUE =
      List.of("", "_", "-", ".", "=", ":", "\"", "'", "x", "Q", "token_", "GH_TOKEN_", "key-");

  private static final List<String> TAILS =
      List.of("", "_", "-", ".", "=", ":", "\"", "'", "x", "Q", "_prod", "-dev", "abc");

  static LongStream seeds() {
    return Seeds.seeds(3);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void aCredentialGluedOnEitherSide_isStillRedacted(long seed) {
    Random random = new Random(seed);
    Sanitizer sanitizer = Sanitizer.defaults();
    TreeMap<String, Integer> perKind = new TreeMap<>();
    for (int i = 0; i < CASES; i++) {
      Sample sample = CredentialSamples.next(random);
      String left = GLUE.get(random.nextInt(GLUE.size()));
      String right = TAILS.get(random.nextInt(TAILS.size()));
      String glued = left + sample.plain() + right;
      String input = "before " + glued + " after";
      String output = sanitizer.sanitize(input);
      String where =
          "case "
              + i
              + " ("
              + sample.kind()
              + ", glued '"
              + left
              + "' and '"
              + right
              + "'), "
              + Seeds.replay(seed)
              + "\n  input:  "
              + input
              + "\n  output: "
              + output;
      String survivor = CredentialGeneratorTest.survivingStretch(sample.secret(), output);
      if (survivor != null) {
        fail("'" + survivor + "' of the secret survived in " + where);
      }
      assertTrue(output.contains("[redacted:") || output.contains("[private]"), where);
      assertTrue(output.startsWith("before "), () -> "the word before was changed in " + where);
      assertTrue(output.endsWith(" after"), () -> "the word after was changed in " + where);
      assertEquals(output, sanitizer.sanitize(output), () -> "not idempotent in " + where);
      perKind.merge(sample.kind(), 1, Integer::sum);
    }
    assertEquals(
        CredentialSamples.KIND_NAMES,
        List.copyOf(perKind.keySet()),
        () -> "kinds never generated, " + Seeds.replay(seed));
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void aGluedCredential_inEveryFieldOfAMemory_isRedactedBeforeTheMemoryExists(long seed) {
    Random random = new Random(seed);
    MemoryIntake intake = new MemoryIntake(Clock.systemUTC(), Sanitizer.defaults());
    for (int i = 0; i < CASES / 10; i++) {
      Sample sample = CredentialSamples.next(random);
      String glued =
          GLUE.get(random.nextInt(GLUE.size()))
              + sample.plain()
              + TAILS.get(random.nextInt(TAILS.size()));
      // a field too short for the credential gets a fitting stand-in: every field that can hold
      // it does, including an attribute's key as the issue found it ("token_ghp_…")
      MemoryDraft draft =
          MemoryDraft.builder(Scope.DEFAULT, "note " + glued)
              .title(fit(glued, MemoryDraft.MAX_TITLE))
              .summary(fit(glued, MemoryDraft.MAX_SUMMARY))
              .context(fit(glued, MemoryDraft.MAX_CONTEXT))
              .concepts(List.of(fit(glued, MemoryDraft.MAX_CONCEPT)))
              .files(List.of(fit("src/" + glued, MemoryDraft.MAX_FILE)))
              .sourceSession(fit(glued, MemoryDraft.MAX_SESSION))
              .origin(Origin.user(fit(glued, MemoryDraft.MAX_ORIGIN_NAME)))
              .attributes(
                  Map.of(
                      fit(glued, MemoryDraft.MAX_ATTRIBUTE_KEY),
                      "k",
                      "v",
                      fit(glued, MemoryDraft.MAX_ATTRIBUTE_VALUE)))
              .sourcePins(
                  List.of(
                      new SourcePin(
                          fit(glued, MemoryDraft.MAX_PIN_PATH),
                          fit(glued, MemoryDraft.MAX_PIN_DIGEST))))
              .build();
      Memory memory = intake.newMemory(draft);
      String where =
          "case " + i + " (" + sample.kind() + "), " + Seeds.replay(seed) + "\n  " + glued;
      // concepts are kept lower-cased: a secret must not survive in either case
      String survivor =
          CredentialGeneratorTest.survivingStretch(
              sample.secret().toLowerCase(Locale.ROOT), memory.toString().toLowerCase(Locale.ROOT));
      if (survivor != null) {
        fail("'" + survivor + "' of the secret survived in " + memory + "\n  " + where);
      }
    }
  }

  /** {@code text} if it fits {@code max} characters and one line, else a plain word. */
  private static String fit(String text, int max) {
    return text.length() <= max && text.indexOf('\n') < 0 ? text : "plain";
  }

  @Test
  void aTokenAfterAnUnderscore_isRedacted_asTheIssueFoundIt() {
    Sanitizer sanitizer = Sanitizer.defaults();
    String token = "ghp_R4nd0mR4nd0mR4nd0mR4nd0mR4nd0mR4nd0";
    assertEquals("token_[redacted:github-token]", sanitizer.sanitize("token_" + token));
    assertEquals(
        "export GH_TOKEN_[redacted:github-token]", sanitizer.sanitize("export GH_TOKEN_" + token));
  }

  @Test
  void aPrefixInsideAnotherCredentialsRandomBody_leavesThatCredentialWhole() {
    // found by CredentialGeneratorTest: "AIza" and 35 more characters inside a service-account
    // key was redacted as a Google key first, which cut the OpenAI key in two and left its tail
    String key =
        "sk-svcacct-kM0MCACLEPg7eZwH6l361FhAIza5JL8K5SWoNsCSXFIKmUDS5_eXvcUaq_XgQSdbYfZUuaxbG8bxdD43"
            + "OpaJwm2eCAR0ui4AbkZrcSvKYL-";
    assertEquals(
        "{\"openai_api_key\":\"[redacted:openai-key]\"}",
        Sanitizer.defaults().sanitize("{\"openai_api_key\":\"" + key + "\"}"));
  }

  @Test
  void wordsThatEndInAKeyPrefix_stayWhenWhatFollowsIsWords() {
    Sanitizer sanitizer = Sanitizer.defaults();
    for (String text :
        List.of(
            "run task-runner-for-the-build-system-daily now",
            "see disk-usage-monitor-service-handler today",
            "risk_test_CalculatesExposureCorrectly passed",
            "desk_live_ScheduleOverviewControllerSpec passed",
            "the weighs_AnotherVeryLongCamelCaseIdentifierName field")) {
      assertEquals(text, sanitizer.sanitize(text));
    }
  }
}
