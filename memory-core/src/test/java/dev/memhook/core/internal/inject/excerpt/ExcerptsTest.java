package dev.memhook.core.internal.inject.excerpt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.core.HostileText;
import dev.memhook.core.internal.compress.TextCuts;
import dev.memhook.core.internal.recall.words.QueryWords;
import dev.memhook.testkit.Seeds;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The excerpt a memory shows for a query's words. */
class ExcerptsTest {

  private static final Instant T = Instant.parse("2025-01-02T03:04:05Z");

  private static Memory memory(String title, String summary, String content) {
    return Memory.builder()
        .id(MemoryId.of("mem_excerpt"))
        .scope(Scope.DEFAULT)
        .content(content)
        .occurredAt(T)
        .createdAt(T)
        .title(title)
        .summary(summary)
        .build();
  }

  /** A Package.resolved file of {@code pins} ({@link #pin}), one line per field. */
  private static String resolved(String... pins) {
    List<String> lines = new ArrayList<>(List.of("{", "  \"pins\" : ["));
    for (int k = 0; k < pins.length; k++) {
      lines.add("    {");
      lines.add(pins[k]);
      lines.add(k < pins.length - 1 ? "    }," : "    }");
    }
    lines.add("  ]");
    lines.add("}");
    return String.join("\n", lines);
  }

  /** The lines of one pin; a null location or revision is left out. */
  private static String pin(String identity, String location, String revision, String version) {
    List<String> lines = new ArrayList<>();
    lines.add("      \"identity\" : \"" + identity + "\",");
    if (location != null) {
      lines.add("      \"location\" : \"" + location + "\",");
    }
    lines.add("      \"state\" : {");
    if (revision != null) {
      lines.add("        \"revision\" : \"" + revision + "\",");
    }
    lines.add("        \"version\" : \"" + version + "\"");
    lines.add("      }");
    return String.join("\n", lines);
  }

  /**
   * A rules memory closes with the task it was read for, whose words a later task of the same kind
   * shares by design ("branch", "driver", the ticket's prefix); the excerpt shows the rule.
   */
  @Test
  void theTaskNoteClosingARulesMemory_isNoExcerpt_theRuleIs() {
    String rules =
        "Project rules in CONTRIBUTING.md (Layout; Branches):\nLayout: `domain/` is pure Kotlin.\n"
            + "Branches: `rk-<ticket>/<slug>`, squash-merge only.";
    String content =
        rules
            + " (Read for the task \"RK-388: ETA shown to drivers is off by a minute. fix it,"
            + " do branch + commit\".)";
    Memory m =
        memory("Project rules in CONTRIBUTING.md", "Project rules in CONTRIBUTING.md", content);

    String excerpt =
        Excerpts.of(
            m, QueryWords.terms(QueryWords.focus(List.of("starting RK-401, set up the branch"))));

    assertEquals(
        "…Branches: `rk-<ticket>/<slug>`, squash-merge only.…",
        excerpt,
        "the rule, marked as followed by text left out");
    assertEquals(
        "",
        Excerpts.of(m, QueryWords.terms("drivers minute eta")),
        "words only the note holds give no excerpt");
  }

  @Test
  void aRuleMatchedInMidLine_isShownWithTheSentencesThatFollowItOnItsLine_withinTheBound() {
    String guide =
        "Project rules in CONVENTIONS.md: As the file writes them: Layout: `envs/<env>/` — one"
            + " root module per environment. `modules/` — reusable modules. Name them"
            + " `modules/gcp-<thing>` (e.g. `modules/gcp-bucket`). No resources in `modules/` may"
            + " hardcode a project or region. Versions: Terraform and provider versions are pinned"
            + " in `versions.tf` of each env. Bump providers in a separate PR. Naming: most"
            + " resources are `${var.env}-<service>-<kind>`.\n"
            + "State: one GCS backend prefix per env.";
    Memory m = memory("Project rules in CONVENTIONS.md", "Project rules in CONVENTIONS.md", guide);

    String excerpt =
        Excerpts.of(
            m,
            QueryWords.terms(
                QueryWords.focus(
                    List.of(
                        "I want a reusable module for Memorystore Redis — what should it be"
                            + " called?"))));

    assertTrue(
        excerpt.startsWith("…`modules/` — reusable modules. Name them `modules/gcp-<thing>`"),
        "the matched rule, then the sentence naming the instance, which holds no asked word: "
            + excerpt);
    assertTrue(excerpt.endsWith("…"), excerpt);
    assertTrue(excerpt.length() <= Excerpts.MAX_EXCERPT_CHARS + 2, excerpt);
    assertFalse(excerpt.contains("State:"), "the next line is another block: " + excerpt);
  }

  @Test
  void theUnitsARunOpensWith_thatTheSummaryShows_areLeftOutOfItsExcerpt() {
    String summary =
        "Project rules in CONTRIBUTING.md (Repository layout; Branches; Commits; Releases):"
            + " Repository layout: `domain/` – pure Kotlin model.";
    String guide =
        summary
            + " `tools/` – CLI utilities (import scripts, load generators). Branches: `main` is"
            + " always deployable, and nobody pushes to it directly. Branch names are"
            + " `rk-<ticket>/<short-slug>`, lowercase, where the ticket is the number of the Linear"
            + " issue. No personal prefixes, no `feature/` or `fix/` prefixes. Delete your branch"
            + " after merge; GitHub does it automatically once the pull request is closed. Commits:"
            + " Conventional Commits with the module as scope, and a `Refs: RK-<ticket>` footer.";
    Memory m = memory("Project rules in CONTRIBUTING.md", summary, guide);

    String excerpt =
        Excerpts.of(
            m,
            QueryWords.terms(
                QueryWords.focus(List.of("commit this, it's the shift import thing"))));

    assertTrue(
        excerpt.startsWith("…`tools/` – CLI utilities (import scripts"),
        "the summary's list of sections, split at its semicolons, is not shown again for its"
            + " \"Commits;\": "
            + excerpt);
  }

  @Test
  void aRunThatOpensInTheSummary_stillCountsWhatTheSummaryShows_andShowsTheRest() {
    String content =
        resolved(
            pin(
                "grdb.swift",
                "https://github.com/groue/GRDB.swift.git",
                "2cf6c756e1e5ef6901ebae16576a7e4e4b834622",
                "6.29.1"),
            pin("swift-collections", null, null, "1.1.0"));
    String summary =
        "{ \"pins\" : [ { \"identity\" : \"grdb.swift\","
            + " \"location\" : \"https://github.com/groue/GRDB.swift.git\", \"state\" : {…";

    String excerpt =
        Excerpts.of(
            memory("Read Package.resolved", summary, content),
            QueryWords.terms(QueryWords.focus(List.of("which GRDB version are we pinned to?"))));

    assertTrue(
        excerpt.startsWith("…\"revision\"") && excerpt.contains("6.29.1"),
        "the package the summary names, read on where the summary stops: " + excerpt);
    assertFalse(excerpt.contains("1.1.0"), excerpt);
  }

  @Test
  void aLockFile_showsTheRunNamingThePackage_notTheFirstVersionLine() {
    String content =
        resolved(
            pin("alamofire", "https://github.com/Alamofire/Alamofire.git", null, "5.9.1"),
            pin("grdb.swift", "https://github.com/groue/GRDB.swift", null, "6.29.1"),
            pin("kingfisher", null, null, "7.12.0"));
    String excerpt =
        Excerpts.of(
            memory("Read Package.resolved", "Package.resolved: the resolved pins", content),
            QueryWords.terms(QueryWords.focus(List.of("which GRDB version are we pinned to?"))));
    assertTrue(excerpt.contains("6.29.1"), excerpt);
    assertFalse(excerpt.contains("5.9.1") || excerpt.contains("7.12.0"), excerpt);
    assertTrue(excerpt.startsWith("…") && excerpt.endsWith("…"), excerpt);
  }

  @Test
  void aBugReport_showsTheFixItsSummaryLeftOut() {
    String content =
        "Cause: with sql_package pgx/v5, sqlc maps nullable text columns to pgtype.Text, a struct"
            + " without a JSON marshaller. It started when 00039 made notes nullable.\n"
            + "Fix: set emit_pointers_for_null_types: true in sqlc.yaml, so nullable columns"
            + " become *string and marshal as null.\n"
            + "Then regenerate with sqlc generate.";
    Memory bug =
        memory(
            "Nullable columns serialize as objects",
            "Cause: with sql_package pgx/v5, sqlc maps nullable text columns to pgtype.Text, a"
                + " struct without a JSON marshaller.",
            content);
    String excerpt =
        Excerpts.of(
            bug,
            QueryWords.terms(
                QueryWords.focus(
                    List.of(
                        "the API shows a weird object with Valid false for a nullable column"))));
    assertEquals(
        "…Fix: set emit_pointers_for_null_types: true in sqlc.yaml, so nullable columns become"
            + " *string and marshal as null.…",
        excerpt);
  }

  @Test
  void noExcerpt_whenNoTermIsInTheContent_orTheSummaryAlreadyShowsIt() {
    Memory whole = memory("", "Deploys happen on Tuesdays.", "Deploys happen on Tuesdays.");
    assertEquals("", Excerpts.of(whole, QueryWords.terms("deploys tuesdays")));
    assertEquals("", Excerpts.of(whole, QueryWords.terms("kubernetes")));
    assertEquals("", Excerpts.of(whole, List.of()));
  }

  @Test
  void aExcerptAtTheStartOrEndOfTheContent_isMarkedOnlyWhereItIsCut() {
    Memory m = memory("", "About the cache", "The cache TTL is 300 seconds.\nRedis holds it.");
    assertEquals("The cache TTL is 300 seconds.…", Excerpts.of(m, QueryWords.terms("ttl")));
    assertEquals("…Redis holds it.", Excerpts.of(m, QueryWords.terms("redis")));
    Memory padded =
        memory("", "About the cache", "\n\n  The cache TTL is 300 seconds.\nRedis.\n\n");
    assertEquals(
        "The cache TTL is 300 seconds.…",
        Excerpts.of(padded, QueryWords.terms("ttl")),
        "blank lines around the content cut nothing");
    assertEquals("…Redis.", Excerpts.of(padded, QueryWords.terms("redis")));
  }

  static LongStream seeds() {
    return Seeds.seeds(20);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void anyContent_givesAExcerptOfBoundedLength_madeOfItsOwnText(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    String where = Seeds.replay(seed);
    int length = 1 + r.nextInt(r.nextBoolean() ? 2_000 : 100_000);
    String content = r.nextInt(4) == 0 ? "y".repeat(length) : HostileText.storable(r, length);
    Memory m = memory("", HostileText.storable(r, r.nextInt(200)), content);
    int from = r.nextInt(content.length());
    String focus = content.substring(from, Math.min(content.length(), from + 200));
    String excerpt = Excerpts.of(m, QueryWords.terms(focus));
    assertTrue(excerpt.length() <= Excerpts.MAX_EXCERPT_CHARS + 2, where);
    String bare = excerpt.replace("…", "");
    assertTrue(
        TextCuts.flat(content, Integer.MAX_VALUE).contains(bare) || content.contains("…"),
        "an excerpt is the content's own text, whitespace collapsed: " + where);
    for (int i = 0; i < bare.length(); i++) {
      assertFalse(
          Character.isHighSurrogate(bare.charAt(i))
              && (i + 1 == bare.length() || !Character.isLowSurrogate(bare.charAt(i + 1))),
          "no surrogate pair is split: " + where);
    }
  }
}
