package dev.memhook.core.internal.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Origin;
import dev.memhook.api.Scope;
import dev.memhook.api.SourcePin;
import dev.memhook.core.internal.sanitize.Sanitizer;
import dev.memhook.lucene.internal.analysis.DerivedText;
import dev.memhook.testkit.Seeds;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class MemoryIntakeTest {

  private static final Instant NOW = Instant.parse("2025-03-01T12:00:00Z");
  private final MemoryIntake intake =
      new MemoryIntake(Clock.fixed(NOW, ZoneOffset.UTC), Sanitizer.defaults());

  @Test
  void newMemory_isARandomVersionOne_latest_storedNow_andHappenedNowUnlessTheDraftSays() {
    Memory a =
        intake.newMemory(MemoryDraft.of(Scope.DEFAULT, "The gateway timeout is 30 seconds."));
    Memory b =
        intake.newMemory(MemoryDraft.of(Scope.DEFAULT, "The gateway timeout is 30 seconds."));
    assertNotEquals(a.id(), b.id());
    assertTrue(a.id().value().matches("mem_[0-9a-z]{26}"), a.id().value());
    assertEquals(1, a.version());
    assertNull(a.supersedes());
    assertTrue(a.latest());
    assertEquals(NOW, a.createdAt());
    assertEquals(NOW, a.occurredAt());
    Instant then = Instant.parse("2023-05-08T09:00:00Z");
    Memory dated =
        intake.newMemory(
            MemoryDraft.builder(Scope.DEFAULT, "Launch day.").occurredAt(then).build());
    assertEquals(then, dated.occurredAt());
    assertEquals(NOW, dated.createdAt());
  }

  @Test
  void whatTheHostGave_isKept() {
    SourcePin pin = new SourcePin("src/Auth.java", "sha256:abc");
    MemoryDraft draft =
        MemoryDraft.builder(Scope.of("acme", "alice"), "Tokens expire after fifteen minutes.")
            .type(MemoryType.FACT)
            .title("Token expiry")
            .summary("Tokens: 15 min")
            .sourceSession("s-7")
            .origin(Origin.tool("grep"))
            .importance(0.9)
            .sourcePins(List.of(pin))
            .build();
    Memory m = intake.newMemory(draft);
    assertEquals(Scope.of("acme", "alice"), m.scope());
    assertEquals(MemoryType.FACT, m.type());
    assertEquals("Token expiry", m.title());
    assertEquals("Tokens: 15 min", m.summary());
    assertEquals("Tokens expire after fifteen minutes.", m.content());
    assertEquals("s-7", m.sourceSession());
    assertEquals(Origin.tool("grep"), m.origin());
    assertEquals(0.9, m.importance());
    assertEquals(List.of(pin), m.sourcePins());
  }

  @Test
  void everyFreeTextField_isSanitized_andStripped() {
    MemoryDraft draft =
        MemoryDraft.builder(Scope.DEFAULT, "  Deploy key is password=hunter2.  ")
            .title(" Key <private>home</private> ")
            .summary("token ghp_abcdefghijklmnopqrstuvwxyz0123456789AB")
            .context("earlier: Authorization: Bearer abc.def-ghi_jkl123456 ")
            .concepts(List.of("password=hunter2"))
            .origin(Origin.user("sk-proj-abcdefghijklmnopqrstuvwxyz123456"))
            .attributes(Map.of("note", "AKIAIOSFODNN7EXAMPLE"))
            .build();
    Memory m = intake.newMemory(draft);
    assertEquals("Deploy key is password=[redacted:secret]", m.content());
    assertEquals("Key [private]", m.title());
    assertEquals("token [redacted:github-token]", m.summary());
    assertEquals("earlier: Authorization: Bearer [redacted:bearer]", m.context());
    assertEquals(List.of("password=[redacted:secret]"), m.concepts());
    assertEquals(Origin.user("[redacted:openai-key]"), m.origin());
    assertEquals(Map.of("note", "[redacted:aws-key]"), m.attributes());
  }

  @Test
  void aSecretInAnyStringField_isRedactedBeforeTheMemoryExists() {
    String url = "postgres://admin:s3cr3tpw@db.internal:5432/app";
    MemoryDraft draft =
        MemoryDraft.builder(Scope.DEFAULT, "Connection moved.")
            .files(List.of(url + "/schema.sql"))
            .sourceSession("session password=s3cr3tpw")
            .attributes(Map.of("password=s3cr3tpw", "v", "dsn", url))
            .sourcePins(List.of(new SourcePin(url, "sha256:password=s3cr3tpw")))
            .build();
    Memory m = intake.newMemory(draft);
    assertFalse(m.toString().contains("s3cr3tpw"), m.toString());
    assertEquals(
        List.of("postgres://[redacted:url-credentials]@db.internal:5432/app/schema.sql"),
        m.files());
    assertEquals("session password=[redacted:secret]", m.sourceSession());
    assertEquals(
        Map.of(
            "password=[redacted:secret]", "v", "dsn", m.files().get(0).replace("/schema.sql", "")),
        m.attributes());
  }

  @Test
  void anAttributeWhoseKeyNamesASecret_hasItsValueRedacted_asKeyEqualsValueTextWouldHave() {
    Map<String, String> attributes = new java.util.LinkedHashMap<>();
    attributes.put("db_password", "Zq8vNwx3Lmk2Rt");
    attributes.put("Deploy Token", "correct horse battery staple");
    attributes.put("aws_secret_access_key", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");
    attributes.put("password_policy", "twelve characters");
    attributes.put("owner", "alice");
    Memory m =
        intake.newMemory(
            MemoryDraft.builder(Scope.DEFAULT, "Staging credentials rotated.")
                .attributes(attributes)
                .build());

    assertEquals(
        Map.of(
            "db_password", "[redacted:secret]",
            "Deploy Token", "[redacted:secret]",
            "aws_secret_access_key", "[redacted:aws-secret-key]",
            "password_policy", "twelve characters",
            "owner", "alice"),
        m.attributes());
    Memory restored = intake.restored(m.toBuilder().attributes(attributes).build());
    assertEquals(m.attributes(), restored.attributes(), "a restored memory's too");
  }

  @Test
  void twoAttributeKeysThatSanitizeAlike_areRejected_notMerged() {
    Map<String, String> attributes = new java.util.LinkedHashMap<>();
    attributes.put("password=hunter2", "a");
    attributes.put("password=swordfish", "b");
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                intake.newMemory(
                    MemoryDraft.builder(Scope.DEFAULT, "x").attributes(attributes).build()));
    assertFalse(
        e.getMessage().contains("hunter2") || e.getMessage().contains("swordfish"), e.getMessage());
  }

  @Test
  void loneSurrogates_becomeTheReplacementCharacter_andPairsAreKept() {
    String text = "lone \uD800 high, lone \uDC00 low, pair \uD83D\uDE00 end \uD83D";
    Memory m = intake.newMemory(MemoryDraft.builder(Scope.DEFAULT, text).title(text).build());
    String expected = "lone \uFFFD high, lone \uFFFD low, pair \uD83D\uDE00 end \uFFFD";
    assertEquals(expected, m.content());
    assertEquals(expected, m.title());
  }

  @Test
  void aDerivedTitleOrSummary_neverEndsInHalfASurrogatePair() {
    String emoji = "\uD83D\uDE00";
    for (int pad = 70; pad < 82; pad++) {
      String unbroken = "a".repeat(pad) + emoji.repeat(200);
      Memory m = intake.newMemory(MemoryDraft.of(Scope.DEFAULT, unbroken));
      for (String derived : List.of(m.title(), m.summary())) {
        for (int i = 0; i < derived.length(); i++) {
          char c = derived.charAt(i);
          boolean paired =
              Character.isHighSurrogate(c)
                  ? i + 1 < derived.length() && Character.isLowSurrogate(derived.charAt(i + 1))
                  : !Character.isLowSurrogate(c)
                      || (i > 0 && Character.isHighSurrogate(derived.charAt(i - 1)));
          assertTrue(paired, "half a pair at " + i + " with " + pad + " letters before the emoji");
        }
      }
    }
  }

  @Test
  void forgetRequest_sanitizesActorAndReason_andChecksTheirLimits() {
    MemoryIntake.ForgetRequest request =
        intake.forgetRequest(
            "ops password=hunter2", "leaked sk-proj-abcdefghijklmnopqrstuvwxyz123456");
    assertEquals("ops password=[redacted:secret]", request.actor());
    assertEquals("leaked [redacted:openai-key]", request.reason());
    assertThrows(IllegalArgumentException.class, () -> intake.forgetRequest(" ", "r"));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> intake.forgetRequest("a", "r".repeat(ForgetRecord.MAX_REASON + 1)));
    assertTrue(e.getMessage().startsWith("reason must be at most"), e.getMessage());
  }

  @Test
  void contentThatSanitizesToNothing_isRejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> intake.newMemory(MemoryDraft.of(Scope.DEFAULT, "</private>  </private>")));
    assertTrue(e.getMessage().startsWith("content is empty after sanitizing"), e.getMessage());
    IllegalArgumentException onlyPrivate =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                intake.newMemory(
                    MemoryDraft.of(Scope.DEFAULT, " <private>my salary is 90k</private> ")));
    assertTrue(
        onlyPrivate.getMessage().startsWith("content is empty after sanitizing"),
        onlyPrivate.getMessage());
  }

  @Test
  void limits_rejectTheDraftWhole_namingTheLimit() {
    String tooLong = "x".repeat(MemoryDraft.MAX_CONTENT + 1);
    IllegalArgumentException content =
        assertThrows(
            IllegalArgumentException.class,
            () -> intake.newMemory(MemoryDraft.of(Scope.DEFAULT, tooLong)));
    assertTrue(
        content.getMessage().startsWith("content must be at most " + MemoryDraft.MAX_CONTENT),
        content.getMessage());
    IllegalArgumentException title =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                intake.newMemory(
                    MemoryDraft.builder(Scope.DEFAULT, "ok")
                        .title("t".repeat(MemoryDraft.MAX_TITLE + 1))
                        .build()));
    assertTrue(
        title.getMessage().startsWith("title must be at most " + MemoryDraft.MAX_TITLE),
        title.getMessage());
    IllegalArgumentException summary =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                intake.newMemory(
                    MemoryDraft.builder(Scope.DEFAULT, "ok")
                        .summary("s".repeat(MemoryDraft.MAX_SUMMARY + 1))
                        .build()));
    assertTrue(
        summary.getMessage().startsWith("summary must be at most " + MemoryDraft.MAX_SUMMARY),
        summary.getMessage());
  }

  @Test
  void textThatSanitizingPushesOverItsLimit_isCutVisibly_toExactlyTheLimit() {
    String secret = " password=a";
    String content = "x".repeat(MemoryDraft.MAX_CONTENT - secret.length()) + secret;
    Memory m = intake.newMemory(MemoryDraft.of(Scope.DEFAULT, content));
    assertEquals(MemoryDraft.MAX_CONTENT, m.content().length());
    assertTrue(m.content().endsWith(MemoryDraft.CUT_MARKER), "cut visibly");
    assertFalse(m.content().contains("password=a"), "and the secret is gone");

    String title = "t".repeat(MemoryDraft.MAX_TITLE - secret.length()) + secret;
    Memory titled = intake.newMemory(MemoryDraft.builder(Scope.DEFAULT, "ok").title(title).build());
    assertEquals(MemoryDraft.MAX_TITLE, titled.title().length());
    assertTrue(titled.title().endsWith(MemoryDraft.CUT_MARKER));
  }

  @Test
  void aLongContext_keepsItsMostRecentEnd() {
    String context = "old ".repeat(1_000) + "the latest words";
    Memory m =
        intake.newMemory(MemoryDraft.builder(Scope.DEFAULT, "An answer.").context(context).build());
    assertEquals(MemoryDraft.MAX_CONTEXT, m.context().length());
    assertTrue(m.context().endsWith("old the latest words"), m.context());
    int kept = MemoryDraft.MAX_CONTEXT - MemoryDraft.CUT_MARKER.length();
    assertEquals(MemoryDraft.CUT_MARKER + context.substring(context.length() - kept), m.context());
  }

  @Test
  void concepts_areLowerCased_deduplicatedInOrder_withoutBlanks_andLongOnesAreRejected() {
    Memory m =
        intake.newMemory(
            MemoryDraft.builder(Scope.DEFAULT, "x")
                .concepts(List.of("Auth", " JWT ", "auth", "  ", "c".repeat(100)))
                .build());
    assertEquals(List.of("auth", "jwt", "c".repeat(100)), m.concepts());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                MemoryDraft.builder(Scope.DEFAULT, "x")
                    .concepts(List.of("ok", "c".repeat(MemoryDraft.MAX_CONCEPT + 1)))
                    .build());
    assertEquals("concepts[1] must be at most 100 characters, got 101", e.getMessage());
  }

  @Test
  void files_useForwardSlashes_areDeduplicatedInOrder_withoutBlanks_andLongPathsAreRejected() {
    Memory m =
        intake.newMemory(
            MemoryDraft.builder(Scope.DEFAULT, "x")
                .files(List.of("src\\main\\App.java", " src/main/App.java ", "", "README.md"))
                .build());
    assertEquals(List.of("src/main/App.java", "README.md"), m.files());
    assertThrows(
        IllegalArgumentException.class,
        () ->
            intake.newMemory(
                MemoryDraft.builder(Scope.DEFAULT, "x").files(List.of("d/".repeat(251))).build()));
  }

  @Test
  void anEmptyTitle_isTheFirstNonBlankLine_cutAtAWordNear80() {
    assertEquals(
        "Deploys happen on Tuesdays.",
        intake
            .newMemory(
                MemoryDraft.of(
                    Scope.DEFAULT,
                    "\n  \n  Deploys happen on Tuesdays.  \nRollbacks need two approvals."))
            .title());
    String line = "word ".repeat(30).strip();
    String title = intake.newMemory(MemoryDraft.of(Scope.DEFAULT, line)).title();
    assertEquals("word ".repeat(16).strip() + "…", title, "cut at the last space before 80");
    String unbroken = "a".repeat(120);
    assertEquals(
        "a".repeat(79) + "…",
        intake.newMemory(MemoryDraft.of(Scope.DEFAULT, unbroken)).title(),
        "no space in reach: cut hard");
  }

  @Test
  void anEmptySummary_isTheWholeFlattenedContent_orItsSentencesUpToAbout300() {
    assertEquals(
        "One line. Another line.",
        intake
            .newMemory(MemoryDraft.of(Scope.DEFAULT, "One line.\n\n  Another   line."))
            .summary());
    String sentence = "This sentence has exactly fifty characters in it. ";
    String content = sentence.repeat(10).strip();
    assertEquals(
        sentence.repeat(6).strip(),
        intake.newMemory(MemoryDraft.of(Scope.DEFAULT, content)).summary(),
        "whole sentences only");
    String words = "word ".repeat(100).strip();
    String summary = intake.newMemory(MemoryDraft.of(Scope.DEFAULT, words)).summary();
    assertEquals("word ".repeat(60).strip() + "…", summary, "no sentence end: cut at a word");
  }

  static LongStream seeds() {
    return Seeds.seeds(20);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void derivedTitlesAndSummaries_stayInTheirLengths_andNeverAddToTheContent(long seed) {
    Random r = new Random(seed);
    String[] words = {
      "deploy", "the", "gateway", "timeout", "is", "thirty", "seconds", "Kafka", "lag", "x"
    };
    String[] separators = {" ", " ", " ", "  ", "\n", "\n\n", ". ", "! ", "? ", ", ", "\t"};
    StringBuilder sb = new StringBuilder();
    int n = 1 + r.nextInt(r.nextBoolean() ? 20 : 200);
    for (int i = 0; i < n; i++) {
      sb.append(words[r.nextInt(words.length)]).append(separators[r.nextInt(separators.length)]);
    }
    String content = sb.toString();
    Memory m = intake.newMemory(MemoryDraft.of(Scope.DEFAULT, content));
    String what = "content '" + content + "', " + Seeds.replay(seed);
    assertTrue(m.title().length() <= MemoryIntake.DERIVED_TITLE_LENGTH, what);
    assertTrue(m.summary().length() <= MemoryIntake.DERIVED_SUMMARY_LENGTH, what);
    assertFalse(m.title().isBlank(), what);
    assertFalse(m.summary().isBlank(), what);
    assertFalse(DerivedText.addsTo(m.title(), m.content()), "title '" + m.title() + "', " + what);
    assertFalse(
        DerivedText.addsTo(m.summary(), m.content()), "summary '" + m.summary() + "', " + what);
  }

  @Test
  void aBugsDerivedSummary_reachesItsFix_whereOtherTypesStopEarlier() {
    String report = "Reported: the export job stops printing after logrotate runs at midnight. ";
    String cause =
        "Cause and fix: Cause: the follower opens the file once and keeps reading that handle"
            + " forever, while logrotate renames the file and creates a new one in its place. ";
    String fix =
        "Fix: on every empty poll the follower compares the path's inode with the open handle's"
            + " and reopens the path when it changed. ";
    String content =
        report
            + cause
            + fix
            + "Verified: Ran cargo test follow:: and all four tests passed, covering a rename and"
            + " create, a copytruncate, and the short gap while the file does not exist.";
    MemoryDraft.Builder bug = MemoryDraft.builder(Scope.DEFAULT, content).type(MemoryType.BUG);

    String bugSummary = intake.newMemory(bug.build()).summary();
    String factSummary = intake.newMemory(MemoryDraft.of(Scope.DEFAULT, content)).summary();

    assertEquals((report + cause + fix).strip(), bugSummary);
    assertEquals((report + cause).strip(), factSummary);
  }

  @Test
  void nextVersion_supersedesThePrevious_withANewId_andTheNextVersionNumber() {
    Memory v1 =
        intake.newMemory(MemoryDraft.of(Scope.DEFAULT, "The gateway timeout is 30 seconds."));
    Memory v2 =
        intake.nextVersion(v1, MemoryDraft.of(Scope.DEFAULT, "The gateway timeout is 60 seconds."));
    Memory v3 =
        intake.nextVersion(v2, MemoryDraft.of(Scope.DEFAULT, "The gateway timeout is 90 seconds."));
    assertEquals(List.of(1, 2, 3), List.of(v1.version(), v2.version(), v3.version()));
    assertEquals(v1.id(), v2.supersedes());
    assertEquals(v2.id(), v3.supersedes());
    assertEquals(
        3, new ArrayList<>(List.of(v1.id(), v2.id(), v3.id())).stream().distinct().count());
    assertTrue(v3.latest());
    assertEquals("The gateway timeout is 90 seconds.", v3.content());
  }

  @Test
  void nextVersion_inAnotherScope_isRejected() {
    Memory v1 =
        intake.newMemory(MemoryDraft.of(Scope.DEFAULT, "The gateway timeout is 30 seconds."));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> intake.nextVersion(v1, MemoryDraft.of(Scope.of("elsewhere"), "moved")));
    assertTrue(e.getMessage().contains("must stay in scope default"), e.getMessage());
  }
}
