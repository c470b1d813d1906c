package dev.memhook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryService;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * doctor on a sound, a damaged and a held store; read-only commands beside a holder, write commands
 * refused with the reason; compact.
 */
class DoctorAndLockTest {
  @TempDir Path dir;
  private Cli cli;

  @BeforeEach
  void seed() {
    TestStore.seed(dir);
    cli = new Cli(dir);
  }

  @Test
  void doctor_onASoundStore_passesEveryCheck() throws Exception {
    Cli.Result r = cli.run("doctor", "--json");
    assertEquals(0, r.code(), r.out() + r.err());
    JsonNode n = JsonRecords.MAPPER.readTree(r.out());
    assertTrue(n.get("healthy").asBoolean());
    for (JsonNode check : n.get("checks")) {
      assertEquals("ok", check.get("status").asText(), check.toString());
    }
    assertEquals(
        "[index format, lock, checksums, embedding, records, sample recall]", checks(n).toString());
  }

  @Test
  void doctor_onATruncatedSegment_namesItAndSaysHowToRescue() throws Exception {
    Path largest;
    try (Stream<Path> files = Files.list(dir)) {
      largest =
          files
              .filter(f -> f.getFileName().toString().startsWith("_"))
              .max(Comparator.comparingLong(DoctorAndLockTest::size))
              .orElseThrow();
    }
    try (FileChannel c = FileChannel.open(largest, StandardOpenOption.WRITE)) {
      c.truncate(c.size() / 2);
    }
    Cli.Result r = cli.run("doctor");
    assertEquals(ExitCode.PROBLEMS_FOUND, r.code(), r.out() + r.err());
    assertTrue(r.out().matches("(?s).*PROBLEM\\s+checksums\\s+segment _.*"), r.out());
    assertTrue(r.out().contains("what to do: export what is readable"), r.out());
    assertTrue(r.out().endsWith("problems found\n"), r.out());
  }

  @Test
  void aStoreHeldByAnotherService_isReadable_butNotWritable() throws Exception {
    try (MemoryService holder =
        Memhook.builder().directory(dir).embedder(HashingEmbedder.create()).build()) {
      holder.remember(MemoryDraft.of(TestStore.ALICE, "written while the CLI looks"));
      holder.capture().flush(java.time.Duration.ofSeconds(5));

      Cli.Result doctor = cli.run("doctor", "--json");
      assertEquals(0, doctor.code(), doctor.out() + doctor.err());
      JsonNode lock = find(JsonRecords.MAPPER.readTree(doctor.out()), "lock");
      assertEquals("info", lock.get("status").asText());
      assertTrue(lock.get("remedy").asText().contains("need that process closed"));

      Cli.Result stats = cli.run("stats", "--json");
      assertEquals(0, stats.code(), stats.err());
      assertTrue(JsonRecords.MAPPER.readTree(stats.out()).get("writeLocked").asBoolean());
      assertEquals(0, cli.run("list").code());
      assertEquals(0, cli.run("search", "--scope", "acme/alice", "tabs").code());

      for (String[] write :
          new String[][] {{"compact"}, {"forget", "--yes", "--scope", "acme/alice"}}) {
        Cli.Result refused = cli.run(write);
        assertEquals(ExitCode.STORE_UNAVAILABLE, refused.code(), write[0]);
        assertTrue(refused.err().contains("is open in another process"), refused.err());
      }
    }
  }

  @Test
  void compact_mergesIntoOneSegment() throws Exception {
    Cli.Result r = cli.run("compact", "--json");
    assertEquals(0, r.code(), r.err());
    assertEquals(1, JsonRecords.MAPPER.readTree(r.out()).get("after").get("segments").asInt());
    assertEquals(0, cli.run("doctor").code());
  }

  private static java.util.List<String> checks(JsonNode n) {
    java.util.List<String> names = new java.util.ArrayList<>();
    n.get("checks").forEach(c -> names.add(c.get("check").asText()));
    return names;
  }

  private static JsonNode find(JsonNode n, String check) {
    for (JsonNode c : n.get("checks")) {
      if (c.get("check").asText().equals(check)) {
        return c;
      }
    }
    throw new AssertionError("no check " + check + " in " + n);
  }

  private static long size(Path f) {
    try {
      return Files.size(f);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
