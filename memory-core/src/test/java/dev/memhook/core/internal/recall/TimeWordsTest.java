package dev.memhook.core.internal.recall;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.strings;

import dev.memhook.testkit.Seeds;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Every form {@link TimeWords} reads, counted from a fixed Tuesday noon, and what it must not. */
class TimeWordsTest {

  /** Tuesday 30 May 2023, noon UTC. */
  private static final Instant REF = Instant.parse("2023-05-30T12:00:00Z");

  /** The window as {@code start..end}: days, "ref" for the reference, "open" for an open side. */
  private static String render(Optional<TimeWords.TimeWindow> w) {
    return w.map(x -> side(x.start()) + ".." + side(x.end())).orElse("none");
  }

  private static String side(Instant i) {
    if (i.equals(Instant.MIN) || i.equals(Instant.MAX)) {
      return "open";
    }
    if (i.equals(REF)) {
      return "ref";
    }
    assertEquals(
        LocalDate.ofInstant(i, ZoneOffset.UTC).atStartOfDay(ZoneOffset.UTC).toInstant(), i);
    return LocalDate.ofInstant(i, ZoneOffset.UTC).toString();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "What did I do yesterday?                | 2023-05-29..2023-05-30",
        "the day before yesterday                | 2023-05-28..2023-05-29",
        "what did we eat last night              | 2023-05-29..2023-05-30",
        "anything new today?                     | 2023-05-30..ref",
        "what did we decide last week?           | 2023-05-22..2023-05-29",
        "this week                               | 2023-05-29..ref",
        "last month                              | 2023-04-01..2023-05-01",
        "in the previous month                   | 2023-04-01..2023-05-01",
        "this month                              | 2023-05-01..ref",
        "last year                               | 2022-01-01..2023-01-01",
        "this year                               | 2023-01-01..ref",
        "where did we go last weekend?           | 2023-05-27..2023-05-29",
        "over the past 3 days                    | 2023-05-27..ref",
        "in the last two weeks                   | 2023-05-16..ref",
        "three weeks ago                         | 2023-05-06..2023-05-13",
        "5 days ago                              | 2023-05-25..2023-05-26",
        "a month ago                             | 2023-04-15..2023-05-16",
        "a couple of years ago                   | 2020-11-29..2021-11-29",
        "in May                                  | 2023-05-01..ref",
        "in March                                | 2023-03-01..2023-04-01",
        "during June                             | 2022-06-01..2022-07-01",
        "last May                                | 2022-05-01..2022-06-01",
        "in May 2022                             | 2022-05-01..2022-06-01",
        "march 2022                              | 2022-03-01..2022-04-01",
        "on May 5                                | 2023-05-05..2023-05-06",
        "on the 5th of May                       | 2023-05-05..2023-05-06",
        "May 5th, 2022                           | 2022-05-05..2022-05-06",
        "June 3                                  | 2022-06-03..2022-06-04",
        "on 2023-04-02                           | 2023-04-02..2023-04-03",
        "in 2022                                 | 2022-01-01..2023-01-01",
        "what happened on Monday?                | 2023-05-29..2023-05-30",
        "on Tuesday                              | 2023-05-30..ref",
        "last Tuesday                            | 2023-05-23..2023-05-24",
        "before April 10, 2023                   | open..2023-04-10",
        "after March 2023                        | 2023-04-01..open",
        "since 2022                              | 2022-01-01..open",
        "two weeks before April 20, 2023         | 2023-04-03..2023-04-10",
        "the week before May 3, 2023             | 2023-04-26..2023-05-03",
        "the day after May 3, 2023               | 2023-05-04..2023-05-05",
        "last month, on Monday                   | 2023-05-29..2023-05-30",
        "in 2022, on May 5th, 2022               | 2022-05-05..2022-05-06"
      })
  void window_readsEachForm_fromTheReference(String query, String expected) {
    assertEquals(expected, render(TimeWords.window(query, REF)));
  }

  @ParameterizedTest(name = "[{index}] \"{0}\"")
  @ValueSource(
      strings = {
        "May I ask you something?",
        "may I use the staging cluster?",
        "Who came in second?",
        "a second ago",
        "We march forward together",
        "in may we trust",
        "may 5 people join?",
        "in a month or two",
        "what happens next week?",
        "Will you be there this weekend?",
        "the 2023 roadmap",
        "in 2024",
        "in February 2024",
        "30 February",
        "12345 days ago",
        "weeks ago",
        "How many days passed between the two workshops?",
        "",
        "  "
      })
  void window_namesNoTime_whereTheWordsNameNoneInThePast(String query) {
    assertEquals("none", render(TimeWords.window(query, REF)));
  }

  @Test
  void window_neverThrows_onArbitraryText() {
    long seed = Seeds.seed();
    qt().withFixedSeed(seed)
        .withExamples(2_000)
        .forAll(strings().basicLatinAlphabet().ofLengthBetween(0, 80))
        .checkAssert(s -> TimeWords.window(s, REF));
  }

  @Test
  void window_countsMonthsAndWeekdaysFromTheReferenceGiven() {
    Instant january = Instant.parse("2023-01-30T01:53:00Z");
    assertEquals(
        Optional.of(
            new TimeWords.TimeWindow(Instant.parse("2023-01-01T00:00:00Z"), january, "in January")),
        TimeWords.window("What is the order of the sports events I watched in January?", january));
    assertEquals(
        "2022-05-01..2022-06-01",
        render(TimeWords.window("in May", Instant.parse("2023-02-01T00:00:00Z"))));
  }

  @Test
  void window_fromAReferenceNoCalendarCountsFrom_isNone_neverAnException() {
    for (Instant reference :
        List.of(
            Instant.MIN,
            Instant.MAX,
            LocalDate.MAX.atStartOfDay(ZoneOffset.UTC).toInstant(),
            LocalDate.MIN.atStartOfDay(ZoneOffset.UTC).toInstant())) {
      for (String query :
          List.of("yesterday", "today", "last week", "this year", "in May", "on Monday")) {
        Optional<TimeWords.TimeWindow> w =
            assertDoesNotThrow(() -> TimeWords.window(query, reference), query + " " + reference);
        if (reference.equals(Instant.MIN) || reference.equals(Instant.MAX)) {
          assertEquals(Optional.empty(), w, query + " " + reference);
        }
      }
    }
  }
}
