package dev.memhook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The hook's log: where each kind of report goes, and that the file stays bounded. */
class HookLogTest {
  @TempDir Path dir;

  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private HookLog log() {
    return new HookLog(
        new PrintStream(err, true, StandardCharsets.UTF_8), dir, StoreArguments.REDACTION);
  }

  @Test
  void aProblemGoesToStandardErrorAndTheFile_aReportToTheFileOnly() throws IOException {
    HookLog log = log();
    log.warn("the spool is full");
    log.info("UserPromptSubmit context: 812 of 10000 characters");

    String stderr = err.toString(StandardCharsets.UTF_8);
    assertTrue(stderr.contains("memhook hook: the spool is full"), stderr);
    assertFalse(stderr.contains("812 of 10000"), "a report is no problem: " + stderr);
    List<String> lines = Files.readAllLines(dir.resolve(HookLog.FILE));
    assertEquals(2, lines.size(), lines.toString());
    assertTrue(lines.get(0).endsWith("memhook hook: the spool is full"), lines.get(0));
    assertTrue(lines.get(1).endsWith("UserPromptSubmit context: 812 of 10000 characters"));
  }

  @Test
  void aFullLog_becomesThePreviousOne_andTheNextLineStartsANewFile() throws IOException {
    Path file = dir.resolve(HookLog.FILE);
    String full = "x".repeat((int) HookLog.MAX_BYTES - 1) + "\n";
    Files.writeString(file, full, StandardCharsets.UTF_8);
    Files.writeString(dir.resolve(HookLog.PREVIOUS), "the log before", StandardCharsets.UTF_8);

    log().info("the first line of the new log");

    assertEquals(full, Files.readString(dir.resolve(HookLog.PREVIOUS)), "it replaced the older");
    List<String> lines = Files.readAllLines(file);
    assertEquals(1, lines.size(), lines.toString());
    assertTrue(lines.get(0).endsWith("the first line of the new log"), lines.get(0));
  }

  @Test
  void aLogUnderTheBound_isAppendedTo() throws IOException {
    Path file = dir.resolve(HookLog.FILE);
    String almost = "x".repeat((int) HookLog.MAX_BYTES - 2) + "\n";
    Files.writeString(file, almost, StandardCharsets.UTF_8);

    log().info("one more");

    assertFalse(Files.exists(dir.resolve(HookLog.PREVIOUS)));
    assertTrue(Files.readString(file).startsWith(almost));
    assertTrue(Files.readString(file).strip().endsWith("one more"));
  }

  @Test
  void aReportQuotingControlCharacters_staysOneLine_withoutThem() throws IOException {
    log().warn("unknown event \u001b]0;PWNED\u0007\n2026-01-01T00:00:00Z memhook hook: forged\r");

    List<String> lines = Files.readAllLines(dir.resolve(HookLog.FILE));
    assertEquals(1, lines.size(), lines.toString());
    assertTrue(
        lines
            .get(0)
            .endsWith(
                "unknown event \\u001b]0;PWNED\\u0007\\u000a2026-01-01T00:00:00Z"
                    + " memhook hook: forged\\u000d"),
        lines.get(0));
    String stderr = err.toString(StandardCharsets.UTF_8);
    assertFalse(stderr.contains("\u001b") || stderr.contains("\r"), stderr);
    assertEquals(1, stderr.lines().count(), stderr);
  }

  @Test
  void aSecretInAReport_isRedactedInBothPlaces() throws IOException {
    log().warn("rejected: " + PlantedSecrets.GITHUB_TOKEN + " in the payload");

    PlantedSecrets.assertNoneIn("standard error", err.toString(StandardCharsets.UTF_8));
    PlantedSecrets.assertNoneUnder(dir, "after the report");
  }
}
