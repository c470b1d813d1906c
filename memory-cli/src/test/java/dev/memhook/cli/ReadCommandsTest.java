package dev.memhook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** stats, list, show and search on a seeded store: golden JSON and the human form's facts. */
class ReadCommandsTest {
  @TempDir Path dir;
  private Cli cli;
  private TestStore.Seeded seeded;

  @BeforeEach
  void seed() {
    seeded = TestStore.seed(dir);
    cli = new Cli(dir);
  }

  @Test
  void stats_json_countsByScopeTypeAndOrigin() throws Exception {
    Cli.Result r = cli.run("stats", "--json");
    assertEquals(0, r.code(), r.err());
    String json =
        r.out()
            .replaceAll("\"sizeBytes\":\\d+", "\"sizeBytes\":\"<n>\"")
            .replaceAll("\"segments\":\\d+", "\"segments\":\"<n>\"");
    Golden.assertMatches("stats", json, dir);
  }

  @Test
  void stats_human_namesScopesAndTheEmbeddingSpace() {
    Cli.Result r = cli.run("stats");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("memhook-hashing-v1-d256, 256 dimensions"), r.out());
    assertTrue(r.out().contains("acme/alice"), r.out());
    assertTrue(r.out().contains("3 latest, 1 older version, 1 forgotten, 0 unreadable"), r.out());
  }

  @Test
  void humanCounts_ofOne_areSingular_andOfMore_plural() {
    Cli.Result stats = cli.run("stats");
    assertCountWorded(stats.out(), "index       format 3, (\\d+) (segments?), ", "segment");
    assertTrue(
        stats.out().matches("(?s).*\\n  acme/alice +2 memories, 1 older, 0 forgotten\\n.*"),
        stats.out());
    assertTrue(
        stats.out().matches("(?s).*\\n  acme/bob +1 memory, 0 older, 1 forgotten\\n.*"),
        stats.out());
    assertEquals("1 of 1 matching memory", cli.run("list", "--type", "bug").err().strip());
    assertEquals("3 of 3 matching memories", cli.run("list").err().strip());
    Cli.Result doctor = cli.run("doctor");
    assertCountWorded(doctor.out(), "checksums +(\\d+) (segments?), ", "segment");
    assertFalse(stats.out().contains("(s)"), stats.out());
    assertFalse(doctor.out().contains("(s)"), doctor.out());
  }

  /** The count {@code pattern} captures is followed by {@code one}, or its plural if not 1. */
  private static void assertCountWorded(String output, String pattern, String one) {
    Matcher m = Pattern.compile(pattern).matcher(output);
    assertTrue(m.find(), pattern + " in " + output);
    assertEquals(Integer.parseInt(m.group(1)) == 1 ? one : one + "s", m.group(2), output);
  }

  @Test
  void list_json_filtersByScopeTypeSessionAndTime() throws Exception {
    Golden.assertMatches("list-all", ok("list", "--json").out(), dir);
    Golden.assertMatches(
        "list-alice-versions",
        ok("list", "--json", "--scope", "acme/alice", "--all-versions").out(),
        dir);
    JsonNode bugs = json(ok("list", "--json", "--type", "BUG"));
    assertEquals(1, bugs.get("matched").asInt());
    assertEquals(seeded.bobBug().id().value(), bugs.get("memories").get(0).get("id").asText());
    JsonNode session = json(ok("list", "--json", "--session", "session-1", "--all-versions"));
    assertEquals(2, session.get("matched").asInt());
    String after = seeded.timeoutV2().createdAt().toString();
    JsonNode since = json(ok("list", "--json", "--since", after));
    assertEquals(2, since.get("matched").asInt(), "v2 and the bug, created at or after v2");
    JsonNode until = json(ok("list", "--json", "--until", after));
    assertEquals(1, until.get("matched").asInt(), "tabs only");
    JsonNode limited = json(ok("list", "--json", "--limit", "1"));
    assertEquals(3, limited.get("matched").asInt());
    assertEquals(1, limited.get("memories").size());
  }

  @Test
  void show_printsEveryVersionById_andExits3ForAnUnknownOne() throws Exception {
    Golden.assertMatches(
        "show",
        ok("show", "--json", seeded.timeoutV2().id().value(), seeded.timeoutV1().id().value())
            .out(),
        dir);
    Cli.Result human = ok("show", seeded.tabs().id().value());
    assertTrue(human.out().contains("Alice prefers tabs over spaces in every Java file."));
    Cli.Result missing = cli.run("show", seeded.forgotten().id().value());
    assertEquals(ExitCode.NOT_FOUND, missing.code());
    assertTrue(missing.err().contains(seeded.forgotten().id().value()), missing.err());
  }

  @Test
  void search_json_andExplain_showRanksScoresAndDrops() throws Exception {
    JsonNode plain = json(ok("search", "--json", "--scope", "acme/alice", "gateway", "timeout"));
    assertEquals(seeded.timeoutV2().id().value(), plain.get("memories").get(0).get("id").asText());
    assertTrue(plain.get("memories").get(0).get("signals") == null, "no signals without --explain");

    JsonNode explained =
        json(
            ok(
                "search",
                "--json",
                "--explain",
                "--scope",
                "acme/alice",
                "--limit",
                "1",
                "--no-gate",
                "gateway timeout tabs"));
    JsonNode first = explained.get("memories").get(0);
    assertTrue(first.get("signals").size() >= 1, first.toString());
    assertEquals(1, first.get("signals").get(0).get("rank").asInt());
    assertTrue(explained.get("fusion").asText().contains("weights"), explained.toString());
    assertEquals("limit", explained.get("dropped").get(0).get("rule").asText());

    Cli.Result human = ok("search", "--explain", "--scope", "acme/alice", "gateway", "timeout");
    assertTrue(human.out().contains("1. " + seeded.timeoutV2().id()), human.out());
    assertTrue(human.out().contains("fusion: "), human.out());
    assertTrue(human.out().matches("(?s).*text #1 \\(.*"), human.out());
  }

  @Test
  void search_withTheHostsOptions_rejectsBadOnesAsUsageErrors() {
    Cli.Result bad = cli.run("search", "--weights", "1,2", "x");
    assertEquals(ExitCode.USAGE, bad.code());
    assertTrue(bad.err().contains("--weights takes three numbers"), bad.err());
    Cli.Result rrf = cli.run("search", "--fusion", "reciprocal_ranks", "--rrf-k", "0", "x");
    assertEquals(ExitCode.USAGE, rrf.code());
    assertTrue(rrf.err().contains("rrfK"), rrf.err());
  }

  private Cli.Result ok(String... args) {
    Cli.Result r = cli.run(args);
    assertEquals(0, r.code(), () -> String.join(" ", args) + ": " + r.err());
    return r;
  }

  private static JsonNode json(Cli.Result r) throws Exception {
    return JsonRecords.MAPPER.readTree(r.out());
  }
}
