package dev.memhook.core.internal.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEvent;
import dev.memhook.api.capture.LifecycleEventType;
import dev.memhook.core.internal.sanitize.HostRule;
import dev.memhook.core.internal.sanitize.Sanitizer;
import java.time.Instant;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Scrubbing: no secret survives anywhere, big parts are cut visibly, and the result is stable. */
class EventScrubTest {

  private static final int MAX = 5_000;
  private static final EventScrub SCRUB = new EventScrub(Sanitizer.defaults(), MAX);
  private static final Instant AT = Instant.parse("2026-11-30T10:15:00Z");

  static final String GITHUB = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
  static final String AWS_ID = "AKIAIOSFODNN7EXAMPLE";
  static final String AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
  static final String JWT =
      "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
  static final String PEM_BODY = "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun";
  static final String PEM =
      "-----BEGIN RSA PRIVATE KEY-----\n" + PEM_BODY + "\n-----END RSA PRIVATE KEY-----";
  static final String PASSWORD = "hunter2-correct-horse";
  static final String PRIVATE = "my salary is 123k";

  private static LifecycleEvent postTool(String output) {
    return LifecycleEvent.builder(LifecycleEventType.POST_TOOL_USE, "s-1")
        .timestamp(AT)
        .data(EventData.tool("Bash", "{\"command\": \"deploy --prod\"}", output))
        .build();
  }

  /** Tool output as JSON, every secret in a string leaf (the PEM key with real newlines). */
  private static String secretOutput() throws Exception {
    ObjectMapper json = new ObjectMapper();
    ObjectNode root = json.createObjectNode();
    ObjectNode result = root.putObject("result");
    result.put("log", "deployed with token " + GITHUB + " finished");
    result
        .putObject("env")
        .put("AWS_ACCESS_KEY_ID", AWS_ID)
        .put("aws_secret_access_key", AWS_SECRET);
    result.put("session", "cookie " + JWT + " issued");
    result.putArray("files").add("keys/id_rsa").add(PEM);
    result.put("notes", "kept <private>" + PRIVATE + "</private> visible");
    result.put("password", PASSWORD);
    return json.writeValueAsString(root);
  }

  @Test
  void secretsInNestedJsonOutput_surviveNowhere_andTheWordsAroundThemDo() throws Exception {
    EventScrub.Result r = SCRUB.scrub(postTool(secretOutput()));
    String all = r.event().toString();
    for (String secret :
        List.of(GITHUB, AWS_ID, AWS_SECRET, JWT, PEM_BODY, "hunter2", PRIVATE, "123k")) {
      assertFalse(all.contains(secret), () -> secret + " survived in " + all);
    }
    for (String kept :
        List.of(
            "deployed with token",
            "finished",
            "AWS_ACCESS_KEY_ID",
            "aws_secret_access_key",
            "cookie",
            "issued",
            "keys/id_rsa",
            "kept",
            "visible",
            "password",
            "deploy --prod")) {
      assertTrue(r.event().data().output().contains(kept) || all.contains(kept), kept);
    }
    assertFalse(r.truncated());
    assertTrue(r.event().data().output().startsWith("{\"result\":{\"log\":"), "still JSON");
  }

  @Test
  void secretsInEveryShortField_areSanitized_andTheSessionIdIsUsedSanitized() {
    LifecycleEvent e =
        LifecycleEvent.builder(LifecycleEventType.SUBAGENT_START, "sess " + GITHUB)
            .project("p " + AWS_ID)
            .cwd("/home/x <private>secret dir</private>")
            .eventId("evt " + JWT)
            .timestamp(AT)
            .data(
                new EventData(
                    "tool " + GITHUB, null, null, null, null, "agent " + AWS_ID, null, null))
            .build();
    LifecycleEvent clean = SCRUB.scrub(e).event();
    assertEquals("sess [redacted:github-token]", clean.sessionId());
    assertEquals("p [redacted:aws-key]", clean.project());
    assertEquals("/home/x [private]", clean.cwd());
    assertEquals("evt [redacted:jwt]", clean.eventId());
    assertEquals("tool [redacted:github-token]", clean.data().toolName());
    assertEquals("agent [redacted:aws-key]", clean.data().agentName());
    assertTrue(EventKeys.key(clean).contains("sess [redacted:github-token]"));
  }

  @Test
  void aPlainTextPairAcrossLeaves_isCaughtByTheWholeTextPass() {
    String output = "{\"text\":\"password: swordfish-fish\",\"list\":[\"a\",\"b\"]}";
    String clean = SCRUB.scrub(postTool(output)).event().data().output();
    assertFalse(clean.contains("swordfish"), clean);
  }

  @Test
  void aTenMegabyteOutput_isCutToMaxRawCharsWithTheMarker() {
    String output = "word ".repeat(2_000_000);
    EventScrub.Result r = SCRUB.scrub(postTool(output));
    String out = r.event().data().output();
    assertEquals(MAX, out.length());
    assertTrue(out.endsWith(MemoryDraft.CUT_MARKER));
    assertTrue(r.truncated());
    assertEquals("{\"command\": \"deploy --prod\"}".replace(": ", ":"), r.event().data().input());
  }

  @Test
  void aTenMegabyteJsonOutput_endingInOneHugeString_keepsThatStringsStart() {
    String output =
        "{\"file\":{\"path\":\"a.txt\",\"content\":\"" + "line\\n".repeat(2_000_000) + "\"}}";
    EventScrub.Result r = SCRUB.scrub(postTool(output));
    String out = r.event().data().output();
    assertEquals(MAX, out.length());
    assertTrue(
        out.startsWith("{\"file\":{\"path\":\"a.txt\",\"content\":\"line\\nline\\n"),
        out.substring(0, 80));
    assertTrue(out.endsWith(MemoryDraft.CUT_MARKER));
    assertTrue(r.truncated());
  }

  @Test
  void aCredentialStraddlingTheCut_leavesNoPartBehind() {
    for (int offset = -40; offset <= 40; offset += 4) {
      String text = "x".repeat(MAX + offset) + " " + GITHUB + " " + "y".repeat(20_000);
      String out = SCRUB.scrub(postTool(text)).event().data().output();
      assertFalse(
          out.contains("ghp_abcdefgh"), "offset " + offset + ": " + out.substring(MAX - 60));
      assertFalse(out.contains("ijklmnop"), "offset " + offset);
    }
  }

  @Test
  void aCredentialSplitByTheFirstCut_isNeverKept_evenWhenSanitizingPullsItForward() {
    // a private region shrinks to a short marker, moving what follows it ~9,000 characters forward;
    // the token straddles the first cut (maxRawChars + margin), so only its start is sanitized
    String head = "<private>" + "z".repeat(9_000) + "</private> ";
    int tokenAt = MAX + EventScrub.MARGIN - 20;
    String text =
        head + "w".repeat(tokenAt - head.length() - 1) + " " + GITHUB + " y".repeat(20_000);
    String out = SCRUB.scrub(postTool(text)).event().data().output();
    assertTrue(out.startsWith("[private] www"), out.substring(0, Math.min(20, out.length())));
    assertEquals(MAX, out.length(), "sanitized again with a later first cut to fill the window");
    assertTrue(out.endsWith(MemoryDraft.CUT_MARKER));
    assertFalse(out.contains("ghp_"), out.substring(Math.max(0, out.length() - 60)));
  }

  @Test
  void aShortFieldThatSanitizingLengthens_isCutVisibly() {
    String tool = "t".repeat(185) + " password=x"; // 196 characters, 212 once redacted
    String clean =
        SCRUB
            .scrub(
                LifecycleEvent.builder(LifecycleEventType.PRE_TOOL_USE, "s")
                    .data(EventData.tool(tool, null, null))
                    .build())
            .event()
            .data()
            .toolName();
    assertEquals(MemoryDraft.MAX_ORIGIN_NAME, clean.length());
    assertTrue(clean.endsWith(MemoryDraft.CUT_MARKER), clean);
  }

  @Test
  void loneSurrogates_becomeReplacementCharacters() {
    EventData data =
        new EventData("T\ud800", null, "{\"k\":\"\\udc00\"}", "a\udbff", null, null, null, null);
    LifecycleEvent clean =
        SCRUB
            .scrub(
                LifecycleEvent.builder(LifecycleEventType.POST_TOOL_USE, "s\udc00")
                    .data(data)
                    .build())
            .event();
    assertEquals("s\ufffd", clean.sessionId());
    assertEquals("T\ufffd", clean.data().toolName());
    assertEquals("{\"k\":\"\ufffd\"}", clean.data().output());
    assertEquals("a\ufffd", clean.data().prompt());
  }

  @Test
  void scrubbing_isDeterministic() throws Exception {
    LifecycleEvent event = postTool(secretOutput());
    EventScrub.Result first = SCRUB.scrub(event);
    EventScrub.Result second = new EventScrub(Sanitizer.defaults(), MAX).scrub(event);
    assertEquals(first, second);
    assertEquals(EventKeys.key(first.event()), EventKeys.key(second.event()));
    assertEquals(first, SCRUB.scrub(first.event()), "scrubbing scrubbed text changes nothing");
  }

  @Test
  void aSanitizerThatFailsClosed_rejectsTheEventNamingTheField() {
    Sanitizer runaway =
        Sanitizer.create(List.of(new HostRule("runaway", Pattern.compile("(a+)+b"), 0)), false);
    EventScrub scrub = new EventScrub(runaway, MAX);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> scrub.scrub(postTool("a".repeat(8_000))));
    assertTrue(e.getMessage().startsWith("data.output could not be sanitized"), e.getMessage());
    assertTrue(e.getMessage().contains("rule 'runaway'"), e.getMessage());
  }

  @Test
  void maxRawCharsOutsideTheOptionsRange_isRejected() {
    assertThrows(IllegalArgumentException.class, () -> new EventScrub(Sanitizer.defaults(), 999));
    assertThrows(
        IllegalArgumentException.class, () -> new EventScrub(Sanitizer.defaults(), 100_001));
  }
}
