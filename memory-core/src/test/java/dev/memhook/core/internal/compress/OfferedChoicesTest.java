package dev.memhook.core.internal.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.memhook.api.MemoryType;
import org.junit.jupiter.api.Test;

class OfferedChoicesTest {

  @Test
  void aShortReplyNamingAnOfferedOption_isTheDecision() {
    String offer =
        "The two usual choices are Flyway (plain versioned SQL files) and Liquibase (XML or YAML"
            + " changelogs). Both have Spring Boot auto-config.";
    assertEquals(
        new Statements.Statement(
            MemoryType.DECISION, "Chose Flyway: the team reads SQL fine.", false),
        OfferedChoices.of("flyway. the team reads SQL fine", offer));
    assertEquals(
        new Statements.Statement(MemoryType.DECISION, "Chose pnpm.", false),
        OfferedChoices.of("ok let's go with pnpm please", "We could use `npm` or `pnpm` here."));
    assertEquals(
        new Statements.Statement(MemoryType.DECISION, "Chose Flyway: the team reads SQL.", false),
        OfferedChoices.of("flyway. the team reads SQL. add a baseline migration too", offer),
        "a task after the choice is no part of its reason");
  }

  @Test
  void aPickSettledAfterItsReasons_isTheDecision_withTheReasonsBeforeIt() {
    String offer =
        "No Redis anywhere right now. Options:\n\n1. **BullMQ**: needs Redis in every env.\n"
            + "2. **pg-boss**: a job queue on top of the existing Postgres.";
    assertEquals(
        "Chose pg-boss: we are not adding redis just for this, ops would kill me.",
        OfferedChoices.of(
                "we are not adding redis just for this, ops would kill me. pg-boss it is. wrap it"
                    + " in a module",
                offer)
            .text(),
        "the task after the pick is no reason");
    assertEquals(
        "Chose BullMQ: we already run Redis for sessions.",
        OfferedChoices.of("we already run Redis for sessions. going with bullmq then", offer)
            .text());
    assertNull(
        OfferedChoices.of("we are not adding redis just for this. sqs it is", offer),
        "a pick the offer does not name decides nothing");
  }

  @Test
  void aComparisonTable_offersItsColumnsAsChoices() {
    String table =
        "Quick comparison for what you described:\n\n| | **Hive** | **Isar** | **Drift** |\n"
            + "|---|---|---|---|\n| queries | manual | decent | full SQL |";
    assertEquals(
        "Chose Drift: the region query + real migrations are the deciding thing.",
        OfferedChoices.of("drift. the region query + real migrations are the deciding thing", table)
            .text());
  }

  @Test
  void aReplyPickingAnOptionByItsLabel_isTheDecision_withTheOptionsName() {
    String numbered =
        "Three realistic ways:\n\n"
            + "1. **Google Distance Matrix API** – best data, billed per element.\n"
            + "2. **Self-hosted OSRM** (Open Source Routing Machine) – no per-request cost.\n"
            + "3. **GraphHopper Directions API (hosted)** – credit-based.\n\n"
            + "Which way do you want to go?";
    assertEquals(
        new Statements.Statement(
            MemoryType.DECISION,
            "Chose Self-hosted OSRM: we already run the osm tile server on maps-01.",
            false),
        OfferedChoices.of("2. we already run the osm tile server on maps-01", numbered));
    assertEquals(
        "Chose Google Distance Matrix API.", OfferedChoices.of("option 1 please", numbered).text());
    assertEquals(
        "Chose GraphHopper Directions API (hosted).",
        OfferedChoices.of("the third one", numbered).text());

    String lettered =
        "Two ways to do it:\n\n"
            + "**(a) One delayed task per appointment**: on booking, schedule an ETA task.\n\n"
            + "**(b) A periodic sweep from celery beat**: every 10 minutes, select what is due.\n\n"
            + "Which do you prefer?";
    assertEquals(
        "Chose A periodic sweep from celery beat: we redeploy a few times a day and ETA tasks"
            + " vanish. plus the column gives reception an audit trail.",
        OfferedChoices.of(
                "b. we redeploy a few times a day and ETA tasks vanish. plus the column gives"
                    + " reception an audit trail",
                lettered)
            .text());
    assertEquals(
        "Chose Use plain SQL.",
        OfferedChoices.of("a)", "Options:\na) Use plain SQL.\nb) Use jOOQ.").text());
  }

  @Test
  void capitalLetterLabels_pickTheOptionsName_notTheLetter() {
    String offer =
        "Three realistic options:\n\n"
            + "**A) `barryvdh/laravel-dompdf`** — pure PHP, zero infra.\n\n"
            + "**B) `spatie/browsershot`** — drives headless Chromium through Puppeteer.\n\n"
            + "**C) A hosted API** — no infra, but documents leave our servers.\n\n"
            + "Which one?";
    assertEquals(
        "Chose spatie/browsershot: node is already in the image for vite anyway.",
        OfferedChoices.of("yep, B. node is already in the image for vite anyway", offer).text());
    assertNull(
        OfferedChoices.of("B", "Either works: Browsershot or dompdf."),
        "a letter is a label, never a name of its own");
  }

  @Test
  void aReplyInWordsOfOneLabelledOption_picksThatOption() {
    String offer =
        "Options:\n\n"
            + "1. **Go reactive end-to-end** — Hibernate Reactive Panache, endpoints return Uni.\n"
            + "2. **Stay imperative, run endpoints on virtual threads** — `@RunOnVirtualThread`.\n"
            + "3. **Just drop `@NonBlocking` from the endpoints** — requests go to the worker pool.\n\n"
            + "Which way?";
    assertEquals(
        "Chose Stay imperative, run endpoints on virtual threads: nobody on the team can read"
            + " mutiny chains.",
        OfferedChoices.of("virtual threads. nobody on the team can read mutiny chains", offer)
            .text());
    assertEquals(
        "Chose Go reactive end-to-end.", OfferedChoices.of("the reactive one", offer).text());
    String navigation =
        "Three realistic choices:\n\n"
            + "1. **Jetpack Navigation Compose with type-safe routes** (navigation 2.8+).\n"
            + "2. **Voyager** — screen classes with their own lifecycle.\n"
            + "3. **Decompose** — multiplatform-ready.\n";
    assertEquals(
        "Chose Jetpack Navigation Compose with type-safe routes.",
        OfferedChoices.of("type safe one", navigation).text());
    assertNull(
        OfferedChoices.of("endpoints", offer), "words in two options' names pick neither of them");
    assertNull(OfferedChoices.of("worker pool", offer), "only an option's name counts");
    assertNull(
        OfferedChoices.of("virtual threads", "Use virtual threads or a reactive stack?"),
        "words of a choice offered in prose are no name unless written as one");
  }

  @Test
  void anAcceptance_choosesTheOptionTheAgentRecommended_withItsReason() {
    String byLabel =
        "Options:\n\n1. **pinia-plugin-persistedstate**: one line per store.\n"
            + "2. **`useCookie('fl_cart')`**: SSR renders the right count.\n"
            + "3. **Server-side cart**: most robust.\n\n"
            + "I'd go with 2 now; it's small, SSR-safe, and we can migrate to 3 later.";
    assertEquals(
        "Chose useCookie('fl_cart'): it's small, SSR-safe, and we can migrate to 3 later.",
        OfferedChoices.of("that", byLabel).text());
    assertEquals(
        "Chose useCookie('fl_cart'): it's small, SSR-safe, and we can migrate to 3 later.",
        OfferedChoices.of("sounds good!", byLabel).text());
    String byName =
        "Options:\n1. **Prisma**: great DX.\n2. **Drizzle ORM**: native drivers for both.\n\n"
            + "I'd pick drizzle: it fits both drivers and gives us migrations.";
    assertEquals(
        "Chose Drizzle: it fits both drivers and gives us migrations.",
        OfferedChoices.of("yes", byName).text());
    String ways =
        "Three ways to do it:\n\n**a) `PlayerInput` component.** Quick.\n\n"
            + "**b) Input Actions asset with a generated class.** Strongly typed.\n\n"
            + "I'd pick **b**.";
    assertEquals(
        "Chose Input Actions asset with a generated class.", OfferedChoices.of("b", ways).text());
    assertEquals(
        "Chose Input Actions asset with a generated class.", OfferedChoices.of("ok", ways).text());
    assertNull(
        OfferedChoices.of("yes", "Should I also update the docs? I'd recommend it."),
        "a recommendation that names no offered option chooses nothing");
    assertNull(
        OfferedChoices.of("that", "Options:\n1. **Prisma**.\n2. **Drizzle**.\n\nYour call."),
        "without a recommendation an acceptance picks nothing");
  }

  @Test
  void aLabelTheOfferDoesNotList_orAListThatIsNoChoice_isNoDecision() {
    String numbered = "Options:\n1. **Redis** – fast.\n2. **Postgres** – already there.";
    assertNull(OfferedChoices.of("3. whatever works", numbered));
    assertNull(OfferedChoices.of("b.", numbered));
    assertNull(OfferedChoices.of("2 more things: add a test", "Done. 1. tests pass 2. lint ok"));
    assertNull(OfferedChoices.of("1. yes", "Which one?\n1. **Only** option here."));
    assertEquals(
        "Chose Postgres: İİİİ.",
        OfferedChoices.of("Option 2. İİİİ", numbered).text(),
        "a reply is read as written, whatever lower-casing would do to its length");
  }

  @Test
  void aReplyThatChoosesForThisTaskOnly_orNamesNoOfferedOption_isNoDecision() {
    assertNull(OfferedChoices.of("staging", "Should I run it on staging or prod?"));
    assertNull(OfferedChoices.of("flyway", "Added Flyway and a V1 baseline."));
    assertEquals(
        null,
        OfferedChoices.of(
            "yes add the flyway migration for the points table", "Flyway or Liquibase?"));
    assertNull(OfferedChoices.of("liquibase", null));
  }
}
