package dev.memhook.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.memhook.testkit.Seeds;
import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Reading stored instants by position gives what {@link Instant#parse} gives, for any text. */
class IsoInstantsTest {

  private static final long YEAR_0 = Instant.parse("0000-01-01T00:00:00Z").getEpochSecond();
  private static final long YEAR_10000 = Instant.parse("+10000-01-01T00:00:00Z").getEpochSecond();

  /** The outcome of reading {@code text}: the instant's seconds and nanos, or the exception. */
  private static String outcome(java.util.function.Function<String, Instant> parse, String text) {
    try {
      Instant i = parse.apply(text);
      return i.getEpochSecond() + "s " + i.getNano() + "ns";
    } catch (RuntimeException e) {
      return e.getClass().getName() + ": " + e.getMessage();
    }
  }

  private static void assertSameAsInstantParse(String text, String context) {
    assertEquals(
        outcome(Instant::parse, text),
        outcome(IsoInstants::parse, text),
        "\"" + text + "\", " + context);
  }

  @Test
  void everyInstantAsItsToStringWritesIt_readsBackAsInstantParseReadsIt() {
    long seed = Seeds.seed();
    Random r = new Random(seed);
    for (int i = 0; i < 50_000; i++) {
      long second = YEAR_0 + (long) (r.nextDouble() * (YEAR_10000 - YEAR_0));
      int nanos =
          switch (r.nextInt(4)) {
            case 0 -> 0;
            case 1 -> r.nextInt(1000) * 1_000_000;
            case 2 -> r.nextInt(1_000_000) * 1_000;
            default -> r.nextInt(1_000_000_000);
          };
      Instant instant = Instant.ofEpochSecond(second, nanos);
      assertEquals(instant, IsoInstants.parse(instant.toString()), Seeds.replay(seed));
    }
  }

  @Test
  void textNearTheWrittenForm_readsAsInstantParseReadsIt_valueOrException() {
    long seed = Seeds.seed();
    Random r = new Random(seed);
    String alphabet = "0123456789-:.TZtz+ ٣";
    for (int i = 0; i < 50_000; i++) {
      char[] text =
          Instant.ofEpochSecond(r.nextInt(Integer.MAX_VALUE), r.nextInt(1_000_000_000))
              .toString()
              .toCharArray();
      for (int edits = 1 + r.nextInt(2); edits > 0; edits--) {
        text[r.nextInt(text.length)] = alphabet.charAt(r.nextInt(alphabet.length()));
      }
      assertSameAsInstantParse(new String(text), Seeds.replay(seed));
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "2023-05-30T12:00:00Z",
        "2023-05-30T12:00:00.5Z",
        "2023-05-30T12:00:00.12Z",
        "2023-05-30T12:00:00.1234Z",
        "2023-05-30T12:00:00.123456789Z",
        "2023-05-30T12:00:00.Z",
        "2023-05-30T12:00:00.1234567891Z",
        "2024-02-29T00:00:00Z",
        "2023-02-29T00:00:00Z",
        "2023-04-31T00:00:00Z",
        "1900-02-29T00:00:00Z",
        "2000-02-29T00:00:00Z",
        "2016-12-31T23:59:60Z",
        "2023-05-30T24:00:00Z",
        "2023-05-30T23:60:00Z",
        "2023-00-10T00:00:00Z",
        "2023-13-10T00:00:00Z",
        "2023-05-00T00:00:00Z",
        "0000-01-01T00:00:00Z",
        "9999-12-31T23:59:59.999999999Z",
        "+10000-01-01T00:00:00Z",
        "-0001-01-01T00:00:00Z",
        "2023-05-30T12:00:00+01:00",
        "2023-05-30t12:00:00z",
        "2023-05-30T12:00Z",
        "2023-05-30 12:00:00Z",
        "２０２３-05-30T12:00:00Z",
        "2023-05-30T12:00:00",
        ""
      })
  void edgesOfTheWrittenForm_readAsInstantParseReadsThem(String text) {
    assertSameAsInstantParse(text, "fixed case");
  }
}
