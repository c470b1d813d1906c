package dev.memhook.core.internal.compress;

import static dev.memhook.core.internal.compress.CaptureFixtures.EDIT_INPUT;
import static dev.memhook.core.internal.compress.CaptureFixtures.SUREFIRE_FAILURE;
import static dev.memhook.core.internal.compress.CaptureFixtures.SUREFIRE_SUCCESS;
import static dev.memhook.core.internal.compress.CaptureFixtures.bash;
import static dev.memhook.core.internal.compress.CaptureFixtures.observation;
import static dev.memhook.core.internal.compress.CaptureFixtures.prompt;
import static dev.memhook.core.internal.compress.CaptureFixtures.session;
import static dev.memhook.core.internal.compress.CaptureFixtures.stored;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryType;
import dev.memhook.api.capture.Consolidation;
import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEventType;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What the heuristic consolidator distils from a realistic session. */
class HeuristicConsolidatorTest {

  private final HeuristicConsolidator consolidator = new HeuristicConsolidator();

  private final List<Memory> session =
      List.of(
          stored(
              prompt(
                  "p1",
                  "I prefer tabs over spaces. How do I run the tests? Use tabs. src/App.java."
                      + " Let me know when it is done.")),
          stored(
              prompt(
                  "p2",
                  "We decided to keep the parser hand-written. The staging database runs on"
                      + " port 5433. Fix the failing test in CalculatorTest.")),
          stored(bash("b1", "mvn test", SUREFIRE_FAILURE)),
          stored(
              observation(
                  "r1",
                  LifecycleEventType.POST_TOOL_USE,
                  EventData.tool("Read", "{\"file_path\":\"README.md\"}", "# calc"))),
          stored(
              observation(
                  "e1",
                  LifecycleEventType.POST_TOOL_USE,
                  EventData.tool("Edit", EDIT_INPUT, "ok"))),
          stored(bash("b2", "mvn test", SUREFIRE_SUCCESS)),
          stored(
              observation(
                  "a1",
                  LifecycleEventType.AGENT_RESPONSE,
                  EventData.message(
                      "Okay, the tests pass now. It turns out the sign was dropped by Math.abs"
                          + " in Calculator.add. Should I also update the README?"))));

  private List<Consolidation> consolidate(List<Memory> memories) {
    return consolidator.consolidate(session(), memories);
  }

  private static List<Consolidation> ofType(List<Consolidation> all, MemoryType type) {
    return all.stream().filter(c -> c.type() == type).toList();
  }

  private static List<String> ids(Consolidation c) {
    return c.sources().stream().map(MemoryId::value).toList();
  }

  @Test
  void preferencesAndDecisions_areAdmitted_withTheirPromptAsSource() {
    List<Consolidation> all = consolidate(session);

    List<Consolidation> preferences = ofType(all, MemoryType.PREFERENCE);
    assertEquals(1, preferences.size(), all.toString());
    assertEquals("I prefer tabs over spaces.", preferences.get(0).content());
    assertEquals("Preference: I prefer tabs over spaces", preferences.get(0).title());
    assertEquals(List.of("p1"), ids(preferences.get(0)));

    List<Consolidation> decisions = ofType(all, MemoryType.DECISION);
    assertEquals(1, decisions.size(), all.toString());
    assertEquals("We decided to keep the parser hand-written.", decisions.get(0).content());
    assertEquals(List.of("p2"), ids(decisions.get(0)));
  }

  @Test
  void statedFactsAndFindings_areFacts_butQuestionsFragmentsScaffoldingAndInstructionsAreNot() {
    List<String> facts =
        ofType(consolidate(session), MemoryType.FACT).stream().map(Consolidation::content).toList();

    assertEquals(
        List.of(
            "The staging database runs on port 5433.",
            "It turns out the sign was dropped by Math.abs in Calculator.add."),
        facts);
    Set<String> everything =
        consolidate(session).stream().map(Consolidation::content).collect(Collectors.toSet());
    for (String rejected :
        List.of(
            "How do I run the tests?",
            "Use tabs.",
            "src/App.java.",
            "Let me know when it is done.",
            "Okay, the tests pass now.",
            "Should I also update the README?",
            "Fix the failing test in CalculatorTest.")) {
      assertFalse(everything.contains(rejected), rejected);
    }
  }

  @Test
  void statementsOfWhatRecurs_arePatterns_fromTheUserAndTheAgent_withTheirSource() {
    List<Memory> habits =
        List.of(
            stored(
                prompt(
                    "p1",
                    "Whenever we change the schema, we regenerate the API client with make gen."
                        + " By convention every controller in this repo extends BaseController.")),
            stored(
                observation(
                    "a1",
                    LifecycleEventType.AGENT_RESPONSE,
                    EventData.message(
                        "Every time the cache is cleared, Gradle downloads all dependencies"
                            + " again."))));

    List<Consolidation> patterns = ofType(consolidate(habits), MemoryType.PATTERN);

    assertEquals(
        List.of(
            "Whenever we change the schema, we regenerate the API client with make gen.",
            "By convention every controller in this repo extends BaseController.",
            "Every time the cache is cleared, Gradle downloads all dependencies again."),
        patterns.stream().map(Consolidation::content).toList());
    assertEquals(
        List.of(List.of("p1"), List.of("p1"), List.of("a1")),
        patterns.stream().map(HeuristicConsolidatorTest::ids).toList());
    assertEquals(
        "Convention: Whenever we change the schema, we regenerate the API client with make gen",
        patterns.get(0).title());
    assertEquals(
        "Pattern: Every time the cache is cleared, Gradle downloads all dependencies again",
        patterns.get(2).title());
  }

  @Test
  void habitualWords_askedOrOfferedByTheAgent_areNoPattern_butAUsersStandingRulesAre() {
    List<Memory> turns =
        List.of(
            stored(
                prompt(
                    "p1",
                    "Every time you change the schema, regenerate the client. Do we always run"
                        + " the migrations first? We always use tabs in Java files.")),
            stored(
                observation(
                    "a1",
                    LifecycleEventType.AGENT_RESPONSE,
                    EventData.message(
                        "Whenever you are ready, I can run the whole test suite again."))));

    List<Consolidation> all = consolidate(turns);

    // the user's rules stand for every later session; the question and the agent's offer do not
    assertEquals(
        List.of(
            "Every time you change the schema, regenerate the client.",
            "We always use tabs in Java files."),
        all.stream().map(Consolidation::content).toList(),
        all.toString());
    assertEquals(
        List.of(List.of("p1"), List.of("p1")),
        all.stream().map(HeuristicConsolidatorTest::ids).toList());
  }

  @Test
  void errorFollowedByAPassingRunOfTheSameTests_isABug_linkedToFailureFixAndPass() {
    List<Consolidation> bugs = ofType(consolidate(session), MemoryType.BUG);

    assertEquals(1, bugs.size(), bugs.toString());
    Consolidation bug = bugs.get(0);
    // the agent's answer after the passing run explains the fix, and is a source of the bug
    assertEquals(List.of("p2", "b1", "e1", "b2", "a1"), ids(bug));
    // the turn's sentence reporting the problem, not its decision or its port
    assertEquals("Bug: Fix the failing test in CalculatorTest", bug.title());
    assertTrue(
        bug.content()
            .startsWith(
                "Reported: Fix the failing test in CalculatorTest. Cause and fix: It turns out the"
                    + " sign was dropped by Math.abs in Calculator.add. Failed run: Ran mvn test:"
                    + " 1 failure"),
        bug.content());
    assertTrue(
        bug.content().contains("Fix: edited /work/calc/src/main/java/dev/example/Calculator.java."),
        bug.content());
    assertTrue(bug.content().endsWith("Verified: Ran mvn test: 12 passed."), bug.content());
    assertTrue(bug.files().contains("CalculatorTest.java"), bug.files().toString());
    assertTrue(bug.concepts().contains("calculatortest"), bug.concepts().toString());
  }

  @Test
  void aReadOfTheProjectsConfiguration_isKeptAsAFactInWords_onceASession() {
    List<Memory> turns =
        List.of(
            stored(prompt("p1", "I just cloned this, check the setup for me")),
            stored(bash("c1", "cat .nvmrc", "{\"stdout\":\"20.11.1\\n\",\"stderr\":\"\"}")),
            stored(bash("c2", "ls", "{\"stdout\":\"README.md\\nsrc\\n\",\"stderr\":\"\"}")),
            stored(bash("c3", "cat .nvmrc", "{\"stdout\":\"20.11.1\\n\",\"stderr\":\"\"}")));

    List<Consolidation> facts = ofType(consolidate(turns), MemoryType.FACT);

    assertEquals(1, facts.size(), facts.toString());
    Consolidation pin = facts.get(0);
    assertEquals("Project setting: .nvmrc, the Node.js version", pin.title());
    assertEquals(
        "This project pins its Node.js runtime to version 20.11.1 (.nvmrc).", pin.content());
    assertEquals(List.of("c1", "c3"), ids(pin));
    assertTrue(pin.concepts().contains("node"), pin.concepts().toString());
  }

  @Test
  void aReadOfAFileTheSessionThenEdits_isRestatedAsTheEditLeftIt() {
    String editInput =
        "{\"file_path\":\"/work/calc/.nvmrc\",\"old_string\":\"20.11.1\",\"new_string\":\"22.2.0\"}";
    List<Memory> turns =
        List.of(
            stored(bash("c1", "cat .nvmrc", "{\"stdout\":\"20.11.1\\n\",\"stderr\":\"\"}")),
            stored(
                observation(
                    "e1",
                    LifecycleEventType.POST_TOOL_USE,
                    EventData.tool("Edit", editInput, "The file has been updated."))),
            stored(bash("c2", "cat .nvmrc", "{\"stdout\":\"22.2.0\\n\",\"stderr\":\"\"}")));

    List<Consolidation> facts = ofType(consolidate(turns), MemoryType.FACT);

    assertEquals(1, facts.size(), facts.toString());
    assertEquals(
        "This project pins its Node.js runtime to version 22.2.0 (.nvmrc).",
        facts.get(0).content());
    assertEquals(List.of("c1", "e1", "c2"), ids(facts.get(0)), "the read again merges with it");
  }

  @Test
  void aManifestRead_keepsItsSettingsAndItsDependenciesAsTwoFacts() {
    String read =
        "{\"stdout\":\"{\\\"name\\\": \\\"shop\\\", \\\"dependencies\\\": {\\\"next\\\":"
            + " \\\"14.2.4\\\"}}\",\"stderr\":\"\"}";

    List<Consolidation> facts =
        ofType(consolidate(List.of(stored(bash("c1", "cat package.json", read)))), MemoryType.FACT);

    assertEquals(
        List.of(
            "Settings in package.json: name: shop.",
            "Dependencies in package.json, with their versions: next 14.2.4."),
        facts.stream().map(Consolidation::content).toList());
  }

  @Test
  void aLongConfigurationRead_isRestatedInParts_theFirstStandingAboveTheRest() {
    StringBuilder file = new StringBuilder();
    String[] lines = {
      "quarkus.application.name=ratewire",
      "quarkus.http.port=8082",
      "quarkus.datasource.db-kind=postgresql",
      "quarkus.datasource.username=ratewire",
      "quarkus.datasource.jdbc.max-size=50",
      "quarkus.flyway.migrate-at-start=true",
      "kafka.bootstrap.servers=localhost:9092",
      "mp.messaging.outgoing.rate-updates.connector=smallrye-kafka",
      "mp.messaging.outgoing.rate-updates.topic=fx.rates.v2",
      "mp.messaging.outgoing.rate-updates.retries=3"
    };
    for (int i = 0; i < lines.length; i++) {
      file.append(String.format("%6d\t%s%n", i + 1, lines[i]));
    }

    List<Consolidation> facts =
        ofType(
            consolidate(
                List.of(
                    read(
                        "r1",
                        "/work/app/src/main/resources/application.properties",
                        file.toString()))),
            MemoryType.FACT);

    assertEquals(
        List.of(
            "Project setting: application.properties: quarkus",
            "Project setting: application.properties: quarkus 2, kafka",
            "Project setting: application.properties: mp",
            "Project setting: application.properties: mp 2"),
        facts.stream().map(Consolidation::title).toList());
    assertTrue(
        facts.get(0).content().contains("quarkus http port (quarkus.http.port): 8082"),
        facts.get(0).content());
    assertTrue(
        facts.get(2).content().contains("(mp.messaging.outgoing.rate-updates.topic): fx.rates.v2"),
        facts.get(2).content());
    assertEquals(
        List.of(
            0.55,
            SettingParts.LATER_PART_IMPORTANCE,
            SettingParts.LATER_PART_IMPORTANCE,
            SettingParts.LATER_PART_IMPORTANCE),
        facts.stream().map(Consolidation::importance).toList());
    for (Consolidation c : facts) {
      assertTrue(c.content().length() <= SettingParts.PART_CHARS, c.content());
      assertEquals(List.of("r1"), ids(c));
    }
  }

  @Test
  void aReadEditedInWaysThatCannotBeReplayed_isNotRestated_unlessTheEditsOnlyAdd() {
    String read =
        "{\"stdout\":\"FetchContent_Declare(fmt GIT_REPOSITORY https://github.com/fmtlib/fmt.git"
            + " GIT_TAG 10.2.1)\\nFetchContent_MakeAvailable(fmt)\\n\",\"stderr\":\"\"}";
    // the old text of each edit is not in what was read (the read was of an older state, or cut)
    String adds =
        "{\"file_path\":\"/work/app/cmake/deps.cmake\",\"old_string\":\"FetchContent_MakeAvailable(spdlog)\","
            + "\"new_string\":\"set(SPDLOG_FMT_EXTERNAL ON)\\nFetchContent_MakeAvailable(spdlog)\"}";
    String changes =
        "{\"file_path\":\"/work/app/cmake/deps.cmake\",\"old_string\":\"GIT_TAG 10.2.0\","
            + "\"new_string\":\"GIT_TAG 11.0.2\"}";
    String replayable =
        "{\"file_path\":\"/work/app/cmake/deps.cmake\",\"old_string\":\"GIT_TAG 10.2.1\","
            + "\"new_string\":\"GIT_TAG 11.0.2\"}";
    Memory cat = stored(bash("c1", "cat cmake/deps.cmake", read));

    assertEquals(
        List.of(
            "This project fetches these dependencies at pinned versions in deps.cmake: fmt version"
                + " 10.2.1."),
        facts(cat, "e1", adds),
        "an edit that only adds leaves every line read as it was");
    assertEquals(List.of(), facts(cat, "e2", changes), "what the file holds now is unknown");
    assertEquals(
        List.of(
            "This project fetches these dependencies at pinned versions in deps.cmake: fmt version"
                + " 11.0.2."),
        facts(cat, "e3", replayable));
  }

  /** The contents of the facts kept from {@code read} followed by one edit. */
  private List<String> facts(Memory read, String editId, String editInput) {
    return ofType(
            consolidate(
                List.of(
                    read,
                    stored(
                        observation(
                            editId,
                            LifecycleEventType.POST_TOOL_USE,
                            EventData.tool("Edit", editInput, "The file has been updated."))))),
            MemoryType.FACT)
        .stream()
        .map(Consolidation::content)
        .toList();
  }

  private static Memory answer(String id, String said) {
    return stored(observation(id, LifecycleEventType.AGENT_RESPONSE, EventData.message(said)));
  }

  private static Memory storeEdit(String id) {
    return stored(
        observation(
            id,
            LifecycleEventType.POST_TOOL_USE,
            EventData.tool(
                "Edit",
                "{\"file_path\":\"/w/src/lib/stores/cart.ts\",\"old_string\":\"a\",\"new_string\":\"b\"}",
                "The file has been updated.")));
  }

  @Test
  void aFixTheAgentLabelsAsAPractice_isAlsoKeptAsTheLessonOfTheBug() {
    List<Memory> turns =
        List.of(
            stored(prompt("p1", "a tester saw someone else's cart items after page load, weird")),
            answer(
                "a1",
                "Cause: `cart` is a module-level store shared by every request on the server.\n\n"
                    + "Fix: no module-level stores for per-user data. Create the store per request"
                    + " in the root layout and pass it down with `setContext`."),
            storeEdit("e1"),
            answer("a2", "Fixed: the cart store is now created per request with `setContext`."));

    List<Consolidation> found = consolidate(turns);

    List<Consolidation> lessons = ofType(found, MemoryType.PATTERN);
    assertEquals(1, lessons.size(), found.toString());
    assertEquals(
        "Lesson of a fixed bug: No module-level stores for per-user data. Create the store per"
            + " request in the root layout and pass it down with `setContext`.",
        lessons.get(0).content());
    assertEquals(
        "Convention: No module-level stores for per-user data. Create the store per request in the"
            + " root layout and pass it down with `setContext`",
        lessons.get(0).title());
    assertEquals(ids(ofType(found, MemoryType.BUG).get(0)), ids(lessons.get(0)));
  }

  @Test
  void twoFilesOfOneNameInTheProjectsDirectories_keepTheirOwnSettings_andTheirOwnEdits() {
    String editInput =
        "{\"file_path\":\"/work/calc/services/web/application.properties\","
            + "\"old_string\":\"server.port=8080\",\"new_string\":\"server.port=9090\"}";
    List<Memory> turns =
        List.of(
            read(
                "r1",
                "/work/calc/services/api/application.properties",
                "server.port=8080\nspring.application.name=orders-api\n"),
            read(
                "r2",
                "/work/calc/services/web/application.properties",
                "server.port=8080\nspring.application.name=orders-web\n"),
            stored(
                observation(
                    "e1",
                    LifecycleEventType.POST_TOOL_USE,
                    EventData.tool("Edit", editInput, "The file has been updated."))));

    List<Consolidation> facts = ofType(consolidate(turns), MemoryType.FACT);

    assertEquals(
        List.of(
            "Project setting: services/api/application.properties",
            "Project setting: services/web/application.properties"),
        facts.stream().map(Consolidation::title).toList());
    assertTrue(facts.get(0).content().contains("(server.port): 8080"), facts.get(0).content());
    assertEquals(List.of("r1"), ids(facts.get(0)), "the other file's edit is not this one's");
    assertTrue(facts.get(1).content().contains("(server.port): 9090"), facts.get(1).content());
    assertEquals(List.of("r2", "e1"), ids(facts.get(1)));
  }

  private static Memory read(String id, String path, String content) {
    return stored(
        observation(
            id,
            LifecycleEventType.POST_TOOL_USE,
            EventData.tool("Read", "{\"file_path\":\"" + path + "\"}", content)));
  }

  @Test
  void theRulesTheAgentToldAfterReadingTheContributingGuide_areKeptWithTheTaskThatNeededThem() {
    List<Memory> turns =
        List.of(
            stored(prompt("p1", "add a notes text column to stops")),
            read(
                "r1",
                "/w/app/CONTRIBUTING.md",
                "## Database migrations\nFile name: V<yyyyMMddHHmm>__<description>.sql"),
            answer(
                "a1",
                "Before writing it: CONTRIBUTING.md is strict about Flyway naming. Versioned"
                    + " migrations are `V<yyyyMMddHHmm>__<description>.sql` with the UTC creation"
                    + " time as the version, and merged migrations are never edited."),
            answer("a2", "Added the migration and mapped the column."));

    List<Consolidation> found = consolidate(turns);

    List<Consolidation> rules =
        ofType(found, MemoryType.PATTERN).stream()
            .filter(c -> c.content().startsWith("Project rules"))
            .toList();
    assertEquals(1, rules.size(), found.toString());
    assertEquals(
        "Project rules in CONTRIBUTING.md: CONTRIBUTING.md is strict about Flyway naming."
            + " Versioned migrations are `V<yyyyMMddHHmm>__<description>.sql` with the UTC creation"
            + " time as the version, and merged migrations are never edited. As the file writes"
            + " them: Database migrations: File name: V<yyyyMMddHHmm>__<description>.sql. (Read for"
            + " the task \"add a notes text column to stops\".)",
        rules.get(0).content());
    assertEquals(3, rules.get(0).sources().size(), "the task, the read and the answer");
  }

  @Test
  void aGuideTheAgentFollowedWithoutRetellingIt_isKeptFromItsOwnLines() {
    List<Memory> turns =
        List.of(
            stored(prompt("p1", "add the dbt staging side for klaviyo")),
            read(
                "r1",
                "/w/quarry/dbt/STYLE.md",
                "     1\t# dbt style guide (quarry)\n     2\t\n     3\t## Naming\n     4\t-"
                    + " Staging models: `stg_<source>__<entity>.sql`, **double underscore**"
                    + " between source and entity\n     5\t  (e.g. `stg_shopify__orders.sql`)."
                    + " Entity is plural.\n     6\t\n     7\t```sql\n     8\tselect 1\n"
                    + "     9\t```\n    10\t| layer | folder |\n    11\t## SQL\n    12\t- CTEs,"
                    + " not subqueries"),
            answer("a1", "Added `models/staging/klaviyo/` with two models. All 6 nodes pass."));

    List<Consolidation> rules =
        consolidate(turns).stream().filter(c -> c.content().startsWith("Project rules")).toList();

    assertEquals(1, rules.size(), rules.toString());
    assertEquals(
        "Project rules in STYLE.md (Naming; SQL): Naming: Staging models:"
            + " `stg_<source>__<entity>.sql`, double"
            + " underscore between source and entity (e.g. `stg_shopify__orders.sql`). Entity is"
            + " plural. SQL: CTEs, not subqueries. (Read for the task \"add the dbt staging side"
            + " for klaviyo\".)",
        rules.get(0).content(),
        "headings label the items; the title, code blocks, tables and bold marks are left out");
  }

  @Test
  void aGuidesWelcomeBeforeItsFirstSection_isLeftOut_andUnderlinedHeadingsAreSections() {
    String markdown =
        "# Contributing to routekeeper\n\nThanks for working on routekeeper. Read it once,"
            + " follow it always.\n\n## Branches\n- Branch names: `rk-<ticket>/<slug>`.\n\n"
            + "## Reviews\n- Two approvals before merge.";
    String rst =
        "Contributing to SoilSense firmware\n==================================\n\nWe follow"
            + " Zephyr's conventions where it makes sense.\n\nCommit messages\n"
            + "---------------\n\n* Use ``git commit -s``: every commit carries a"
            + " Signed-off-by line.\n\nKconfig\n-------\n\n* Prefix every symbol"
            + " ``SOILSENSE_``.";
    String itemsFirst = "# Style\n\n- Never push to main.\n\n## Naming\n- Tables in snake_case.";
    String task = "commit the LED patterns";
    String answer = "Committed the LED patterns.";

    assertEquals(
        "Project rules in CONTRIBUTING.md (Branches; Reviews): Branches: Branch names:"
            + " `rk-<ticket>/<slug>`. Reviews: Two approvals before merge. (Read for the task"
            + " \"commit the LED patterns\".)",
        rules(consolidate(guideThenAnswer(task, markdown, answer))));
    assertEquals(
        "Project rules in CONTRIBUTING.md (Commit messages; Kconfig): Commit messages: Use"
            + " ``git commit -s``: every commit carries a Signed-off-by line. Kconfig: Prefix every"
            + " symbol ``SOILSENSE_``. (Read for the task \"commit the LED patterns\".)",
        rules(consolidate(guideThenAnswer(task, rst, answer))),
        "reStructuredText's underlined headings are sections, its first the title");
    assertEquals(
        "Project rules in CONTRIBUTING.md: Never push to main. Naming: Tables in snake_case."
            + " (Read for the task \"commit the LED patterns\".)",
        rules(consolidate(guideThenAnswer(task, itemsFirst, answer))),
        "items before the first section are rules, and stay");
  }

  @Test
  void anAnswerThatOnlyRecapsTheWorkDoneByAGuide_letsTheGuideSayItsRules() {
    String guide =
        "# Contributing\n\n## Branches\n- Name branches `td-<ticket>/<slug>`, e.g.\n"
            + "  `td-377/fix-proration`.\n- Never commit to `main`.\n\n## Commits\n"
            + "- Format: `[TD-<ticket>] Summary`, e.g.\n  `[TD-377] Fix proration`\n"
            + "- One logical change per commit.";
    String task = "new ticket TD-391: staff notes on requests";
    List<Memory> recap =
        guideThenAnswer(
            task,
            guide,
            "Done, following CONTRIBUTING.md:\n\n- branch `td-391/notes`\n- migration with"
                + " `down()`, so it never breaks a rollback\n- committed as `[TD-391] Add notes`");
    List<Memory> told =
        guideThenAnswer(
            task, guide, "CONTRIBUTING.md is strict about commits: one logical change each.");

    assertEquals(
        "Project rules in CONTRIBUTING.md (Branches; Commits): Branches: Name branches"
            + " `td-<ticket>/<slug>`, e.g. `td-377/fix-proration`. Never commit to `main`."
            + " Commits: Format: `[TD-<ticket>] Summary`, e.g. `[TD-377] Fix proration`. One"
            + " logical change per commit. (Read for the task \"new ticket TD-391: staff notes on"
            + " requests\".)",
        rules(consolidate(recap)),
        "a wrapped item keeps the guide's own stop, and one that ends unmarked gets one");
    assertEquals(
        "Project rules in CONTRIBUTING.md: CONTRIBUTING.md is strict about commits: one logical"
            + " change each. As the file writes them: Branches: Name branches `td-<ticket>/<slug>`,"
            + " e.g. `td-377/fix-proration`. Never commit to `main`. Commits: Format:"
            + " `[TD-<ticket>] Summary`, e.g. `[TD-377] Fix proration`. One logical change per"
            + " commit. (Read for the task \"new ticket TD-391: staff notes on requests\".)",
        rules(consolidate(told)),
        "an answer that speaks of the rules says the ones the task needed first, then the"
            + " guide's own, for a later task that needs another section");
    List<Memory> toldInGerman =
        guideThenAnswer(
            "neues Ticket TD-391",
            guide,
            "Angelegt nach den Regeln aus CONTRIBUTING.md: ein Commit je Änderung.");
    assertEquals(
        "Project rules in CONTRIBUTING.md: Angelegt nach den Regeln aus CONTRIBUTING.md: ein Commit"
            + " je Änderung. As the file writes them: Branches: Name branches `td-<ticket>/<slug>`,"
            + " e.g. `td-377/fix-proration`. Never commit to `main`. Commits: Format:"
            + " `[TD-<ticket>] Summary`, e.g. `[TD-377] Fix proration`. One logical change per"
            + " commit. (Read for the task \"neues Ticket TD-391\".)",
        rules(consolidate(toldInGerman)),
        "an answer in another language that speaks of the rules is kept too");
  }

  @Test
  void aListingThatNamesTheGuide_isNoReadOfIt_theReadAfterItSaysTheRules() {
    List<Memory> turns =
        List.of(
            stored(prompt("p1", "we need a new crate for the fs backend, check the rules first")),
            stored(
                observation(
                    "g1",
                    LifecycleEventType.POST_TOOL_USE,
                    EventData.tool(
                        "Glob",
                        "{\"pattern\":\"*.md\"}",
                        "/w/tidepool/README.md\n/w/tidepool/CONTRIBUTING.md\n"
                            + "/w/tidepool/docs/architecture.md"))),
            read(
                "r1",
                "/w/tidepool/CONTRIBUTING.md",
                "# Contributing\n\n## New crates\n- Name crates `tp-<name>`.\n"
                    + "- Dependencies come from `[workspace.dependencies]`.\n"),
            answer("a1", "Created `crates/tp-store-fs`."));

    assertEquals(
        "Project rules in CONTRIBUTING.md: New crates: Name crates `tp-<name>`. Dependencies come"
            + " from `[workspace.dependencies]`. (Read for the task \"we need a new crate for the fs"
            + " backend, check the rules first\".)",
        rules(consolidate(turns)));
  }

  @Test
  void aGuideNamedForItsTopic_isARulesFile() {
    List<Memory> turns =
        List.of(
            stored(prompt("p1", "build the Profile screen, follow docs/compose-guidelines.md")),
            read(
                "r1",
                "/w/trailmark/docs/compose-guidelines.md",
                "# Compose guidelines\n\n1. Every screen has a stateless `XxxScreen`.\n"),
            answer("a1", "Profile screen done per the guidelines."));

    assertEquals(
        "Project rules in compose-guidelines.md: Every screen has a stateless `XxxScreen`. (Read"
            + " for the task \"build the Profile screen, follow docs/compose-guidelines.md\".)",
        rules(consolidate(turns)));
  }

  @Test
  void aLongGuide_namesEverySection_andLeavesNoHeadingWithNothingUnderIt() {
    String longItem =
        "Only renaming and casting in staging models "
            + "x".repeat(ProjectRules.MAX_WRITTEN_RULES - 60);
    List<Memory> longGuide =
        List.of(
            stored(prompt("p1", "add the staging models")),
            read(
                "r1",
                "/w/q/CONVENTIONS.md",
                "## Layers\n- "
                    + longItem
                    + "\n## Naming\n- Models are plural.\n## Error handling"),
            answer("a1", "Added the models."));
    List<Memory> shortGuide =
        List.of(
            stored(prompt("p1", "add the staging models")),
            read("r1", "/w/q/CONVENTIONS.md", "## Naming\n- Models are plural.\n## Error handling"),
            answer("a1", "Added the models."));

    String cut = rules(consolidate(longGuide));
    String whole = rules(consolidate(shortGuide));

    assertTrue(
        cut.startsWith(
            "Project rules in CONVENTIONS.md (Layers; Naming; Error handling): Layers: Only"
                + " renaming"),
        cut);
    assertFalse(cut.contains("Naming:"), "the second section does not fit: " + cut);
    assertEquals(
        "Project rules in CONVENTIONS.md (Naming; Error handling): Naming: Models are plural."
            + " (Read for the task \"add the staging models\".)",
        whole);
  }

  /**
   * A guide's later section is kept with its first: an injection shows the opening as the summary
   * and the section a later task asks about as its excerpt, so the Kconfig rule after a long commit
   * section must be in the memory.
   */
  @Test
  void aGuidesLaterSection_isKept_pastTheLengthOfAnAnswersRules() {
    StringBuilder commits = new StringBuilder("Commit messages\n---------------\n\n");
    for (int i = 0; i < 8; i++) {
      commits.append("* Commit rule ").append(i).append(": ").append("keep it tidy ".repeat(8));
      commits.append("\n");
    }
    String guide =
        "Contributing\n============\n\n"
            + commits
            + "\nKconfig\n-------\n\n* Every application symbol is prefixed ``SOILSENSE_``,"
            + " i.e. ``CONFIG_SOILSENSE_<AREA>_<NAME>``.\n";
    assertTrue(commits.length() > ProjectRules.MAX_RULES, "the first section alone is longer");

    String rules =
        rules(
            consolidate(
                List.of(
                    stored(prompt("p1", "commit the battery sampling")),
                    read("r1", "/w/fw/docs/contributing.rst", guide),
                    answer("a1", "Committed."))));

    assertTrue(
        rules.contains("Kconfig: Every application symbol is prefixed ``SOILSENSE_``"), rules);
    assertTrue(
        rules.startsWith("Project rules in contributing.rst (Commit messages; Kconfig):"), rules);
  }

  /** A task, a read of CONTRIBUTING.md holding {@code guide}, and the agent's answer. */
  private static List<Memory> guideThenAnswer(String task, String guide, String answer) {
    return List.of(
        stored(prompt("p1", task)),
        read("r1", "/w/tenantdesk/CONTRIBUTING.md", guide),
        answer("a1", answer));
  }

  private static String rules(List<Consolidation> found) {
    return found.stream()
        .map(Consolidation::content)
        .filter(c -> c.startsWith("Project rules"))
        .findFirst()
        .orElseThrow(() -> new AssertionError(found.toString()));
  }

  @Test
  void aLinterConfigurationThatIsADotfile_isARulesFileToo() {
    List<Memory> turns =
        List.of(
            stored(prompt("p1", "add a BlockCache class")),
            read("r1", "/w/cobble/.clang-tidy", "CheckOptions:\n  - key: PrivateMemberSuffix"),
            answer(
                "a1",
                "Worth knowing before writing it: `.clang-tidy` fails CI on naming. Private members"
                    + " take a trailing underscore (`PrivateMemberSuffix: _`)."));

    List<Consolidation> found = consolidate(turns);

    assertTrue(
        found.stream()
            .anyMatch(
                c ->
                    c.content()
                        .startsWith(
                            "Project rules in .clang-tidy: `.clang-tidy` fails CI on naming."
                                + " Private members take a trailing underscore")),
        found.toString());
  }

  @Test
  void anAnswerAfterReadingAnOrdinaryFile_orOneThatTellsNoRules_makesNoProjectRules() {
    List<Memory> turns =
        List.of(
            stored(prompt("p1", "what does the importer do?")),
            read("r1", "/w/app/README.md", "# Importer\nReads CSV files."),
            answer("a1", "It must read every CSV file in the inbox; the rules are in the README."),
            stored(prompt("p2", "and the lint setup?")),
            read("r2", "/w/app/.eslintrc.json", "{\"extends\": \"next\"}"),
            answer("a2", "It extends the next preset and adds nothing of its own."));

    List<Consolidation> found = consolidate(turns);

    assertTrue(
        found.stream().noneMatch(c -> c.content().startsWith("Project rules")), found.toString());
  }

  @Test
  void aFixTheAgentLabelsAsOneChange_makesNoLesson() {
    List<Memory> turns =
        List.of(
            stored(prompt("p1", "the packer crashes on a 1x256 texture")),
            answer(
                "a1",
                "Cause: the mip loop halves both sides with a bare shift, so 1 becomes 0.\n\n"
                    + "Fix: clamp each dimension at 1 before halving."),
            storeEdit("e1"),
            answer("a2", "Fixed: I clamped each dimension, and the texture now packs."));

    List<Consolidation> found = consolidate(turns);

    assertEquals(1, ofType(found, MemoryType.BUG).size(), found.toString());
    assertEquals(List.of(), ofType(found, MemoryType.PATTERN));
  }

  private static List<String> lessons(List<Consolidation> found) {
    return ofType(found, MemoryType.PATTERN).stream()
        .map(Consolidation::content)
        .filter(c -> c.startsWith("Lesson of a fixed bug: "))
        .map(c -> c.substring("Lesson of a fixed bug: ".length()))
        .toList();
  }

  @Test
  void aFixToldAsWhatTheCodeMustDo_isKeptAsALesson_andMakesTheAnswerADiagnosis() {
    List<Memory> turns =
        List.of(
            stored(prompt("p1", "I added a city filter store, but now every page is a 500 in dev")),
            answer(
                "a1",
                "It's the server render: Node has no `localStorage`. The store has to behave on"
                    + " the server too: read storage only when `browser` from `$app/environment`"
                    + " is true."),
            storeEdit("e1"),
            answer("a2", "Pages render again. The store now checks `browser` first."));

    List<Consolidation> found = consolidate(turns);

    assertEquals(1, ofType(found, MemoryType.BUG).size(), found.toString());
    assertEquals(
        List.of(
            "The store has to behave on the server too: read storage only when `browser` from"
                + " `$app/environment` is true."),
        lessons(found));
  }

  @Test
  void theRealFixSetAgainstAStopgap_andWhatSortsItOut_areLessons() {
    List<Memory> real =
        List.of(
            stored(prompt("p1", "ran it against all 900 hosts and it fell over halfway")),
            answer(
                "a1",
                "We spawn 900 ssh children at once and run out of file descriptors. Raising the"
                    + " ulimit would only move the cliff; the real fix is bounding concurrency:"
                    + " use `buffer_unordered(n)`."),
            storeEdit("e1"),
            answer("a2", "All 900 hosts checked with 32 in flight."));
    assertEquals(
        List.of("Bounding concurrency: use `buffer_unordered(n)`."), lessons(consolidate(real)));

    List<Memory> sorts =
        List.of(
            stored(prompt("p1", "the stop-status consumer keeps dying in dev")),
            answer(
                "a1",
                "Found it: the deserializer builds a bare `ObjectMapper()`. Using"
                    + " `jacksonObjectMapper()` plus `JavaTimeModule` sorts it."),
            storeEdit("e1"),
            answer("a2", "The consumer is up again."));
    assertEquals(
        List.of("Using `jacksonObjectMapper()` plus `JavaTimeModule` sorts it."),
        lessons(consolidate(sorts)));
  }

  @Test
  void aStepAPersonHasToTake_isNoLesson() {
    List<Memory> turns =
        List.of(
            stored(prompt("p1", "the importer keeps dying at night")),
            answer(
                "a1",
                "Found it: the cron job and the worker share one lock file. We have to restart"
                    + " the worker after the deploy. Only the lock path needs to change."),
            storeEdit("e1"),
            answer("a2", "I moved the lock file under /run/importer."));

    List<Consolidation> found = consolidate(turns);

    assertEquals(1, ofType(found, MemoryType.BUG).size(), found.toString());
    assertEquals(List.of(), lessons(found));
  }

  @Test
  void aReportedBug_leadsWithTheReportAndTheFix_beforeTheRuns() {
    List<Memory> turns =
        List.of(
            stored(prompt("p1", "The dashboard freezes on load. Also, rename the chart helper.")),
            stored(bash("b1", "mvn test", SUREFIRE_FAILURE)),
            stored(
                observation(
                    "a1",
                    LifecycleEventType.AGENT_RESPONSE,
                    EventData.message(
                        "The effect re-ran on every render; I memoised its options object."))),
            stored(bash("b2", "mvn test", SUREFIRE_SUCCESS)));

    Consolidation bug = ofType(consolidate(turns), MemoryType.BUG).get(0);

    assertEquals("Bug: The dashboard freezes on load", bug.title());
    assertTrue(
        bug.content()
            .startsWith(
                "Reported: The dashboard freezes on load. Cause and fix: The effect re-ran on"
                    + " every render; I memoised its options object. Failed run: Ran mvn test: 1"
                    + " failure"),
        bug.content());
    assertTrue(bug.content().endsWith("Verified: Ran mvn test: 12 passed."), bug.content());
    assertEquals(List.of("p1", "b1", "a1", "b2"), ids(bug));
  }

  @Test
  void aFixVerifiedByACheckersSuccessLine_isABug() {
    List<Memory> turns =
        List.of(
            stored(prompt("p1", "terraform apply fails: Error acquiring the state lock")),
            stored(
                bash(
                    "b1",
                    "terraform validate",
                    "Error: Error acquiring the state lock\nexit code 1\n")),
            stored(
                observation(
                    "a1",
                    LifecycleEventType.AGENT_RESPONSE,
                    EventData.message(
                        "A crashed CI run left a lock behind. I ran terraform force-unlock."))),
            stored(bash("b2", "terraform validate", "Success! The configuration is valid.\n")));

    List<Consolidation> bugs = ofType(consolidate(turns), MemoryType.BUG);

    assertEquals(1, bugs.size(), bugs.toString());
    assertTrue(
        bugs.get(0).content().contains("I ran terraform force-unlock."), bugs.get(0).content());
    assertTrue(
        bugs.get(0)
            .content()
            .contains(
                "Failed run: Ran terraform validate: exit code 1 (Error: Error acquiring the state"
                    + " lock). Verified"),
        "the failing run's error is said once: " + bugs.get(0).content());
    assertTrue(
        bugs.get(0).content().endsWith("Verified: Ran terraform validate."), bugs.get(0).content());
    assertEquals(List.of("p1", "b1", "a1", "b2"), ids(bugs.get(0)));
  }

  @Test
  void theFailedCommandRunAgainWithoutItsFailure_verifiesTheFix() {
    List<Memory> turns =
        List.of(
            stored(prompt("p1", "the docs deploy failed")),
            stored(
                bash(
                    "b1",
                    "node scripts/check-links.js",
                    "FAIL (1 failure)\nbroken link /guides/setup in docs/guides/webhooks.md\n")),
            stored(
                observation(
                    "a1",
                    LifecycleEventType.AGENT_RESPONSE,
                    EventData.message(
                        "The page /guides/setup was renamed. I pointed the link to"
                            + " /guides/installation."))),
            stored(
                bash(
                    "b2",
                    "node scripts/check-links.js",
                    "checked 214 links in 63 pages\nall links ok\n")));

    List<Consolidation> bugs = ofType(consolidate(turns), MemoryType.BUG);

    assertEquals(1, bugs.size(), bugs.toString());
    assertTrue(
        bugs.get(0).content().startsWith("Reported: the docs deploy failed."),
        bugs.get(0).content());
    assertTrue(bugs.get(0).content().contains("/guides/installation"), bugs.get(0).content());
    assertTrue(
        bugs.get(0)
            .content()
            .endsWith("Verified: Ran node scripts/check-links.js, without the failure."),
        bugs.get(0).content());
    assertEquals(List.of("p1", "b1", "a1", "b2"), ids(bugs.get(0)));
  }

  @Test
  void anotherCommand_aSilentRerun_orTheSameFailureAgain_verifyNothing() {
    String failing = "FAIL (1 failure)\nbroken link /guides/setup\n";
    for (Memory after :
        List.of(
            stored(bash("b2", "ls docs", "guides\nreference\n")),
            stored(bash("b2", "node scripts/check-links.js", "")),
            stored(bash("b2", "node scripts/check-links.js", failing)))) {
      List<Memory> turns =
          List.of(
              stored(prompt("p1", "the docs deploy failed")),
              stored(bash("b1", "node scripts/check-links.js", failing)),
              after);

      assertEquals(
          List.of(),
          ofType(consolidate(turns), MemoryType.BUG),
          "no fix is verified by " + after.content());
    }
  }

  @Test
  void aDecisionInTheReportingTurn_isNotPartOfTheReport() {
    List<Memory> turns =
        List.of(
            stored(
                prompt(
                    "p1",
                    "We decided to keep money as long cents, never double. Money.add still goes"
                        + " through double; please fix it.")),
            stored(bash("b1", "mvn test", SUREFIRE_FAILURE)),
            stored(
                observation(
                    "a1",
                    LifecycleEventType.AGENT_RESPONSE,
                    EventData.message(
                        "The parse rounded through double; I parse with BigDecimal."))),
            stored(bash("b2", "mvn test", SUREFIRE_SUCCESS)));

    List<Consolidation> out = consolidate(turns);
    Consolidation bug = ofType(out, MemoryType.BUG).get(0);

    assertTrue(
        bug.content().startsWith("Reported: Money.add still goes through double"), bug.content());
    assertFalse(bug.content().contains("We decided"), bug.content());
    assertEquals(1, ofType(out, MemoryType.DECISION).size(), out.toString());

    List<Memory> recurring =
        List.of(
            stored(prompt("p1", "the browser console shows CORS errors on every request")),
            stored(bash("b1", "mvn test", SUREFIRE_FAILURE)),
            stored(bash("b2", "mvn test", SUREFIRE_SUCCESS)));
    assertTrue(
        ofType(consolidate(recurring), MemoryType.BUG)
            .get(0)
            .content()
            .startsWith("Reported: the browser console shows CORS errors on every request."),
        "a report of something that recurs is still the report");
  }

  @Test
  void aBugWhoseTurnReportsNoProblem_isNamedByItsFailingRun() {
    List<Memory> turns =
        List.of(
            stored(prompt("p1", "Rename getCart to loadCart everywhere. I prefer short names.")),
            stored(bash("b1", "mvn test", SUREFIRE_FAILURE)),
            stored(
                observation(
                    "a1",
                    LifecycleEventType.AGENT_RESPONSE,
                    EventData.message("Found it: a test still called getCart. I renamed it."))),
            stored(bash("b2", "mvn test", SUREFIRE_SUCCESS)));

    List<Consolidation> bugs = ofType(consolidate(turns), MemoryType.BUG);

    assertEquals(1, bugs.size(), bugs.toString());
    assertEquals("Bug: Ran mvn test: 1 failure", bugs.get(0).title());
    assertTrue(bugs.get(0).content().startsWith("Symptom: "), bugs.get(0).content());
    assertEquals(List.of("b1", "a1", "b2"), ids(bugs.get(0)));
  }

  @Test
  void failureNeverFixed_isNoBug() {
    List<Memory> unfixed = session.subList(0, 5);
    assertEquals(List.of(), ofType(consolidate(unfixed), MemoryType.BUG));
  }

  @Test
  void buildCommandsThatPassed_areAWorkflow() {
    List<Consolidation> workflows = ofType(consolidate(session), MemoryType.WORKFLOW);
    assertEquals(1, workflows.size(), workflows.toString());
    assertEquals(
        "To build and test, run mvn test. It passed: Ran mvn test: 12 passed.",
        workflows.get(0).content());
    assertEquals(List.of("b2"), ids(workflows.get(0)));
  }

  @Test
  void aCheckChainedAfterGit_orAnAliasOfABuildTool_isAWorkflow() {
    List<String> chained =
        workflows(
            "git pull -q && cargo xtask ci 2>&1 | tail -3",
            "[xtask] cargo test --workspace ... ok (212 passed, 3 ignored)");
    List<String> alias =
        workflows("mix precommit", "Finished in 3.2 seconds\\n142 tests, 0 failures");
    List<String> goTests =
        workflows(
            "make lint && make test", "ok  \\tgithub.com/acme/billing/internal/http\\t1.402s");

    assertEquals(
        List.of(
            "To build and test, run git pull -q && cargo xtask ci 2>&1 | tail -3. It passed: Ran git"
                + " pull -q && cargo xtask ci 2>&1 | tail -3: 212 passed."),
        chained);
    assertEquals(
        List.of("To build and test, run mix precommit. It passed: Ran mix precommit: 142 passed."),
        alias);
    assertEquals(
        List.of(
            "To build and test, run make lint && make test. It passed: Ran make lint && make test:"
                + " 1 passed."),
        goTests);
  }

  /** The workflows of a session whose one shell run printed {@code stdout} (JSON-escaped). */
  private List<String> workflows(String command, String stdout) {
    String output = "{\"stdout\":\"" + stdout + "\",\"stderr\":\"\"}";
    return ofType(consolidate(List.of(stored(bash("b1", command, output)))), MemoryType.WORKFLOW)
        .stream()
        .map(Consolidation::content)
        .toList();
  }

  @Test
  void aReleasingGuide_isARulesFile() {
    List<Memory> turns =
        List.of(
            stored(prompt("p1", "let's release v0.8.0, how did it go again?")),
            read(
                "r1",
                "/w/tidepool/RELEASING.md",
                "# Releasing\n\n1. Run the full local check: `cargo xtask ci`.\n"
                    + "2. Generate the changelog: `git cliff --tag vX.Y.Z -o CHANGELOG.md`.\n"),
            answer("a1", "v0.8.0 is tagged and pushed."));

    assertEquals(
        "Project rules in RELEASING.md: Run the full local check: `cargo xtask ci`. Generate the"
            + " changelog: `git cliff --tag vX.Y.Z -o CHANGELOG.md`. (Read for the task \"let's"
            + " release v0.8.0, how did it go again?\".)",
        rules(consolidate(turns)));
  }

  @Test
  void everyConsolidation_hasSources_amongTheGivenObservations_andNoObservationType() {
    Set<MemoryId> given = session.stream().map(Memory::id).collect(Collectors.toSet());
    List<Consolidation> all = consolidate(session);
    assertFalse(all.isEmpty());
    for (Consolidation c : all) {
      assertFalse(c.sources().isEmpty(), c.toString());
      assertTrue(given.containsAll(c.sources()), c.toString());
      assertTrue(c.title().length() <= 200 && !c.title().isBlank(), c.toString());
    }
  }

  @Test
  void repeatedPreference_isMergedIntoOne_withBothSources() {
    List<Memory> twice =
        List.of(
            stored(prompt("p1", "Always use tabs for indentation in Java files.")),
            stored(prompt("p2", "Please use tabs for indentation in Java files, always.")));
    List<Consolidation> preferences = ofType(consolidate(twice), MemoryType.PREFERENCE);
    assertEquals(1, preferences.size(), preferences.toString());
    assertEquals(List.of("p1", "p2"), ids(preferences.get(0)));
  }

  @Test
  void sessionSummary_saysHowItBegan_countsByKind_filesEdited_andTheFinalTestState() {
    assertEquals(
        "Began with: \"I prefer tabs over spaces. How do I run the tests? Use tabs. src/App.java."
            + " Let me know when it is done.\". 7 observations: 1 file edit, 1 file read,"
            + " 2 test runs, 1 decision, 1 discovery, 1 preference."
            + " Files edited: /work/calc/src/main/java/dev/example/Calculator.java."
            + " Tests at the end: passing (Ran mvn test: 12 passed).",
        HeuristicConsolidator.summarize(session(), session));
  }

  private static Memory agent(String id, String said) {
    return stored(observation(id, LifecycleEventType.AGENT_RESPONSE, EventData.message(said)));
  }

  private static Memory edit(String id) {
    return stored(
        observation(
            id, LifecycleEventType.POST_TOOL_USE, EventData.tool("Edit", EDIT_INPUT, "ok")));
  }

  @Test
  void aBugsCauseAndFix_explainedAfterThePassingRun_isKeptWithIt() {
    List<Consolidation> bugs =
        ofType(
            consolidate(
                List.of(
                    stored(prompt("p1", "the checkout total shows NaN for some carts")),
                    stored(bash("b1", "mvn test", SUREFIRE_FAILURE)),
                    edit("e1"),
                    stored(bash("b2", "mvn test", SUREFIRE_SUCCESS)),
                    agent(
                        "a1",
                        "Found it: the API sends unitPrice but the total read price. I changed"
                            + " it to unitPrice."))),
            MemoryType.BUG);
    assertEquals(1, bugs.size(), bugs.toString());
    assertTrue(
        bugs.get(0)
            .content()
            .contains("Cause and fix: Found it: the API sends unitPrice but the total read price."),
        bugs.get(0).content());
    assertTrue(ids(bugs.get(0)).contains("a1"), ids(bugs.get(0)).toString());
  }

  @Test
  void aReportedProblemFixedByEdits_withoutAFailingRun_isABug_withReportCauseAndEdits() {
    List<Consolidation> bugs =
        ofType(
            consolidate(
                List.of(
                    stored(
                        prompt(
                            "p1",
                            "on android the keyboard covers the amount field, you can't see"
                                + " what you type. ios is fine")),
                    edit("e1"),
                    agent(
                        "a1",
                        "Two settings were fighting: the manifest used adjustPan. I set"
                            + " adjustResize instead."),
                    stored(prompt("p2", "works now, thanks")))),
            MemoryType.BUG);
    assertEquals(1, bugs.size(), bugs.toString());
    Consolidation bug = bugs.get(0);
    assertEquals(List.of("p1", "e1", "a1"), ids(bug));
    assertTrue(
        bug.content()
            .startsWith(
                "Reported: on android the keyboard covers the amount field, you can't see what"
                    + " you type. Cause and fix: Two settings were fighting"),
        bug.content());
    assertTrue(bug.content().contains("Fix: edited "), bug.content());
  }

  @Test
  void aReportThatOnlyExclaims_isReportedByTheWordsAroundThePaste() {
    List<Consolidation> kept =
        consolidate(
            List.of(
                stored(
                    prompt(
                        "p1",
                        "native build is done, starts in 40ms, BUT:\n\n$ curl -s"
                            + " localhost:8082/v1/rates | jq\n{\n  \"items\": [{}, {}]\n}\n\nin"
                            + " JVM mode the same call returns full objects. wtf")),
                edit("e1"),
                agent(
                    "a1",
                    "A native-image reflection problem: RateView is not registered. Added"
                        + " @RegisterForReflection to it.")));

    List<Consolidation> bugs = ofType(kept, MemoryType.BUG);
    assertEquals(1, bugs.size(), kept.toString());
    assertTrue(
        bugs.get(0)
            .content()
            .startsWith(
                "Reported: native build is done, starts in 40ms, BUT. in JVM mode the same call"
                    + " returns full objects. wtf. Cause and fix: A native-image reflection"),
        bugs.get(0).content());
    assertEquals(List.of(), ofType(kept, MemoryType.FACT), "the report's context is no fact");
  }

  @Test
  void aRecommendedOptionTheAgentCarriedOutAfterAnAcknowledgement_isTheDecision() {
    String offer =
        "Options:\n1. **Prisma**: great DX.\n2. **Drizzle ORM**: native drivers for both.\n\n"
            + "I'd pick Drizzle: it fits both drivers and gives us migrations.";
    // the user's "that" between the two answers is an acknowledgement, stored as no observation
    List<Consolidation> carried =
        ofType(
            consolidate(
                List.of(
                    stored(prompt("p1", "we need a real db layer, what would you use?")),
                    agent("a1", offer),
                    edit("e1"),
                    agent("a2", "Drizzle is set up: schema, client and a baseline migration."))),
            MemoryType.DECISION);
    List<Consolidation> onlyAnswered =
        ofType(
            consolidate(
                List.of(
                    stored(prompt("p1", "we need a real db layer, what would you use?")),
                    agent("a1", offer),
                    agent("a2", "Drizzle is stable; it is at 0.30 and widely used."))),
            MemoryType.DECISION);

    assertEquals(
        List.of("Chose Drizzle: it fits both drivers and gives us migrations."),
        carried.stream().map(Consolidation::content).toList());
    assertEquals(List.of("a1", "a2"), ids(carried.get(0)));
    assertEquals(List.of(), onlyAnswered, "no edit: the reply between was a question");
    assertNull(
        OfferedChoices.carriedOut(offer, "Prisma is set up instead, as you asked."),
        "an answer that names another option carried out no recommendation");
  }

  @Test
  void aRequestMadeToHoldFromNowOn_isADecision_withWhatTheAgentDid() {
    List<Consolidation> decisions =
        ofType(
            consolidate(
                List.of(
                    stored(
                        prompt(
                            "p1",
                            "move the recon job to half past four utc instead. and fyi thats the"
                                + " official time from now on")),
                    edit("e1"),
                    agent(
                        "a1",
                        "Moved it: `cron(run_reconciliation, hour=4, minute=30)` in"
                            + " `app/worker.py`."),
                    stored(prompt("p2", "add a test for the csv export")),
                    agent("a2", "Added `test_export_csv`."))),
            MemoryType.DECISION);

    assertEquals(1, decisions.size(), decisions.toString());
    assertEquals(
        "Move the recon job to half past four utc instead. Thats the official time from now on."
            + " Done: Moved it: `cron(run_reconciliation, hour=4, minute=30)` in `app/worker.py`.",
        decisions.get(0).content());
    assertEquals(List.of("p1", "a1"), ids(decisions.get(0)));
    assertTrue(decisions.get(0).corrects(), "what holds from now on replaces what held before");
  }

  @Test
  void aBugsExplanation_leavesOutLeadInsRunStatusAndThePastedTrace() {
    List<Consolidation> bugs =
        ofType(
            consolidate(
                List.of(
                    stored(
                        prompt(
                            "p1",
                            "GET /invoices/7 returns 500 since the line items change went in."
                                + " traceback:\n  File \"app/api/routes/invoices.py\", line 48,"
                                + " in get_invoice\nsqlalchemy.exc.MissingGreenlet:"
                                + " greenlet_spawn has not been called (Background on this error"
                                + " at: https://sqlalche.me/e/20/xd2s)")),
                    edit("e1"),
                    agent(
                        "a1",
                        "Two things combine here:\n\n1. **Lazy loading in async.**"
                            + " `Invoice.line_items` is a lazy relationship.\n\nFix:\n- eager-load"
                            + " it with `selectinload(Invoice.line_items)`\n\nFixed, full suite"
                            + " green (96 passed)."))),
            MemoryType.BUG);

    assertEquals(1, bugs.size(), bugs.toString());
    assertEquals(
        "Reported: GET /invoices/7 returns 500 since the line items change went in. Cause and"
            + " fix: Lazy loading in async. Fix: eager-load it with"
            + " `selectinload(Invoice.line_items)`. `Invoice.line_items` is a lazy relationship."
            + " Fix: edited /work/calc/src/main/java/dev/example/Calculator.java.",
        bugs.get(0).content());
  }

  @Test
  void aReplyChoosingAnOfferedOption_isOneDecision_withItsReason() {
    List<Consolidation> all =
        consolidate(
            List.of(
                stored(prompt("p1", "the schema is created by ddl-auto, let's add migrations")),
                agent("a1", "The two usual choices are Flyway (plain SQL) and Liquibase (YAML)."),
                stored(prompt("p2", "flyway. the team reads SQL fine and nobody reviews yaml"))));
    List<Consolidation> decisions = ofType(all, MemoryType.DECISION);
    assertEquals(1, decisions.size(), all.toString());
    assertEquals(
        "Chose Flyway: the team reads SQL fine and nobody reviews yaml.",
        decisions.get(0).content());
    assertTrue(
        all.stream()
            .noneMatch(c -> c.type() != MemoryType.DECISION && c.content().contains("yaml")),
        "the reason is not kept apart from the choice: " + all);
  }

  /** The bugs of one turn: {@code report} as prompt p1, an edit e1, then answers a1, a2, …. */
  private List<Consolidation> bugsOfTurn(String report, String... answers) {
    List<Memory> turn = new ArrayList<>(List.of(stored(prompt("p1", report)), edit("e1")));
    for (int i = 0; i < answers.length; i++) {
      turn.add(agent("a" + (i + 1), answers[i]));
    }
    return ofType(consolidate(turn), MemoryType.BUG);
  }

  @Test
  void anAnswerOpeningWithTheChangeMade_explainsTheFix() {
    List<Consolidation> bugs =
        bugsOfTurn(
            "crash when I tap a reminder notification while the app is backgrounded",
            "Marked NotificationRouter @MainActor so the delegate callback hops to the main thread"
                + " before touching navigation.");
    assertEquals(1, bugs.size(), bugs.toString());
    assertTrue(bugs.get(0).content().contains("@MainActor"), bugs.get(0).content());
  }

  /**
   * The user's "yep" after the fix is noise and not stored, so the agent's pleasantry that answered
   * it follows the explaining answer directly; it does not take that answer's place.
   */
  @Test
  void aPleasantryAfterTheExplainingAnswer_leavesTheBugItsCause() {
    List<Consolidation> bugs =
        bugsOfTurn(
            "CI for the web app is flaky, every other run dies with Module not found: Can't"
                + " resolve '@acme/ui'",
            "The build task had no dependsOn, so web built in parallel with ui. I added dependsOn"
                + " ^build.",
            "Let me know if anything else comes up.");
    assertEquals(1, bugs.size(), bugs.toString());
    assertEquals(List.of("p1", "e1", "a1"), ids(bugs.get(0)));
    assertTrue(bugs.get(0).content().contains("I added dependsOn ^build."), bugs.get(0).content());
  }

  /**
   * A problem the user relays ("got a report that …", "how is that even possible") names no failure
   * word of its own; the agent's diagnosis and the edits after it make the turn a bug all the same.
   */
  @Test
  void aRelayedReport_fixedByEditsAfterTheDiagnosis_isABug() {
    List<Consolidation> bugs =
        ofType(
            consolidate(
                List.of(
                    stored(
                        prompt(
                            "p1",
                            "got a report that two members ended up with the same plot for the same"
                                + " saturday slot. how is that even possible")),
                    agent(
                        "a1",
                        "Found it. create_booking checks then inserts, and the bookings table has"
                            + " no unique index on (plot_id, slot_start), so two requests both"
                            + " insert."),
                    edit("e1"),
                    agent(
                        "a2",
                        "Fixed. The migration adds a unique index and the changeset a"
                            + " unique_constraint."),
                    stored(prompt("p2", "nice, ship it")))),
            MemoryType.BUG);
    assertEquals(1, bugs.size(), bugs.toString());
    Consolidation bug = bugs.get(0);
    assertEquals(List.of("p1", "a1", "e1", "a2"), ids(bug));
    assertTrue(
        bug.content()
            .startsWith(
                "Reported: got a report that two members ended up with the same plot for the same"
                    + " saturday slot."),
        bug.content());
    assertTrue(bug.content().contains("unique_constraint"), bug.content());
  }

  /**
   * The agent often finds the cause in the reporting turn and fixes it in the next, after the user
   * says "fix it": one bug, its cause from the diagnosis, its fix from the answer after the edit.
   */
  @Test
  void aCauseFoundBeforeTheUserSaysFixIt_andTheFixThatFollows_areOneBug() {
    List<Consolidation> bugs =
        ofType(
            consolidate(
                List.of(
                    stored(
                        prompt(
                            "p1",
                            "support says a member got +500 but there's no ledger entry. the"
                                + " ledger insert threw a constraint violation but the balance"
                                + " update stayed.")),
                    agent(
                        "a1",
                        "That's the cause. @Transactional works through a proxy, and applyCredit"
                            + " is private and called from credit, so no transaction is opened."),
                    stored(prompt("p2", "ugh classic. fix it")),
                    edit("e1"),
                    agent(
                        "a2",
                        "Moved @Transactional to the public credit method so the proxy wraps"
                            + " it."))),
            MemoryType.BUG);
    assertEquals(1, bugs.size(), bugs.toString());
    Consolidation bug = bugs.get(0);
    assertEquals(List.of("p1", "a1", "e1", "a2"), ids(bug));
    assertTrue(
        bug.content()
            .startsWith(
                "Reported: the ledger insert threw a constraint violation but the balance update"
                    + " stayed. Cause and fix: @Transactional works through a proxy, and"
                    + " applyCredit is private"),
        bug.content());
    assertTrue(bug.content().contains("Moved @Transactional to the public credit"), bug.content());
  }

  @Test
  void aNewRequestAfterTheDiagnosis_isNoGoAhead_soNoBugJoinsTheTwoTurns() {
    List<Consolidation> bugs =
        ofType(
            consolidate(
                List.of(
                    stored(prompt("p1", "the ledger insert threw a constraint violation")),
                    agent("a1", "The cause is a missing transaction around applyCredit."),
                    stored(prompt("p2", "ok, first rename applyCredit to creditBalance please")),
                    edit("e1"),
                    agent("a2", "I renamed it everywhere."))),
            MemoryType.BUG);
    assertEquals(List.of(), bugs);
  }

  /**
   * The user reports in one message and says what the fix needs in the next, in whose turn the run
   * fails: the report is the earlier message, not the one of the failure's turn.
   */
  @Test
  void aReportOneMessageBeforeTheFailingTurn_isTheBugsReport() {
    List<Consolidation> bugs =
        ofType(
            consolidate(
                List.of(
                    stored(
                        prompt(
                            "p1",
                            "the daily peak table is wrong for the 2023 flood, the peak shows on"
                                + " aug 8 instead of aug 9")),
                    agent("a0", "The peaks are computed on UTC days."),
                    stored(
                        prompt(
                            "p2",
                            "the hydrologists define the day as local time, so convert before"
                                + " resampling")),
                    stored(bash("b1", "mvn test", SUREFIRE_FAILURE)),
                    edit("e1"),
                    stored(bash("b2", "mvn test", SUREFIRE_SUCCESS)),
                    agent(
                        "a1",
                        "Fixed: daily peaks now convert to Europe/Oslo before they"
                            + " resample."))),
            MemoryType.BUG);
    assertEquals(1, bugs.size(), bugs.toString());
    assertEquals(
        "Bug: the daily peak table is wrong for the 2023 flood, the peak shows on aug 8 instead"
            + " of aug 9",
        bugs.get(0).title());
    assertEquals("p1", ids(bugs.get(0)).get(0));
  }

  @Test
  void aTaskDoneByEdits_orAProblemAnsweredWithoutAnEdit_isNoBug() {
    List<Consolidation> all =
        consolidate(
            List.of(
                stored(prompt("p1", "make the empty state on the list friendlier")),
                edit("e1"),
                agent("a1", "I changed the copy and added an illustration."),
                stored(prompt("p2", "the build is slow on CI")),
                agent("a2", "It is slow because the dependency cache is off."),
                stored(prompt("p3", "the login page is broken on Safari")),
                edit("e2"),
                agent("a3", "Done.")));
    assertEquals(List.of(), ofType(all, MemoryType.BUG), all.toString());
  }

  /**
   * A bug's summary is its opening sentences: the sentence that tells the fix follows the cause,
   * ahead of the explanation the agent gave between them.
   */
  @Test
  void theFixSentence_followsTheCause_soTheSummaryCarriesBoth() {
    List<Consolidation> bugs =
        ofType(
            consolidate(
                List.of(
                    stored(prompt("p1", "the packer crashes with SIGFPE on a 1x256 strip texture")),
                    stored(bash("b1", "mvn test", SUREFIRE_FAILURE)),
                    agent(
                        "a1",
                        "Cause: the mip chain halves width and height with a bare shift. For a"
                            + " 1x256 strip the width reaches 0 while the height is still 128."
                            + " The aspect division then divides by zero. Fix: clamp each side at"
                            + " 1 with std::max(1u, w >> 1)."),
                    edit("e1"),
                    stored(bash("b2", "mvn test", SUREFIRE_SUCCESS)))),
            MemoryType.BUG);
    assertEquals(1, bugs.size(), bugs.toString());
    assertTrue(
        bugs.get(0)
            .content()
            .contains(
                "Cause and fix: Cause: the mip chain halves width and height with a bare shift."
                    + " Fix: clamp each side at 1 with std::max(1u, w >> 1). For a 1x256 strip"),
        bugs.get(0).content());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // the change follows the first sentence, the rest keep their order
        "Found it: rows stay open. The pool runs dry after a while. Added a deferred close.|Found it:"
            + " rows stay open. Added a deferred close. The pool runs dry after a while.",
        "The list lived on the fragment. Rotation destroyed it. I moved it into the view model.|The"
            + " list lived on the fragment. I moved it into the view model. Rotation destroyed it.",
        // already second, or no sentence telling a change: as it was
        "The month was cut in UTC. Fixed: it uses the local zone now. A test covers it.|The month was"
            + " cut in UTC. Fixed: it uses the local zone now. A test covers it.",
        "The proxy only sees public calls. Self-invocation skips it. That is the cause.|The proxy only"
            + " sees public calls. Self-invocation skips it. That is the cause.",
        // a sentence named the cause leads, the change follows it
        "Reproduced: the marker never shows up. Cause: the handle is opened once. It keeps the old"
            + " file. Fix: reopen on rotation.|Cause: the handle is opened once. Fix: reopen on"
            + " rotation. Reproduced: the marker never shows up. It keeps the old file.",
        "Found it. The root cause was a shared cache key. I added the environment to it.|The root"
            + " cause was a shared cache key. I added the environment to it. Found it.",
        "Fixed: the key includes the env. The problem was that the cache ignored it.|The problem was"
            + " that the cache ignored it. Fixed: the key includes the env.",
        // a sentence saying the problem is gone is no cause
        "Rows stayed open. The problem is fixed now.|Rows stayed open. The problem is fixed now.",
      })
  void causeThenFix_leadsWithTheNamedCause_thenTheFirstChange(String explained, String expected) {
    assertEquals(expected, HeuristicConsolidator.causeThenFix(explained));
  }
}
