package dev.memhook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.memhook.api.ForgetRecord;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * forget asks before it erases, and whether a consolidated memory's observations go too (with their
 * count); it refuses without a terminal unless told, prints every id removed and leaves an audit
 * record.
 */
class ForgetCommandTest {
  private static final String TABS = "I prefer tabs over spaces in every Java file of this repo.";

  @TempDir Path dir;
  private Cli cli;
  private TestStore.Seeded seeded;

  @BeforeEach
  void seed() {
    seeded = TestStore.seed(dir);
    cli = new Cli(dir);
  }

  @Test
  void withoutATerminalOrYes_itRefuses_andForgetsNothing() {
    Cli.Result r = cli.run("forget", seeded.tabs().id().value());
    assertEquals(ExitCode.NOT_CONFIRMED, r.code());
    assertTrue(r.err().contains("no terminal") && r.err().contains("--yes"), r.err());
    assertTrue(present(seeded.tabs().id().value()));
  }

  @Test
  void aDeclinedConfirmation_forgetsNothing() {
    Cli.Result r = cli.withTerminal(List.of("n"), "forget", seeded.tabs().id().value());
    assertEquals(ExitCode.NOT_CONFIRMED, r.code());
    assertTrue(r.err().contains("Alice prefers tabs"), "it lists what it would forget: " + r.err());
    assertTrue(present(seeded.tabs().id().value()));
  }

  @Test
  void aMemoryMadeFromObservations_withoutATerminal_isRefusedWithTheCount_evenWithYes() {
    TestStore.Consolidated c = TestStore.consolidate(dir, TestStore.ALICE, "s-tabs", TABS);
    Cli.Result r = cli.run("forget", "--yes", c.memory().id().value());
    assertEquals(ExitCode.NOT_CONFIRMED, r.code());
    assertTrue(r.err().contains("made from 1 observation,"), r.err());
    assertTrue(r.err().contains("--with-sources") && r.err().contains("--memory-only"), r.err());
    assertTrue(r.err().contains("nothing was forgotten"), r.err());
    assertTrue(present(c.memory().id().value()));
    assertTrue(present(c.source().id().value()));
    Cli.Result neither = cli.run("forget", c.memory().id().value());
    assertEquals(ExitCode.NOT_CONFIRMED, neither.code());
    assertTrue(neither.err().contains("--memory-only to keep them, and --yes"), neither.err());
  }

  @Test
  void onATerminal_itAsksWithTheCount_andYesForgetsTheSourcesToo_printingEveryIdRemoved() {
    TestStore.Consolidated c = TestStore.consolidate(dir, TestStore.ALICE, "s-tabs", TABS);
    String memoryId = c.memory().id().value();
    String sourceId = c.source().id().value();
    Cli.Result r = cli.withTerminal(List.of("y", "y"), "forget", memoryId);
    assertEquals(0, r.code(), r.err());
    assertEquals(
        List.of(
            "Forget this memory and its older versions? [y/N] ",
            memoryId + " was made from 1 observation; forget it too? [y/N] "),
        r.prompts());
    assertTrue(r.err().contains(sourceId), "it shows the observation it asks about: " + r.err());
    assertEquals(
        List.of("forgotten " + memoryId, "forgotten " + sourceId), r.out().lines().toList());
    assertFalse(present(memoryId));
    assertFalse(present(sourceId));
    List<MemoryId> removed = List.of(c.memory().id(), c.source().id());
    for (ForgetRecord a : audit()) {
      if (removed.contains(a.id())) {
        assertEquals(removed, a.removed(), "the audit of " + a.id());
      }
    }
  }

  @Test
  void onATerminal_noToTheSources_forgetsTheMemoryOnly() {
    TestStore.Consolidated c = TestStore.consolidate(dir, TestStore.ALICE, "s-tabs", TABS);
    Cli.Result r = cli.withTerminal(List.of("y", "n"), "forget", c.memory().id().value());
    assertEquals(0, r.code(), r.err());
    assertEquals(2, r.prompts().size(), r.prompts().toString());
    assertEquals(List.of("forgotten " + c.memory().id()), r.out().lines().toList());
    assertTrue(r.err().contains("kept 1 observation"), r.err());
    assertFalse(present(c.memory().id().value()));
    assertTrue(present(c.source().id().value()));
  }

  @Test
  void forScripts_memoryOnly_keepsTheSources_withoutAsking() {
    TestStore.Consolidated c = TestStore.consolidate(dir, TestStore.ALICE, "s-tabs", TABS);
    Cli.Result r = cli.run("forget", "--yes", "--memory-only", "--json", c.memory().id().value());
    assertEquals(0, r.code(), r.err());
    JsonNode out = json(r.out());
    assertEquals(List.of(c.memory().id().value()), strings(out.get("forgotten")));
    assertEquals(List.of(c.source().id().value()), strings(out.get("keptSources")));
    assertFalse(present(c.memory().id().value()));
    assertTrue(present(c.source().id().value()));
  }

  @Test
  void forScripts_withSources_forgetsThem_withoutAsking() {
    TestStore.Consolidated c = TestStore.consolidate(dir, TestStore.ALICE, "s-tabs", TABS);
    Cli.Result r = cli.run("forget", "--yes", "--with-sources", "--json", c.memory().id().value());
    assertEquals(0, r.code(), r.err());
    JsonNode out = json(r.out());
    assertEquals(
        List.of(c.memory().id().value(), c.source().id().value()), strings(out.get("forgotten")));
    assertEquals(List.of(), strings(out.get("keptSources")));
    assertFalse(present(c.source().id().value()));
  }

  @Test
  void withSourcesAndMemoryOnly_together_areAUsageError_andForgetNothing() {
    TestStore.Consolidated c = TestStore.consolidate(dir, TestStore.ALICE, "s-tabs", TABS);
    Cli.Result r =
        cli.run("forget", "--yes", "--with-sources", "--memory-only", c.memory().id().value());
    assertEquals(ExitCode.USAGE, r.code());
    assertTrue(present(c.memory().id().value()));
  }

  @Test
  void aConfirmedForget_byId_erasesEveryVersion_andRecordsActorAndReason() {
    Cli.Result r =
        cli.withTerminal(
            List.of("y"),
            "forget",
            "--json",
            "--actor",
            "alice",
            "--reason",
            "outdated",
            seeded.timeoutV2().id().value());
    assertEquals(0, r.code(), r.err());
    assertEquals(
        List.of(seeded.timeoutV2().id().value(), seeded.timeoutV1().id().value()),
        strings(json(r.out()).get("forgotten")),
        "every id removed, the older version too");
    assertFalse(present(seeded.timeoutV2().id().value()));
    assertFalse(present(seeded.timeoutV1().id().value()), "older versions go too");
    List<ForgetRecord> audit = audit();
    List<String> ids = audit.stream().map(a -> a.id().value()).toList();
    assertTrue(ids.contains(seeded.timeoutV2().id().value()), ids.toString());
    assertTrue(ids.contains(seeded.timeoutV1().id().value()), ids.toString());
    ForgetRecord record =
        audit.stream()
            .filter(a -> a.id().equals(seeded.timeoutV2().id()))
            .findFirst()
            .orElseThrow();
    assertEquals("alice", record.actor());
    assertEquals("outdated", record.reason());
  }

  @Test
  void aForgetByFilter_withYes_forgetsWhatMatches() {
    Cli.Result r = cli.run("forget", "--yes", "--scope", "acme/alice", "--type", "preference");
    assertEquals(0, r.code(), r.err());
    assertFalse(present(seeded.tabs().id().value()));
    assertTrue(present(seeded.timeoutV2().id().value()));
    ForgetRecord record =
        audit().stream().filter(a -> a.id().equals(seeded.tabs().id())).findFirst().orElseThrow();
    assertEquals("tester", record.actor(), "the actor defaults to $USER");
  }

  @Test
  void purgeNow_leavesNoFileHoldingAWordOfTheForgottenMemory_whenTheCommandEnds()
      throws IOException {
    assertFalse(filesHolding("tabs").isEmpty(), "the test must see the word first");
    Cli.Result r =
        cli.run("forget", "--yes", "--memory-only", "--purge-now", seeded.tabs().id().value());
    assertEquals(0, r.code(), r.err());
    assertTrue(r.err().contains("purged"), r.err());
    assertEquals(List.of(), filesHolding("tabs"));
    assertFalse(present(seeded.tabs().id().value()));
    assertTrue(present(seeded.timeoutV2().id().value()));
  }

  @Test
  void withoutPurgeNow_theRecordIsUnreadableAtOnce_andItsWordsWaitForThePurge() throws IOException {
    Cli.Result r = cli.run("forget", "--yes", "--memory-only", seeded.tabs().id().value());
    assertEquals(0, r.code(), r.err());
    assertFalse(r.err().contains("purged"), r.err());
    assertEquals(
        List.of(), filesHolding("prefers tabs over spaces"), "no readable copy of the text");
    assertFalse(filesHolding("tabs").isEmpty(), "the index's words wait for the purge");
  }

  /** The files under the store directory whose bytes hold {@code text}. */
  private List<Path> filesHolding(String text) throws IOException {
    byte[] needle = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    List<Path> out = new java.util.ArrayList<>();
    try (java.util.stream.Stream<Path> files = java.nio.file.Files.walk(dir)) {
      for (Path f : files.filter(java.nio.file.Files::isRegularFile).toList()) {
        byte[] hay = java.nio.file.Files.readAllBytes(f);
        for (int i = 0; i + needle.length <= hay.length; i++) {
          if (java.util.Arrays.equals(hay, i, i + needle.length, needle, 0, needle.length)) {
            out.add(f);
            break;
          }
        }
      }
    }
    return out;
  }

  @Test
  void idsAndAFilter_orNeither_areUsageErrors_andAnUnknownIdIsNotFound() {
    assertEquals(ExitCode.USAGE, cli.run("forget", "--yes").code());
    assertEquals(
        ExitCode.USAGE,
        cli.run("forget", "--yes", "--scope", "acme/bob", seeded.tabs().id().value()).code());
    Cli.Result unknown = cli.run("forget", "--yes", seeded.forgotten().id().value());
    assertEquals(ExitCode.NOT_FOUND, unknown.code());
    assertTrue(unknown.err().contains("nothing was forgotten"), unknown.err());
  }

  private static JsonNode json(String out) {
    try {
      return JsonRecords.MAPPER.readTree(out);
    } catch (java.io.IOException e) {
      throw new AssertionError("not JSON: " + out, e);
    }
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }

  private boolean present(String id) {
    return cli.run("show", id).code() == 0;
  }

  private List<ForgetRecord> audit() {
    List<ForgetRecord> out = new ArrayList<>();
    try (MemoryService memory =
        Memhook.builder().directory(dir).readOnly().embedder(HashingEmbedder.create()).build()) {
      memory.maintenance().exportForgotten(out::add);
    }
    return out;
  }
}
