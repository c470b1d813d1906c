package dev.memhook.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.testing.NullPointerTester;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import dev.memhook.lucene.LuceneMemoryStore;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link Redaction}: validation, immutability, and what a service built with one stores. */
class RedactionTest {

  @Test
  void defaults_haveNoHostRule_andPersonalDataOff() {
    assertEquals(List.of(), Redaction.defaults().ruleKinds());
    assertFalse(Redaction.defaults().personalData());
  }

  @Test
  void withMethods_returnNewValues_andLeaveTheOriginalAsItWas() {
    Redaction base = Redaction.defaults();
    Redaction more = base.withRule("ticket", Pattern.compile("TCK-[0-9]+")).withPersonalData();
    assertEquals(List.of("ticket"), more.ruleKinds());
    assertTrue(more.personalData());
    assertEquals(List.of(), base.ruleKinds());
    assertFalse(base.personalData());
    assertEquals(more, base.withRule("ticket", Pattern.compile("TCK-[0-9]+")).withPersonalData());
    assertNotEquals(
        more, base.withRule("ticket", Pattern.compile("TCK-[0-9]*")).withPersonalData());
  }

  @ParameterizedTest(name = "''{0}''")
  @ValueSource(
      strings = {
        "",
        "Ticket",
        "my kind",
        "kind_1",
        "x]y",
        "a23456789012345678901234567890123456789012"
      })
  void aKindOutsideTheMarkerAlphabet_isRejectedNamingTheRule(String kind) {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Redaction.defaults().withRule(kind, Pattern.compile("x")));
    assertTrue(e.getMessage().contains("1 to 40 characters of a-z, 0-9 and '-'"), e.getMessage());
    assertTrue(e.getMessage().contains("'" + kind + "'"), e.getMessage());
  }

  @Test
  void aSecondRuleOfTheSameKind_isRejected() {
    Redaction one = Redaction.defaults().withRule("ticket", Pattern.compile("TCK-[0-9]+"));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> one.withRule("ticket", Pattern.compile("T-1")));
    assertTrue(e.getMessage().contains("'ticket' was already added"), e.getMessage());
  }

  @Test
  void aKeptGroupThePatternDoesNotHave_isRejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Redaction.defaults().withRule("emp", Pattern.compile("(id:)[0-9]+"), 2));
    assertTrue(e.getMessage().contains("(1 to 1); got 2"), e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> Redaction.defaults().withRule("emp", Pattern.compile("x"), -1));
  }

  @Test
  void nullArguments_throwNullPointerException() {
    new NullPointerTester().testAllPublicInstanceMethods(Redaction.defaults());
    new NullPointerTester().testAllPublicStaticMethods(Redaction.class);
  }

  @Test
  void aServiceBuiltWithHostAndPersonalDataRules_storesTheirMarkers() {
    Redaction redaction =
        Redaction.defaults()
            .withRule("ticket", Pattern.compile("TCK-[0-9]{6}"))
            .withRule("employee-id", Pattern.compile("(employee id: *)[0-9]+"), 1)
            .withPersonalData();
    try (MemoryService memory =
        Memhook.builder()
            .inMemory()
            .embedder(HashingEmbedder.create())
            .redaction(redaction)
            .build()) {
      Memory m =
          memory.remember(
              MemoryDraft.of(
                  Scope.DEFAULT,
                  "TCK-123456 for employee id: 4711, mail ann@example.org, password=hunter2"));
      assertEquals(
          "[redacted:ticket] for employee id: [redacted:employee-id], mail [redacted:email],"
              + " password=[redacted:secret]",
          m.content());
      assertEquals(m.content(), memory.get(m.id()).orElseThrow().content());
    }
  }

  @Test
  void redact_givesTheTextAServiceBuiltWithTheRedactionStores() {
    Redaction redaction = Redaction.defaults().withRule("ticket", Pattern.compile("TCK-[0-9]{6}"));
    String text =
        "TCK-123456: deploy with token ghp_R7tYq2LmX9vB4nK8sD1fH6jP3wZ5cA0eU2gM, password=x1";
    String redacted = redaction.redact(text);
    assertEquals(
        "[redacted:ticket]: deploy with token [redacted:github-token], password=[redacted:secret]",
        redacted);
    assertEquals(redacted, redaction.redact(redacted), "redacting twice changes nothing");
    try (MemoryService memory =
        Memhook.builder()
            .inMemory()
            .embedder(HashingEmbedder.create())
            .redaction(redaction)
            .build()) {
      assertEquals(redacted, memory.remember(MemoryDraft.of(Scope.DEFAULT, text)).content());
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "card 4111 1111 1111 1111 on file|card [redacted:card] on file",
        "ssn 123-45-6789 here|ssn [redacted:national-id] here",
        "NI AB 12 34 56 C here|NI [redacted:national-id] here",
        "mail ann@example.org here|mail [redacted:email] here",
        "call +44 20 7946 0958 here|call [redacted:phone] here",
        "call (415) 555-2671 here|call [redacted:phone] here"
      })
  void personalData_isRedactedWithTheSwitchOn_andLeftAloneWithItOff(String input, String redacted) {
    assertEquals(redacted, Redaction.defaults().withPersonalData().sanitizer().sanitize(input));
    assertEquals(input, Redaction.defaults().sanitizer().sanitize(input));
  }

  @Test
  void theDefaultService_leavesPersonalDataAlone() {
    try (MemoryService memory =
        Memhook.builder().inMemory().embedder(HashingEmbedder.create()).build()) {
      Memory m = memory.remember(MemoryDraft.of(Scope.DEFAULT, "mail ann@example.org"));
      assertEquals("mail ann@example.org", m.content());
    }
  }

  @Test
  void aHostRuleThatBacktracksWithoutEnd_failsTheWriteClosed_andStoresNothing() {
    Redaction redaction = Redaction.defaults().withRule("runaway", Pattern.compile("(a+)+b"));
    LuceneMemoryStore store = LuceneMemoryStore.inMemory();
    try (MemoryService memory =
        Memhook.builder()
            .store(store)
            .embedder(HashingEmbedder.create())
            .redaction(redaction)
            .build()) {
      IllegalArgumentException e =
          assertTimeoutPreemptively(
              Duration.ofSeconds(30), // a hang guard, not a performance target
              () ->
                  assertThrows(
                      IllegalArgumentException.class,
                      () -> memory.remember(MemoryDraft.of(Scope.DEFAULT, "a".repeat(10_000)))));
      assertTrue(e.getMessage().contains("'runaway'"), e.getMessage());
      assertTrue(e.getMessage().contains("not stored"), e.getMessage());
      assertEquals(0, store.count(Scope.DEFAULT), "nothing of the refused write is stored");
    }
  }
}
