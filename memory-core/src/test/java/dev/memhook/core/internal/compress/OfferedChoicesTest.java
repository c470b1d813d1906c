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
