package dev.memhook.core.internal.recall;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Origin;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecallResult;
import dev.memhook.api.RecalledMemory;
import dev.memhook.api.Scope;
import dev.memhook.api.Signal;
import dev.memhook.api.SignalHit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A captured observation in a result gives its place to the memory distilled from it. */
class DistilledInPlaceTest {

  private static final String REPORT = "invoice totals are off by one cent sometimes";
  private static final RecallQuery QUERY =
      RecallQuery.of(Scope.DEFAULT, "a customer says the bill is a penny wrong");

  private final ObservedStore store = new ObservedStore();

  @AfterEach
  void close() {
    store.close();
  }

  /** The user's report, as capture stores it: an observation of session "s1". */
  private Memory report() {
    return store.add("obs-report", REPORT, b -> b.sourceSession("s1"));
  }

  /** The bug session "s1" distilled from {@code sources}, with id {@code id}. */
  private Memory bug(String id, String session, String sources) {
    return store.add(
        id,
        "Reported: "
            + REPORT
            + ". Cause and fix: totals were computed in double; now BigDecimal with HALF_EVEN.",
        b ->
            b.type(MemoryType.BUG)
                .sourceSession(session)
                .attributes(Map.of("memhook.sources", sources)));
  }

  /** A memory of {@code type} session "s1" distilled from {@code source}. */
  private Memory distilled(String id, MemoryType type, String content, String source) {
    return store.add(
        id,
        content,
        b -> b.type(type).sourceSession("s1").attributes(Map.of("memhook.sources", source)));
  }

  private static RecalledMemory recalled(Memory m, double score) {
    return new RecalledMemory(m, score, List.of(new SignalHit(Signal.VECTOR, 1, score)));
  }

  private List<MemoryId> ids(List<RecalledMemory> kept, Exclusion exclusion) {
    return apply(kept, exclusion).stream().map(RecalledMemory::id).toList();
  }

  /** The stage over {@code kept} for {@code question}, without an exclusion. */
  private DistilledInPlace.Placed asked(String question, List<RecalledMemory> kept) {
    return DistilledInPlace.apply(
        store,
        RecallQuery.of(Scope.DEFAULT, question),
        kept,
        new RecordReader(store),
        Exclusion.none());
  }

  private List<RecalledMemory> apply(List<RecalledMemory> kept, Exclusion exclusion) {
    return DistilledInPlace.apply(store, QUERY, kept, new RecordReader(store), exclusion)
        .memories();
  }

  @Test
  void aCapturedObservation_givesItsPlaceScoreAndSignals_toTheMemoryDistilledFromIt() {
    Memory report = report();
    Memory other = store.add("obs-other", "add a toString to the Money class");
    Memory bug = bug("bug-1", "s1", "obs-report obs-failure");

    List<RecalledMemory> out =
        apply(List.of(recalled(report, 0.7), recalled(other, 0.3)), Exclusion.none());

    assertEquals(List.of(bug.id(), other.id()), out.stream().map(RecalledMemory::id).toList());
    assertEquals(0.7, out.get(0).score());
    assertEquals(List.of(new SignalHit(Signal.VECTOR, 1, 0.7)), out.get(0).signals());
  }

  @Test
  void aDistilledMemoryAlreadyInTheResult_takesTheBetterPlace_once() {
    Memory report = report();
    Memory other = store.add("host-note", "money is kept in cents");
    Memory bug = bug("bug-1", "s1", "obs-report");

    List<RecalledMemory> out =
        apply(
            List.of(recalled(report, 0.9), recalled(other, 0.5), recalled(bug, 0.4)),
            Exclusion.none());

    assertEquals(List.of(bug.id(), other.id()), out.stream().map(RecalledMemory::id).toList());
    assertEquals(0.9, out.get(0).score());
  }

  @Test
  void aMemoryOfAnotherSession_orNotNamingTheObservation_orExcluded_doesNotTakeItsPlace() {
    Memory report = report();
    bug("bug-other-session", "s2", "obs-report");
    bug("bug-other-sources", "s1", "obs-failure");
    List<RecalledMemory> kept = List.of(recalled(report, 0.7));

    assertEquals(kept, apply(kept, Exclusion.none()));

    bug("bug-1", "s1", "obs-report");
    assertEquals(List.of(MemoryId.of("bug-1")), ids(kept, Exclusion.none()));
    // a hook leaves out its own conversation's memories: not through the back door either
    Exclusion own = Exclusion.sourceSession("s1");
    assertEquals(List.of(report.id()), ids(kept, own));
  }

  @Test
  void onlyTheLatestVersion_takesThePlace() {
    Memory report = report();
    bug("bug-1", "s1", "obs-report");
    store.supersede("bug-1", "bug-2");

    assertEquals(
        List.of(MemoryId.of("bug-2")), ids(List.of(recalled(report, 0.7)), Exclusion.none()));
  }

  @Test
  void aResultOfMemoriesTheHostWrote_isReturnedAsItIs_withoutASearch() {
    Memory note = store.add("note-1", REPORT, b -> b.sourceSession("s1"));
    bug("bug-1", "s1", "note-1");
    store.clearCalls();
    List<RecalledMemory> kept = List.of(recalled(note, 0.7));

    assertEquals(kept, apply(kept, Exclusion.none()));
    assertTrue(store.textSearches.isEmpty() && store.reads.isEmpty(), store.reads.toString());
  }

  @Test
  void onlyTheFirstFewCapturedObservations_areLookedUp_oneSearchEach() {
    List<RecalledMemory> kept = new java.util.ArrayList<>();
    String[] topics = {"kafka", "redis", "postgres", "nginx", "grafana"};
    for (int i = 0; i < topics.length; i++) {
      String said = "we keep " + topics[i] + " settings in the ops repo";
      String source = "obs-" + i;
      kept.add(recalled(store.add(source, said, b -> b.sourceSession("s1")), 1.0 - i / 10.0));
      store.add(
          "fact-" + i,
          said + ".",
          b ->
              b.type(MemoryType.FACT)
                  .sourceSession("s1")
                  .attributes(Map.of("memhook.sources", source)));
    }
    store.clearCalls();

    List<MemoryId> out = ids(kept, Exclusion.none());

    assertEquals(
        DistilledInPlace.MAX_LOOKUPS, store.textSearches.size(), store.textSearches.toString());
    assertEquals(
        List.of("fact-0", "fact-1", "fact-2", "obs-3", "obs-4"),
        out.stream().map(MemoryId::value).toList());
  }

  @Test
  void aRunAmongIdenticalRuns_findsTheWorkflowMadeOfIt_byItsTitle() {
    String payload =
        "PostToolUse Bash\ninput: {\"command\":\"node --test test/\"}\noutput: {\"stdout\":"
            + "\"tests 14, pass 14, fail 0\"}";
    Memory last = null;
    for (int i = 0; i < 8; i++) {
      last =
          store.add(
              "obs-run-" + i,
              payload,
              b -> b.sourceSession("s1").title("Ran node --test test/: 14 passed"));
    }
    Memory workflow =
        store.add(
            "workflow-1",
            "To build and test, run node --test test/. It passed: Ran node --test test/: 14 passed.",
            b ->
                b.type(MemoryType.WORKFLOW)
                    .sourceSession("s1")
                    .title("Workflow: node --test test/")
                    .attributes(Map.of("memhook.sources", "obs-run-7")));

    assertEquals(List.of(workflow.id()), ids(List.of(recalled(last, 0.5)), Exclusion.none()));
  }

  /**
   * Consolidation kept the Go version of a run that printed go.mod as well; a question about a
   * module the run printed is answered by the run, not by the fact made of its other half.
   */
  @Test
  void aDistilledMemoryLackingAWordTheQueryFoundInItsSource_leavesTheSourceInItsPlace() {
    Memory run =
        store.add(
            "obs-run",
            "go version go1.22.4 linux/amd64\nmodule github.com/quill/quill\nrequire (\n"
                + "\tgoogle.golang.org/grpc v1.64.0\n\tgithub.com/jackc/pgx/v5 v5.6.0\n)",
            b ->
                b.sourceSession("s1")
                    .origin(Origin.tool("Bash"))
                    .title("Ran go version && head -12 go.mod"));
    Memory fact =
        distilled(
            "fact-go",
            MemoryType.FACT,
            "The installed go is version 1.22.4 (go version: go version go1.22.4 linux/amd64).",
            "obs-run");
    List<RecalledMemory> kept = List.of(recalled(run, 0.8));

    DistilledInPlace.Placed grpc = asked("which grpc-go releases are we pinned to?", kept);
    DistilledInPlace.Placed goVersion = asked("which go version is installed here?", kept);

    assertEquals(kept, grpc.memories());
    assertEquals("source kept: obs-run (distilled fact-go lacks grpc)", grpc.description());
    assertEquals(
        List.of(fact.id()), goVersion.memories().stream().map(RecalledMemory::id).toList());
    assertEquals(
        "in place of their source: distilled fact-go for obs-run", goVersion.description());
  }

  @Test
  void aToolRunsWord_isHeldByItsPluralOrInAnotherCase() {
    Memory run =
        store.add(
            "obs-ls",
            "Gateway-2.3.tgz\nRELEASES.md",
            b -> b.sourceSession("s1").origin(Origin.tool("Bash")).title("Ran ls dist"));
    distilled("fact-1", MemoryType.FACT, "The gateway release in dist/ is 2.3.", "obs-ls");

    List<RecalledMemory> out =
        asked("which GATEWAY releases did we build", List.of(recalled(run, 0.5))).memories();

    assertEquals(List.of(MemoryId.of("fact-1")), out.stream().map(RecalledMemory::id).toList());
  }

  /** A report's words the bug made of it leaves out do not keep the report in its place. */
  @Test
  void aPersonsTurn_givesItsPlace_evenToAMemoryLackingSomeOfTheQuerysWords() {
    Memory report = report();
    Memory bug =
        distilled(
            "bug-1",
            MemoryType.BUG,
            "Invoice totals were computed in double; now BigDecimal with HALF_EVEN.",
            "obs-report");

    List<RecalledMemory> out =
        asked("invoice totals are off sometimes, seen this?", List.of(recalled(report, 0.5)))
            .memories();

    assertEquals(List.of(bug.id()), out.stream().map(RecalledMemory::id).toList());
  }

  @Test
  void aRecall_thatFindsTheUsersReport_returnsTheBugMadeOfIt() {
    report();
    store.add("obs-chat", "rename getCart to loadCart everywhere", b -> b.sourceSession("s1"));
    Memory bug = bug("bug-1", "s1", "obs-report");

    RecallResult result =
        new RecallEngine(store, store.embedder, RecallOptions.builder().noRelevanceGate().build())
            .recall(RecallQuery.of(Scope.DEFAULT, "invoice totals off by a cent"));

    assertEquals(bug.id(), result.ids().get(0), result.explain());
    assertEquals(1, result.ids().stream().filter(bug.id()::equals).count(), result.explain());
    assertTrue(!result.ids().contains(MemoryId.of("obs-report")), result.explain());
    assertTrue(
        result.fusion().contains("in place of their source: distilled bug-1 for obs-report"),
        result.fusion());
  }
}
