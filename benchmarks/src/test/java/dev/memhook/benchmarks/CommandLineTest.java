package dev.memhook.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** How the harnesses read an option's value: what they accept, and what they say when refusing. */
class CommandLineTest {

  @Test
  void eachReader_returnsTheValueAfterItsOption() {
    String[] args = {"--size", "100000", "--seed", "-7", "--floor", "0.25", "--mode", "fused"};
    assertEquals(100_000, CommandLine.count(args, 1));
    assertEquals(-7L, CommandLine.whole(args, 3));
    assertEquals(0.25, CommandLine.number(args, 5));
    assertEquals("fused", CommandLine.value(args, 7));
    assertEquals(0, CommandLine.count(new String[] {"--n", "0"}, 1));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "count  | --size   | 3k         | --size needs a whole number, not '3k'",
        "count  | --size   | -1         | --size must be 0 to 2147483647, not -1",
        "count  | --size   | 3000000000 | --size must be 0 to 2147483647, not 3000000000",
        "whole  | --seed   | 0x2a       | --seed needs a whole number, not '0x2a'",
        "number | --floor  | 0,25       | --floor needs a number, not '0,25'",
        "number | --floor  | NaN        | --floor needs a finite number, not NaN",
        "number | --floor  | -Infinity  | --floor needs a finite number, not -Infinity",
      })
  void aMalformedValue_isRefusedNamingItsOptionAndTheValue(
      String reader, String option, String value, String message) {
    String[] args = {option, value};
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> {
              switch (reader) {
                case "count" -> CommandLine.count(args, 1);
                case "whole" -> CommandLine.whole(args, 1);
                default -> CommandLine.number(args, 1);
              }
            });
    assertEquals(message, e.getMessage());
  }

  @Test
  void eachReaderOfANamedText_returnsItsValue() {
    assertEquals(3000, CommandLine.count("memories", "3000"));
    assertEquals(0, CommandLine.count("--distractors", "0"));
    assertEquals(-7L, CommandLine.whole("--distractor-seed", "-7"));
    assertEquals(0.5, CommandLine.number("seconds", "0.5"));
  }

  /**
   * A {@code key=value} pair's value or a positional argument's is refused by the rules the option
   * readers apply, naming what the caller calls it.
   */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "count  | memories          | 3k         | memories needs a whole number, not '3k'",
        "count  | memories          | ''         | memories needs a whole number, not ''",
        "count  | N (memories)      | -1         | N (memories) must be 0 to 2147483647, not -1",
        "count  | requests          | 3000000000 | requests must be 0 to 2147483647, not 3000000000",
        "whole  | --distractor-seed | 4.2        | --distractor-seed needs a whole number, not '4.2'",
        "number | seconds           | 5s         | seconds needs a number, not '5s'",
        "number | caps              | Infinity   | caps needs a finite number, not Infinity",
      })
  void aMalformedNamedText_isRefusedNamingItAndTheValue(
      String reader, String name, String text, String message) {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> {
              switch (reader) {
                case "count" -> CommandLine.count(name, text);
                case "whole" -> CommandLine.whole(name, text);
                default -> CommandLine.number(name, text);
              }
            });
    assertEquals(message, e.getMessage());
  }

  @Test
  void anOptionAtTheEnd_isRefusedForItsMissingValue_byEveryReader() {
    String[] args = {"--size"};
    for (Runnable read :
        new Runnable[] {
          () -> CommandLine.value(args, 1),
          () -> CommandLine.count(args, 1),
          () -> CommandLine.whole(args, 1),
          () -> CommandLine.number(args, 1)
        }) {
      assertEquals(
          "--size needs a value",
          assertThrows(IllegalArgumentException.class, read::run).getMessage());
    }
  }

  @Test
  void aFlag_isTrueOrFalseInAnyCase_andAnythingElseIsRefused() {
    assertEquals(true, CommandLine.flag("settled", "TRUE"));
    assertEquals(false, CommandLine.flag("settled", "false"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> CommandLine.flag("settled", "yes"));
    assertEquals("settled needs true or false, not 'yes'", e.getMessage());
  }

  @Test
  void pairs_keepTheLastValueOfAKey_andRefuseANonPairOrAnUnknownKey_namingTheKnownOnes() {
    Set<String> keys = Set.of("memories", "caps");
    assertEquals(
        Map.of("memories", "10", "caps", "16,32=x"),
        CommandLine.pairs(new String[] {"memories=5", "caps=16,32=x", "memories=10"}, keys));
    assertEquals(Map.of(), CommandLine.pairs(new String[0], keys));

    IllegalArgumentException notAPair =
        assertThrows(
            IllegalArgumentException.class,
            () -> CommandLine.pairs(new String[] {"memories"}, keys));
    assertEquals("expected key=value, got memories", notAPair.getMessage());
    IllegalArgumentException unknown =
        assertThrows(
            IllegalArgumentException.class,
            () -> CommandLine.pairs(new String[] {"memorys=5"}, keys));
    assertEquals("unknown key 'memorys'; known: caps, memories", unknown.getMessage());
  }

  @Test
  void
      options_keepTheLastValueOfAnOption_andRefuseAnUnknownOneOrAMissingValue_namingTheKnownOnes() {
    List<String> known = List.of("--data", "--at");
    assertEquals(
        Map.of("--data", "b.jsonl", "--at", "5"),
        CommandLine.options(
            new String[] {"--data", "a.jsonl", "--at", "5", "--data", "b.jsonl"}, known));
    assertEquals(Map.of(), CommandLine.options(new String[0], known));

    IllegalArgumentException unknown =
        assertThrows(
            IllegalArgumentException.class,
            () -> CommandLine.options(new String[] {"--dat", "a.jsonl"}, known));
    assertEquals(
        "expected --option value pairs of [--data, --at], got --dat a.jsonl", unknown.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> CommandLine.options(new String[] {"--data", "a.jsonl", "--at"}, known));
  }
}
