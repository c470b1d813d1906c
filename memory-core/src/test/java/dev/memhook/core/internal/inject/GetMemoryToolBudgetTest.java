package dev.memhook.core.internal.inject;

import static dev.memhook.core.internal.inject.ToolFixtures.args;
import static dev.memhook.core.internal.inject.ToolFixtures.bounded;
import static dev.memhook.core.internal.inject.ToolFixtures.call;
import static dev.memhook.core.internal.inject.ToolFixtures.memory;
import static dev.memhook.core.internal.inject.ToolFixtures.randomMemory;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.memhook.api.HookOptions;
import dev.memhook.api.Memory;
import dev.memhook.api.Scope;
import dev.memhook.api.chat.ToolResult;
import dev.memhook.core.HostileText;
import dev.memhook.core.internal.inject.excerpt.Excerpts;
import dev.memhook.testkit.Seeds;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * get_memory's size budget holds for every argument shape, and pages join up to the stored content,
 * for generated memories at and around the limits, under generated budgets.
 */
class GetMemoryToolBudgetTest {

  private static final Scope SCOPE = Scope.of("acme");
  private static final Scope OTHER = Scope.of("acme", "alice");
  private static final int MEMORIES = GetMemoryTool.MAX_SUMMARY_IDS;

  static LongStream seeds() {
    return Seeds.seeds(10);
  }

  /** The defaults, the least budgets allowed, or a random pair. */
  static HookOptions options(SplittableRandom r) {
    HookOptions.Builder b = HookOptions.builder().scope(SCOPE);
    switch (r.nextInt(3)) {
      case 0 -> {
        return b.build();
      }
      case 1 -> {
        return b.maxMemoryChars(HookOptions.MIN_MEMORY_CHARS)
            .maxResultChars(HookOptions.MIN_RESULT_CHARS)
            .build();
      }
      default -> {
        int memory = HookOptions.MIN_MEMORY_CHARS + r.nextInt(30_000);
        int result = Math.max(memory, HookOptions.MIN_RESULT_CHARS) + r.nextInt(50_000);
        return b.maxMemoryChars(memory).maxResultChars(result).build();
      }
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void everyArgumentShape_staysWithinTheBudget_andPagesJoinUpToTheStoredContent(long seed)
      throws Exception {
    SplittableRandom r = new SplittableRandom(seed);
    HookOptions options = options(r);
    String where =
        Seeds.replay(seed)
            + ", budgets "
            + options.maxMemoryChars()
            + "/"
            + options.maxResultChars();
    MapStore store = new MapStore();
    List<Memory> mine = new ArrayList<>();
    for (int i = 0; i < MEMORIES; i++) {
      mine.add(store.add(randomMemory(r, "mem_" + i, SCOPE, options.maxMemoryChars())));
    }
    Memory foreign = store.add(randomMemory(r, "mem_other", OTHER, options.maxMemoryChars()));
    GetMemoryTool tool = new GetMemoryTool(store, options);

    // one id, and for some (always the longest) its pages from every nextOffset
    Memory longest =
        mine.stream().max(java.util.Comparator.comparingInt(m -> m.content().length())).get();
    for (Memory m : mine) {
      boolean pageThrough = m == longest || r.nextInt(8) == 0;
      JsonNode first =
          bounded(call(tool, args("id", m.id().value())), options.maxMemoryChars(), where);
      assertEquals(m.id().value(), first.get("id").asText(), where);
      StringBuilder joined = new StringBuilder(first.get("content").asText());
      JsonNode page = first;
      int pages = 0;
      while (pageThrough && page.path("truncated").asBoolean(false)) {
        int next = page.get("nextOffset").asInt();
        assertEquals(joined.length(), next, "nextOffset is where the page ended: " + where);
        assertTrue(
            page.get("hint").asText().contains("\"offset\": " + next), "hint names it: " + where);
        assertEquals(m.content().length(), page.get("contentLength").asInt(), where);
        page =
            bounded(
                call(tool, args("id", m.id().value(), "offset", next)),
                options.maxMemoryChars(),
                where);
        assertEquals(next, page.get("offset").asInt(), where);
        assertTrue(page.get("content").asText().length() > 0, "every page moves on: " + where);
        joined.append(page.get("content").asText());
        pages++;
      }
      if (pageThrough) {
        assertEquals(
            m.content(), joined.toString(), "pages join up, after " + pages + ": " + where);
      } else {
        assertTrue(m.content().startsWith(joined.toString()), where);
      }
      assertFalse(first.has("error"), "one memory alone always shows content: " + where);
    }

    // ids in full: subsets with repeats, unknown ids and another scope's ids
    for (int round = 0; round < 20; round++) {
      List<String> asked = new ArrayList<>();
      int n = 1 + r.nextInt(GetMemoryTool.MAX_FULL_IDS);
      for (int i = 0; i < n; i++) {
        int pick = r.nextInt(MEMORIES + 2);
        asked.add(
            pick < MEMORIES
                ? mine.get(pick).id().value()
                : pick == MEMORIES ? "mem_unknown" : foreign.id().value());
      }
      JsonNode array = bounded(call(tool, args("ids", asked)), options.maxResultChars(), where);
      checkBatch(array, asked, store, false, where);
    }

    // ids with summary: all fifty, then a mix
    List<String> all = mine.stream().map(m -> m.id().value()).toList();
    checkBatch(
        bounded(call(tool, args("ids", all, "summary", true)), options.maxResultChars(), where),
        all,
        store,
        true,
        where);
    List<String> mixed = new ArrayList<>(all.subList(0, MEMORIES - 3));
    mixed.add(foreign.id().value());
    mixed.add(all.get(0));
    mixed.add("mem_unknown");
    checkBatch(
        bounded(call(tool, args("ids", mixed, "summary", true)), options.maxResultChars(), where),
        mixed,
        store,
        true,
        where);

    // ids with summary and a focus of the memories' own words: excerpts stay within the budget,
    // and each is cut rather than the summary
    String focus =
        JsonText.abbreviate(
            mine.get(0).content().substring(0, Math.min(300, mine.get(0).content().length()))
                + " "
                + mine.get(1).summary(),
            FetchArguments.MAX_FOCUS_CHARS);
    JsonNode focused =
        bounded(
            call(tool, args("ids", mixed, "summary", true, "focus", focus)),
            options.maxResultChars(),
            where);
    checkBatch(focused, mixed, store, true, where);
    for (JsonNode entry : focused) {
      if (entry.has("excerpt")) {
        assertFalse(entry.path("truncated").asBoolean(false), "a cut summary has no excerpt");
        assertTrue(entry.get("excerpt").asText().length() <= Excerpts.MAX_EXCERPT_CHARS + 2, where);
      }
    }

    // errors echo the model's text abbreviated, within the budget too
    String huge = HostileText.of(r, 200_000);
    for (Map<String, Object> bad :
        List.of(
            args("id", huge),
            args(huge, 1),
            args("ids", List.of(huge), "summary", true),
            args("id", all.get(0), "offset", Long.MAX_VALUE),
            args("id", all.get(0), "offset", mine.get(0).content().length() + 1))) {
      ToolResult result = call(tool, bad);
      assertTrue(result.error(), where);
      assertTrue(result.content().length() < 1_000, "an error stays small: " + where);
      bounded(result, options.maxResultChars(), where);
    }
  }

  /**
   * Each distinct id once, in order; another scope's or an unknown id not_found; a memory's text a
   * prefix of what is stored, marked when cut; or over_budget with its id.
   */
  private static void checkBatch(
      JsonNode array, List<String> asked, MapStore store, boolean summary, String where) {
    List<String> distinct = new ArrayList<>(new LinkedHashSet<>(asked));
    assertEquals(distinct.size(), array.size(), where);
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < distinct.size(); i++) {
      JsonNode entry = array.get(i);
      String id = distinct.get(i);
      assertEquals(id, entry.get("id").asText(), where);
      assertTrue(seen.add(id), where);
      Memory m =
          store
              .get(dev.memhook.api.MemoryId.of(id))
              .filter(x -> x.scope().equals(SCOPE))
              .orElse(null);
      if (m == null) {
        assertEquals("not_found", entry.get("error").asText(), where);
        continue;
      }
      if (entry.has("error")) {
        assertEquals("over_budget", entry.get("error").asText(), where);
        continue;
      }
      if (summary) {
        String shown = entry.get("summary").asText();
        if (entry.path("truncated").asBoolean(false)) {
          String kept =
              shown.endsWith(JsonText.ELLIPSIS)
                  ? shown.substring(0, shown.length() - JsonText.ELLIPSIS.length())
                  : shown;
          assertTrue(m.summary().startsWith(kept) && kept.length() < m.summary().length(), where);
        } else {
          assertEquals(m.summary(), shown, where);
        }
      } else {
        String shown = entry.get("content").asText();
        if (entry.path("truncated").asBoolean(false)) {
          assertEquals(shown.length(), entry.get("nextOffset").asInt(), where);
          assertTrue(m.content().startsWith(shown), where);
        } else {
          assertEquals(m.content(), shown, where);
        }
      }
    }
  }
}
