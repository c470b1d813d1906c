package dev.memhook.benchmarks.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@link SharedPostgresBench} once on tiny sizes, so the harness cannot rot: every part runs,
 * every self-check holds and each table has its rows. Needs a PostgreSQL server: the URL in {@value
 * BenchDatabase#URL_VARIABLE}, else in {@code MEMHOOK_TEST_POSTGRES_URL} (which {@code .ci/run}
 * sets); skipped, saying so, without either. Asserts no timing.
 */
class SharedPostgresBenchSmokeTest {
  private static final String TEST_URL_VARIABLE = "MEMHOOK_TEST_POSTGRES_URL";

  @TempDir Path indexes;

  @Test
  void tinyRun_passesItsChecks_andPrintsEveryRow() throws Exception {
    String url = System.getenv(BenchDatabase.URL_VARIABLE);
    if (url == null || url.isBlank()) {
      url = System.getenv(TEST_URL_VARIABLE);
    }
    assumeTrue(
        url != null && !url.isBlank(),
        "SharedPostgresBench smoke run SKIPPED: set "
            + BenchDatabase.URL_VARIABLE
            + " or "
            + TEST_URL_VARIABLE);
    String previous = System.setProperty("memhook.bench.dir", indexes.toString());
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    boolean passed;
    try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
      passed =
          SharedPostgresBench.run(
              SharedPostgresBench.parse(
                  new String[] {
                    "--url",
                    url,
                    "--writes",
                    "60",
                    "--probes",
                    "5",
                    "--background",
                    "30",
                    "--size",
                    "300",
                    "--warm-up",
                    "5",
                    "--queries",
                    "20"
                  }),
              out,
              System.err);
    } finally {
      if (previous == null) {
        System.clearProperty("memhook.bench.dir");
      } else {
        System.setProperty("memhook.bench.dir", previous);
      }
    }
    String report = bytes.toString(StandardCharsets.UTF_8);
    System.out.print(report);

    assertTrue(passed, "self-checks");
    List<String> rows =
        report
            .lines()
            .filter(
                l ->
                    l.startsWith("| ")
                        && !l.startsWith("| instances")
                        && !l.startsWith("| written")
                        && !l.startsWith("| mode"))
            .toList();
    assertEquals(3, rows.stream().filter(l -> l.contains("(A")).count(), "(a) rows: " + report);
    assertEquals(
        4, rows.stream().filter(l -> l.startsWith("| A | ")).count(), "(b) rows: " + report);
    assertEquals(
        6,
        rows.stream().filter(l -> l.contains("| postgres |") || l.contains("| lucene |")).count(),
        "(c) rows: " + report);
  }

  @Test
  void aMalformedOrOutOfRangeNumber_isRefusedNamingItsOption_digitsGroupedAreRead() {
    assertRefused("--size needs a whole number, not 'ten'", "--size", "ten");
    assertRefused("--writes must be 0 to 2147483647, not 3000000000", "--writes", "3000000000");
    assertRefused("--size must be at least 1, got 0", "--size", "0");
    assertEquals(
        10_000, SharedPostgresBench.parse(new String[] {"--size", "10,000"}).size(), "grouped");
  }

  private static void assertRefused(String message, String... args) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> SharedPostgresBench.parse(args));
    assertEquals(message, e.getMessage());
  }
}
