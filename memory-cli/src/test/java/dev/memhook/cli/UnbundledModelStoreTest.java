package dev.memhook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import dev.memhook.core.Memhook;
import dev.memhook.lucene.IndexInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store a host built with a model the command does not have is read, exported and edited without
 * that model; what would embed text refuses, saying what works instead, and touches nothing.
 */
class UnbundledModelStoreTest {

  private static final String HOST_MODEL = HostModel.ID;

  @TempDir Path dir;
  @TempDir Path other;
  private Cli cli;
  private Memory deploys;
  private Memory password;

  @BeforeEach
  void seed() {
    try (MemoryService memory =
        Memhook.builder().directory(dir).embedder(new HostModel()).noCapture().build()) {
      deploys =
          memory.remember(
              MemoryDraft.of(Scope.DEFAULT, "We deploy from the release branch on Thursdays."));
      password =
          memory.remember(
              MemoryDraft.of(Scope.DEFAULT, "The staging database password rotates monthly."));
    }
    cli = new Cli(dir);
  }

  @Test
  void readCommands_work_withoutTheStoresModel() throws Exception {
    Cli.Result stats = cli.run("stats", "--json");
    assertEquals(0, stats.code(), stats.out() + stats.err());
    assertTrue(stats.out().contains(HOST_MODEL), stats.out());

    Cli.Result list = cli.run("list");
    assertEquals(0, list.code(), list.err());
    assertTrue(list.out().contains(deploys.id().value()), list.out());
    assertTrue(list.out().contains(password.id().value()), list.out());

    Cli.Result show = cli.run("show", deploys.id().value());
    assertEquals(0, show.code(), show.err());
    assertTrue(show.out().contains("release branch on Thursdays"), show.out());

    Cli.Result doctor = cli.run("doctor", "--json");
    assertEquals(0, doctor.code(), doctor.out() + doctor.err());
    JsonNode checks = JsonRecords.MAPPER.readTree(doctor.out()).get("checks");
    JsonNode embedding = check(checks, "embedding");
    assertEquals("info", embedding.get("status").asText(), embedding.toString());
    assertTrue(embedding.get("remedy").asText().contains("export the store"), embedding.toString());
    assertEquals("info", check(checks, "sample recall").get("status").asText());
  }

  @Test
  void search_findsByWordsOnly_andSaysSo() {
    Cli.Result r = cli.run("search", "--explain", "when do we deploy from the release branch");
    assertEquals(0, r.code(), r.out() + r.err());
    assertTrue(r.out().startsWith("1. " + deploys.id().value()), r.out());
    assertFalse(r.out().contains(password.id().value()), r.out());
    assertTrue(r.err().contains("searched by words only"), r.err());
    assertTrue(r.err().contains("'" + HOST_MODEL + "'"), r.err());

    Cli.Result unrelated = cli.run("search", "favourite hiking trails near the lake");
    assertEquals(0, unrelated.code(), unrelated.out() + unrelated.err());
    assertTrue(unrelated.out().contains("nothing relevant enough"), unrelated.out());

    Cli.Result noText = cli.run("search", "--weights", "0,1,0", "release branch");
    assertEquals(ExitCode.USAGE, noText.code(), noText.out() + noText.err());
    assertTrue(noText.err().contains("words only"), noText.err());
  }

  @Test
  void forget_andCompact_work_andKeepTheStoresModel() throws Exception {
    Cli.Result forget = cli.run("forget", "--yes", password.id().value());
    assertEquals(0, forget.code(), forget.out() + forget.err());
    Cli.Result compact = cli.run("compact");
    assertEquals(0, compact.code(), compact.out() + compact.err());

    assertEquals(HOST_MODEL, IndexInfo.read(dir).space().modelId());
    try (MemoryService memory =
        Memhook.builder().directory(dir).embedder(new HostModel()).noCapture().build()) {
      assertTrue(memory.get(password.id()).isEmpty(), "forgotten");
      assertEquals(
          deploys.id(),
          memory
              .recall(new dev.memhook.api.RecallQuery(Scope.DEFAULT, "deploy release", 5))
              .ids()
              .get(0),
          "the host still recalls with its own model");
    }
  }

  @Test
  void importIntoIt_refuses_andStoresNothing() throws Exception {
    Path file = other.resolve("export.jsonl");
    assertEquals(0, cli.run("export", "-o", file.toString()).code());
    long before = IndexInfo.read(dir).sizeBytes();

    Cli.Result r = cli.run("import", file.toString());
    assertEquals(ExitCode.STORE_UNAVAILABLE, r.code(), r.out() + r.err());
    assertTrue(r.err().contains("writes to the store"), r.err());
    assertTrue(r.err().contains("'" + HOST_MODEL + "'"), r.err());
    assertEquals(before, IndexInfo.read(dir).sizeBytes());
  }

  @Test
  void itsExport_importsIntoANewDirectory_withTheCommandsModel() throws Exception {
    Path file = other.resolve("export.jsonl");
    Cli.Result export = cli.run("export", "-o", file.toString());
    assertEquals(0, export.code(), export.out() + export.err());
    assertTrue(Files.readString(file).contains("release branch on Thursdays"));

    Cli moved = new Cli(other.resolve("store"));
    Cli.Result imported = moved.run("import", file.toString());
    assertEquals(0, imported.code(), imported.out() + imported.err());
    Cli.Result search = moved.run("search", "deploy from the release branch");
    assertEquals(0, search.code(), search.out() + search.err());
    assertTrue(search.out().contains(deploys.id().value()), search.out());
  }

  private static JsonNode check(JsonNode checks, String name) {
    for (JsonNode c : checks) {
      if (c.get("check").asText().equals(name)) {
        return c;
      }
    }
    throw new AssertionError("no check " + name + " in " + checks);
  }
}
