package dev.memhook.benchmarks.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How the soak reads its command line: what it takes, and what it says when refusing. */
class SoakConfigTest {

  @Test
  void parse_setsEachOptionGiven_andKeepsTheFullSoaksValuesForTheRest() {
    SoakConfig c =
        SoakConfig.parse(
            "--memories",
            "2000",
            "--workers",
            "0",
            "--duration",
            "90s",
            "--seed",
            "-7",
            "--recall-timeout-ms",
            "250",
            "--stall-seconds",
            "30",
            "--heap-ratio",
            "2.5",
            "--dir",
            "soak-index");

    SoakConfig full = SoakConfig.full(-7);
    assertEquals(2000, c.memories());
    assertEquals(0, c.workers());
    assertEquals(Duration.ofSeconds(90), c.duration());
    assertEquals(-7L, c.seed());
    assertEquals(Duration.ofMillis(250), c.recallTimeout());
    assertEquals(Duration.ofSeconds(30), c.stallWindow());
    assertEquals(2.5, c.heapGrowthRatio());
    assertEquals(Path.of("soak-index"), c.directory());
    assertEquals(full.hooks(), c.hooks());
    assertEquals(full.scopes(), c.scopes());
    assertEquals(full.turnsPerConversation(), c.turnsPerConversation());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "--memories          | 3k     | --memories needs a whole number, not '3k'",
        "--workers           | -1     | --workers must be 0 to 2147483647, not -1",
        "--stall-seconds     | -5     | --stall-seconds must be 0 to 2147483647, not -5",
        "--recall-timeout-ms | -1     | --recall-timeout-ms must be 0 to 2147483647, not -1",
        "--seed              | 0x2a   | --seed needs a whole number, not '0x2a'",
        "--heap-ratio        | NaN    | --heap-ratio needs a finite number, not NaN",
        "--duration          | tenm   | --duration needs a length like 30s, 10m, 1h or PT10M, not 'tenm'",
        "--duration          | PT10X  | --duration needs a length like 30s, 10m, 1h or PT10M, not 'PT10X'",
      })
  void parse_refusesAMalformedOrNegativeValue_namingItsOption(
      String option, String value, String message) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> SoakConfig.parse(option, value));
    assertEquals(message, e.getMessage());
  }

  @Test
  void parse_refusesAnOptionWithoutItsValue_andAnUnknownOne_namingThem() {
    assertEquals(
        "--memories needs a value",
        assertThrows(IllegalArgumentException.class, () -> SoakConfig.parse("--memories"))
            .getMessage());
    assertEquals(
        "unknown option --memory",
        assertThrows(IllegalArgumentException.class, () -> SoakConfig.parse("--memory", "5"))
            .getMessage());
  }
}
