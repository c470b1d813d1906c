package dev.memhook.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.lucene.IdleMergePlan.Segment;
import dev.memhook.testkit.Seeds;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The decisions of {@link IdleMergePlan}, on synthetic segment lists. */
class IdleMergePlanTest {
  private static final long MAX = 100;

  @Test
  void aStoreSmallerThanTheMax_mergesEverySegmentIntoOne_largestFirst() {
    List<Segment> segments = List.of(seg("_a", 5), seg("_b", 40), seg("_c", 1), seg("_d", 20));

    assertEquals(List.of(List.of("_b", "_d", "_a", "_c")), IdleMergePlan.merges(segments, MAX));
  }

  @Test
  void aLargerStore_packsFirstFitDecreasing_intoGroupsOfAtMostTheMax() {
    List<Segment> segments =
        List.of(seg("_a", 20), seg("_b", 60), seg("_c", 30), seg("_d", 50), seg("_e", 40));

    // 60 opens a group, 50 a second (110 > 100), 40 fills the first, 30 and 20 the second
    assertEquals(
        List.of(List.of("_b", "_e"), List.of("_d", "_c", "_a")),
        IdleMergePlan.merges(segments, MAX));
  }

  @Test
  void segmentsThatCannotPair_areLeftAsTheyAre() {
    List<Segment> segments = List.of(seg("_a", 60), seg("_b", 55), seg("_c", 51));

    assertEquals(List.of(), IdleMergePlan.merges(segments, MAX));
  }

  @Test
  void oneSegment_withoutDeletes_isLeftAsItIs() {
    assertEquals(List.of(), IdleMergePlan.merges(List.of(seg("_a", 80)), MAX));
    assertEquals(List.of(), IdleMergePlan.merges(List.of(), MAX));
  }

  @Test
  void aSegmentLargerThanTheMax_isNeverMerged_evenWithSmallOnesBeside() {
    List<Segment> segments =
        List.of(new Segment("_big", 500, 1000, 300), seg("_a", 10), seg("_b", 10));

    assertEquals(List.of(List.of("_a", "_b")), IdleMergePlan.merges(segments, MAX));
  }

  @Test
  void aSegmentAloneInItsGroup_isRewrittenOnlyFromATenthDeleted() {
    Segment tenth = new Segment("_t", 80, 1000, 100);
    Segment less = new Segment("_l", 80, 1000, 99);

    assertEquals(List.of(List.of("_t")), IdleMergePlan.merges(List.of(tenth), MAX));
    assertEquals(List.of(), IdleMergePlan.merges(List.of(less), MAX));
    assertEquals(List.of(List.of("_t")), IdleMergePlan.merges(List.of(tenth, less), MAX));
  }

  @Test
  void deletedDocuments_countNotToward_theSizeOfAMerge() {
    // 120 bytes, half deleted: 60 live, which fits beside 40 under 100
    List<Segment> segments = List.of(new Segment("_half", 120, 1000, 500), seg("_a", 40));

    assertEquals(List.of(List.of("_half", "_a")), IdleMergePlan.merges(segments, MAX));
    assertEquals(60, segments.get(0).liveBytes());
  }

  @Test
  void aSegmentWithNoLiveDocument_isLeftToLucene() {
    List<Segment> segments = List.of(new Segment("_gone", 50, 10, 10), seg("_a", 40));

    assertEquals(List.of(), IdleMergePlan.merges(segments, MAX));
  }

  @Test
  void equalSizes_areTakenInNameOrder_whateverTheListOrder() {
    List<Segment> segments = new ArrayList<>();
    for (String name : List.of("_c", "_a", "_d", "_b")) {
      segments.add(seg(name, 50));
    }
    List<List<String>> expected = List.of(List.of("_a", "_b"), List.of("_c", "_d"));

    assertEquals(expected, IdleMergePlan.merges(segments, MAX));
    Collections.shuffle(segments, new Random(7));
    assertEquals(expected, IdleMergePlan.merges(segments, MAX));
  }

  @Test
  void everyMerge_staysWithinTheMax_andNoSegmentIsInTwo() {
    long seed = Seeds.seed();
    Random random = new Random(seed);
    for (int round = 0; round < 200; round++) {
      List<Segment> segments = new ArrayList<>();
      int n = 1 + random.nextInt(40);
      for (int i = 0; i < n; i++) {
        int maxDoc = 1 + random.nextInt(1000);
        segments.add(new Segment("_" + i, random.nextInt(150), maxDoc, random.nextInt(maxDoc + 1)));
      }
      List<List<String>> merges = IdleMergePlan.merges(segments, MAX);
      List<String> seen = new ArrayList<>();
      for (List<String> merge : merges) {
        long live = 0;
        for (String name : merge) {
          live += segments.get(Integer.parseInt(name.substring(1))).liveBytes();
        }
        assertTrue(
            live <= MAX,
            "round " + round + ": " + merge + " holds " + live + "; " + Seeds.replay(seed));
        seen.addAll(merge);
      }
      assertEquals(
          seen.size(),
          seen.stream().distinct().count(),
          "round " + round + ": " + merges + "; " + Seeds.replay(seed));
    }
  }

  @Test
  void rejectsANonPositiveMax_andImpossibleSegments() {
    assertThrows(IllegalArgumentException.class, () -> IdleMergePlan.merges(List.of(), 0));
    assertThrows(IllegalArgumentException.class, () -> new Segment("_a", -1, 1, 0));
    assertThrows(IllegalArgumentException.class, () -> new Segment("_a", 1, 1, 2));
    assertThrows(NullPointerException.class, () -> IdleMergePlan.merges(null, MAX));
  }

  @Test
  void aLoneGraphlessSegment_isRewrittenAlone_evenLargerThanTheMax() {
    Segment graphless = new Segment("_g", 80, 1000, 0, true);
    Segment huge = new Segment("_h", 500, 1000, 0, true);

    assertEquals(List.of(List.of("_g")), IdleMergePlan.merges(List.of(graphless), MAX));
    assertEquals(List.of(List.of("_h")), IdleMergePlan.merges(List.of(huge), MAX));
    assertEquals(
        List.of(List.of("_h"), List.of("_a", "_b")),
        IdleMergePlan.merges(List.of(huge, seg("_a", 10), seg("_b", 10)), MAX));
  }

  @Test
  void graphlessSegments_packWithTheOthers_andEachGroupHoldingOneIsMerged() {
    List<Segment> segments =
        List.of(
            seg("_a", 60),
            seg("_b", 55),
            new Segment("_g1", 30, 1000, 0, true),
            new Segment("_g2", 50, 1000, 0, true));

    // 60 opens a group, 55 a second, 50 a third (graphless: rewritten alone), 30 joins the first;
    // 55 alone, with its graph and nothing deleted, is left as it is
    assertEquals(
        List.of(List.of("_a", "_g1"), List.of("_g2")), IdleMergePlan.merges(segments, MAX));
  }

  /** A segment of {@code size} bytes with no deleted document. */
  private static Segment seg(String name, long size) {
    return new Segment(name, size, 1000, 0);
  }
}
