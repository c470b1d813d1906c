package dev.memhook.core.internal.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The sources a consolidated memory's new version keeps: the earlier ones and the new, bounded. */
class SessionConsolidationSourcesTest {

  /** An observation id as capture makes them: "obs-" and 40 hex digits. */
  private static String id(int i) {
    return "obs-" + String.format("%040x", i);
  }

  @Test
  void aNewVersion_keepsTheEarlierSourcesThenTheNewOnes_eachOnceWhereLastNamed() {
    SessionConsolidation.SourceIds ids =
        SessionConsolidation.sourceIds("a b c", List.of(MemoryId.of("b"), MemoryId.of("d")));
    assertEquals("a c b d", ids.value());
    assertFalse(ids.truncated());
  }

  @Test
  void aFirstVersion_hasItsOwnSourcesOnly() {
    SessionConsolidation.SourceIds ids =
        SessionConsolidation.sourceIds(null, List.of(MemoryId.of(id(1)), MemoryId.of(id(2))));
    assertEquals(id(1) + " " + id(2), ids.value());
    assertFalse(ids.truncated());
  }

  @Test
  void sourcesOverTheAttributeLimit_keepTheNewest_andSayOlderOnesWereLeftOut() {
    List<String> earlier =
        IntStream.range(0, 40).mapToObj(SessionConsolidationSourcesTest::id).toList();
    List<MemoryId> fresh = new ArrayList<>();
    for (int i = 40; i < 43; i++) {
      fresh.add(MemoryId.of(id(i)));
    }

    SessionConsolidation.SourceIds ids =
        SessionConsolidation.sourceIds(String.join(" ", earlier), fresh);

    // 44 characters and a space each: 22 ids take 989 characters, a 23rd would take 1,034
    int fit = (MemoryDraft.MAX_ATTRIBUTE_VALUE + 1) / (id(0).length() + 1);
    assertEquals(22, fit);
    List<String> expected =
        IntStream.range(43 - fit, 43).mapToObj(SessionConsolidationSourcesTest::id).toList();
    assertEquals(String.join(" ", expected), ids.value());
    assertTrue(ids.value().length() <= MemoryDraft.MAX_ATTRIBUTE_VALUE);
    assertTrue(ids.truncated());
  }
}
