package dev.memhook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.ForgetRecord;
import dev.memhook.api.MemoryService;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** forget asks before it erases, refuses without a terminal, and leaves an audit record. */
class ForgetCommandTest {
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
  void idsAndAFilter_orNeither_areUsageErrors_andAnUnknownIdIsNotFound() {
    assertEquals(ExitCode.USAGE, cli.run("forget", "--yes").code());
    assertEquals(
        ExitCode.USAGE,
        cli.run("forget", "--yes", "--scope", "acme/bob", seeded.tabs().id().value()).code());
    Cli.Result unknown = cli.run("forget", "--yes", seeded.forgotten().id().value());
    assertEquals(ExitCode.NOT_FOUND, unknown.code());
    assertTrue(unknown.err().contains("nothing was forgotten"), unknown.err());
  }

  private boolean present(String id) {
    return cli.run("show", id).code() == 0;
  }

  private List<ForgetRecord> audit() {
    List<ForgetRecord> out = new ArrayList<>();
    try (MemoryService memory =
        Memhook.builder().directory(dir).readOnly().embedder(HashingEmbedder.create()).build()) {
      memory.exportForgotten(out::add);
    }
    return out;
  }
}
