package dev.memhook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad arguments and a missing store give their exit code and a message that says what to do. */
class UsageTest {
  @TempDir Path dir;

  @Test
  void help_listsTheCommandsAndTheExitCodes() {
    Cli.Result r = new Cli(dir).run("--help");
    assertEquals(0, r.code());
    for (String command :
        new String[] {"stats", "list", "show", "search", "forget", "export", "import", "doctor"}) {
      assertTrue(r.out().contains("  " + command + " "), command + " in " + r.out());
    }
    assertTrue(r.out().contains("Exit codes:"), r.out());
    assertTrue(r.out().contains("6  malformed import file"), r.out());
  }

  @Test
  void aUsageError_pointsAtTheCommandsHelp_andThatHelpExists() {
    Cli cli = new Cli(dir);
    Cli.Result root = cli.run("frobnicate");
    assertTrue(root.err().contains("Try 'memhook --help'."), root.err());
    Cli.Result list = cli.run("list", "--bogus");
    assertTrue(list.err().contains("Try 'memhook list --help'."), list.err());

    Cli.Result help = cli.run("list", "--help");

    assertEquals(0, help.code(), help.err());
    assertTrue(help.out().startsWith("Usage: memhook list "), help.out());
    assertTrue(help.out().contains("Exit codes:"), help.out());
  }

  @Test
  void badArguments_exit1_withTheReason() {
    Cli cli = new Cli(dir);
    Cli.Result unknown = cli.run("frobnicate");
    assertEquals(ExitCode.USAGE, unknown.code());
    assertTrue(unknown.err().contains("frobnicate"), unknown.err());
    Cli.Result scope = cli.run("list", "--scope", "not a scope");
    assertEquals(ExitCode.USAGE, scope.code());
    assertTrue(scope.err().contains("scope must be"), scope.err());
    Cli.Result time = cli.run("list", "--since", "yesterday");
    assertEquals(ExitCode.USAGE, time.code());
    assertTrue(time.err().contains("--since must be"), time.err());
    Cli.Result id = cli.run("show", "not/an/id");
    assertEquals(ExitCode.USAGE, id.code());
    Cli.Result embedder = cli.run("stats", "--embedder", "gpt");
    assertEquals(ExitCode.USAGE, embedder.code());
    assertTrue(embedder.err().contains("expected one of [AUTO, MINILM, HASHING]"), embedder.err());
  }

  @Test
  void aMissingStore_exits2_namingTheDirectoryAndHowItIsChosen() {
    Cli.Result r = new Cli(dir.resolve("nothing-here")).run("stats");
    assertEquals(ExitCode.STORE_UNAVAILABLE, r.code());
    assertTrue(r.err().contains("nothing-here"), r.err());
    assertTrue(r.err().contains("--dir, else $MEMHOOK_DIR"), r.err());
  }

  @Test
  void aTenMegabyteQuery_isAnswered() {
    TestStore.seed(dir);
    Cli.Result r = new Cli(dir).run("search", "--scope", "acme/alice", "tabs ".repeat(2_000_000));
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("Alice prefers tabs"), r.out());
    assertTrue(r.out().length() < 2_000, "the query is not echoed back");
  }
}
