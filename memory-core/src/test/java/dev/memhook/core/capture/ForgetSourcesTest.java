package dev.memhook.core.capture;

import static dev.memhook.core.capture.CaptureFixtures.all;
import static dev.memhook.core.capture.CaptureFixtures.filesContaining;
import static dev.memhook.core.capture.CaptureFixtures.flush;
import static dev.memhook.core.capture.CaptureFixtures.prompt;
import static dev.memhook.core.capture.CaptureFixtures.sessionEnd;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.ForgetMode;
import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryType;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecalledMemory;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.capture.Consolidation;
import dev.memhook.api.capture.Consolidator;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Forgetting a memory that a session's consolidation made forgets the observations it was made from
 * too, unless asked to keep them, so a recall for its sentence finds nothing a minute later; the
 * audit lists every id removed, and nothing of another scope is touched.
 */
class ForgetSourcesTest {

  private static final String PREFERENCE =
      "I prefer tabs over spaces in every Java file of this repo.";
  private static final String QUERY = "tabs over spaces in every Java file";

  @TempDir Path dir;

  @Test
  void forgettingAConsolidatedMemory_forgetsItsSources_soARecallFindsNeither_andNoFileHoldsIt() {
    try (MemoryService memory = service(CaptureOptions.defaults())) {
      memory.capture().observe(prompt("s1", 0, PREFERENCE));
      memory.capture().observe(prompt("s1", 1, "Now run the billing tests."));
      memory.capture().observe(sessionEnd("s1", 2));
      flush(memory);
      Memory preference = only(memory, MemoryType.PREFERENCE);
      Memory source = observation(memory, PREFERENCE);
      assertEquals(List.of(source.id()), memory.maintenance().sources(preference.id()));
      // the source is stored, and a recall that finds it offers the preference in its place
      assertTrue(memory.get(source.id()).isPresent());
      List<MemoryId> found = recalled(memory, Scope.DEFAULT);
      assertTrue(
          found.contains(preference.id()) && !found.contains(source.id()),
          "the test must find the preference, standing for its source, first: " + found);

      List<ForgetRecord> records =
          memory.forget(preference.id(), "alice", "wrong", ForgetMode.WITH_SOURCES);

      List<MemoryId> removed = List.of(preference.id(), source.id());
      assertEquals(removed, records.stream().map(ForgetRecord::id).toList());
      records.forEach(r -> assertEquals(removed, r.removed(), r.toString()));
      assertTrue(memory.get(preference.id()).isEmpty());
      assertTrue(memory.get(source.id()).isEmpty());
      assertEquals(List.of(), recalledText(memory, Scope.DEFAULT), "the sentence is found again");
      assertEquals(Set.copyOf(records), Set.copyOf(memory.maintenance().forgotten(Scope.DEFAULT)));
      // what forgetting an observation clears runs for a source too
      assertNull(memory.capture().session("s1").orElseThrow().firstPrompt());
      assertEquals(List.of(), filesContaining(dir, "tabs over spaces"), "text left on disk");
      memory.maintenance().purge();
      assertEquals(List.of(), filesContaining(dir, "tabs"), "a word left on disk after the purge");
    }
    assertEquals(List.of(), filesContaining(dir, "tabs over spaces"), "after close");
  }

  @Test
  void theAuditOfEveryRemovedId_listsTheMemoryItsOlderVersionsAndTheSourcesOfEach() {
    try (MemoryService memory = service(CaptureOptions.defaults())) {
      memory.capture().observe(prompt("s1", 0, PREFERENCE));
      memory.capture().observe(sessionEnd("s1", 1));
      memory
          .capture()
          .observe(
              prompt("s2", 10, "I prefer tabs over spaces in every Java file of this repository."));
      memory.capture().observe(sessionEnd("s2", 11));
      flush(memory);
      Memory v2 = latest(memory, MemoryType.PREFERENCE);
      assertEquals(2, v2.version(), "the second session refines the first's memory");
      MemoryId first = promptObservation(memory, "s1");
      MemoryId second = promptObservation(memory, "s2");

      List<ForgetRecord> records =
          memory.forget(v2.id(), "alice", "wrong", ForgetMode.WITH_SOURCES);

      List<MemoryId> removed = List.of(v2.id(), v2.supersedes(), first, second);
      assertEquals(removed, records.stream().map(ForgetRecord::id).toList());
      List<ForgetRecord> audit = memory.maintenance().forgotten(Scope.DEFAULT);
      assertEquals(Set.copyOf(removed), Set.copyOf(audit.stream().map(ForgetRecord::id).toList()));
      for (ForgetRecord r : audit) {
        assertEquals(removed, r.removed(), "record of " + r.id());
        assertEquals("alice", r.actor());
      }
      assertEquals(List.of(), all(memory), "nothing of either session's sentence is left");
    }
  }

  @Test
  void forgettingTheMemoryOnly_keepsItsSources_recallableAsBefore() {
    try (MemoryService memory = service(CaptureOptions.defaults())) {
      memory.capture().observe(prompt("s1", 0, PREFERENCE));
      memory.capture().observe(sessionEnd("s1", 1));
      flush(memory);
      Memory preference = only(memory, MemoryType.PREFERENCE);
      Memory source = observation(memory, PREFERENCE);

      List<ForgetRecord> records =
          memory.forget(preference.id(), "alice", "reworded", ForgetMode.MEMORY_ONLY);

      assertEquals(
          List.of(
              new ForgetRecord(preference.id(), Scope.DEFAULT, "alice", "reworded", at(records))),
          records);
      assertEquals(source, memory.get(source.id()).orElseThrow());
      assertEquals(List.of(source.id()), recalled(memory, Scope.DEFAULT));
      assertFalse(memory.forget(preference.id(), "alice", "again"), "nothing left to forget");
    }
  }

  @Test
  void anObservationTwoMemoriesWereMadeFrom_goesWithEither_andTheOtherMemoryStays() {
    Consolidator twoFromOne =
        (session, observations) -> {
          MemoryId source = observations.get(0).id();
          return List.of(
              new Consolidation(
                  MemoryType.PREFERENCE,
                  "Tabs",
                  "Tabs over spaces in Java files.",
                  List.of(),
                  List.of(),
                  0.5,
                  List.of(source)),
              new Consolidation(
                  MemoryType.DECISION,
                  "Formatter",
                  "The formatter is set to indent with tabs.",
                  List.of(),
                  List.of(),
                  0.5,
                  List.of(source)));
        };
    try (MemoryService memory =
        service(CaptureOptions.builder().consolidator(twoFromOne).build())) {
      memory.capture().observe(prompt("s1", 0, PREFERENCE));
      memory.capture().observe(sessionEnd("s1", 1));
      flush(memory);
      Memory preference = only(memory, MemoryType.PREFERENCE);
      Memory decision = only(memory, MemoryType.DECISION);
      Memory source = observation(memory, PREFERENCE);
      assertEquals(List.of(source.id()), memory.maintenance().sources(decision.id()));

      assertTrue(memory.forget(preference.id(), "alice", "private"));

      assertTrue(memory.get(source.id()).isEmpty(), "privacy wins over the other memory's link");
      assertEquals(decision, memory.get(decision.id()).orElseThrow());
      assertEquals(List.of(), memory.maintenance().sources(decision.id()), "its source is gone");
    }
  }

  @Test
  void aSourceOfAnotherScope_orNotACapturedObservation_isNeverForgotten() {
    Scope shop = Scope.of("shop");
    Scope other = Scope.of("other");
    try (MemoryService memory = service(CaptureOptions.builder().scope(shop).build())) {
      memory.capture().observe(prompt("s1", 0, PREFERENCE));
      flush(memory);
      Memory captured = observation(memory, PREFERENCE);
      assertEquals(shop, captured.scope());
      Memory hostOwn = memory.remember(MemoryDraft.of(other, "The build uses Maven."));
      // a host's memory whose attribute names sources capture never made for it
      Memory named =
          memory.remember(
              MemoryDraft.builder(other, "The repo indents with tabs.")
                  .type(MemoryType.FACT)
                  .attributes(
                      Map.of("memhook.sources", captured.id() + " " + hostOwn.id() + " not/an/id"))
                  .build());
      assertEquals(List.of(), memory.maintenance().sources(named.id()));

      List<ForgetRecord> records =
          memory.forget(named.id(), "alice", "wrong", ForgetMode.WITH_SOURCES);

      assertEquals(List.of(named.id()), records.stream().map(ForgetRecord::id).toList());
      assertEquals(captured, memory.get(captured.id()).orElseThrow());
      assertEquals(hostOwn, memory.get(hostOwn.id()).orElseThrow());
      assertEquals(List.of(), memory.maintenance().forgotten(shop));
    }
  }

  @Test
  void aScopedView_countsAndForgetsTheSourcesOfItsOwnScope_andNothingOfAnother() {
    try (MemoryService memory = service(CaptureOptions.defaults())) {
      memory.capture().observe(prompt("s1", 0, PREFERENCE));
      memory.capture().observe(sessionEnd("s1", 1));
      flush(memory);
      Memory preference = only(memory, MemoryType.PREFERENCE);
      Memory source = observation(memory, PREFERENCE);
      var elsewhere = memory.scoped(Scope.of("elsewhere"));
      assertEquals(List.of(), elsewhere.sources(preference.id()));
      assertEquals(
          List.of(), elsewhere.forget(preference.id(), "tenant", "try", ForgetMode.WITH_SOURCES));
      assertTrue(memory.get(source.id()).isPresent());

      var own = memory.scoped(Scope.DEFAULT);
      assertEquals(List.of(source.id()), own.sources(preference.id()));
      assertEquals(
          List.of(preference.id(), source.id()),
          own.forget(preference.id(), "tenant", "done", ForgetMode.WITH_SOURCES).stream()
              .map(ForgetRecord::id)
              .toList());
    }
  }

  private MemoryService service(CaptureOptions options) {
    return Memhook.builder()
        .directory(dir)
        .embedder(HashingEmbedder.create())
        .capture(options)
        .build();
  }

  private static java.time.Instant at(List<ForgetRecord> records) {
    return records.get(0).at();
  }

  private static List<MemoryId> recalled(MemoryService memory, Scope scope) {
    return memory.recall(RecallQuery.of(scope, QUERY)).memories().stream()
        .map(RecalledMemory::id)
        .toList();
  }

  /** The text of what a recall for the sentence finds that still says it. */
  private static List<String> recalledText(MemoryService memory, Scope scope) {
    return memory.recall(RecallQuery.of(scope, QUERY)).memories().stream()
        .map(RecalledMemory::memory)
        .filter(m -> (m.content() + m.context()).contains("tabs over spaces"))
        .map(Memory::content)
        .toList();
  }

  private static Memory only(MemoryService memory, MemoryType type) {
    List<Memory> found = all(memory).stream().filter(m -> m.type() == type).toList();
    assertEquals(1, found.size(), all(memory).toString());
    return found.get(0);
  }

  private static Memory latest(MemoryService memory, MemoryType type) {
    return all(memory).stream()
        .filter(m -> m.type() == type && m.latest())
        .findFirst()
        .orElseThrow();
  }

  private static Memory observation(MemoryService memory, String content) {
    return all(memory).stream()
        .filter(m -> m.type() == MemoryType.OBSERVATION && m.content().equals(content))
        .findFirst()
        .orElseThrow();
  }

  private static MemoryId promptObservation(MemoryService memory, String session) {
    return all(memory).stream()
        .filter(m -> m.type() == MemoryType.OBSERVATION)
        .filter(m -> session.equals(m.sourceSession()) && m.content().startsWith("I prefer"))
        .findFirst()
        .orElseThrow()
        .id();
  }
}
