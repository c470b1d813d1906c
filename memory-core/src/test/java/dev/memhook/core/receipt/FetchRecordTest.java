package dev.memhook.core.receipt;

import static dev.memhook.core.Eventually.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.HookOptions;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import dev.memhook.api.chat.ToolResult;
import dev.memhook.api.trace.FetchRecord;
import dev.memhook.api.trace.FetchRecord.FetchedId;
import dev.memhook.api.trace.FetchRecord.Outcome;
import dev.memhook.api.trace.InjectionReceipt.Representation;
import dev.memhook.api.trace.MemoryListener;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.testkit.FakeChatService;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A call of the real {@code get_memory} tool leaves a record of what the model sent, what the tool
 * acted on after its normalisation rules, and what each id came to, which the model itself only
 * sees as found or not.
 */
class FetchRecordTest {

  private static final Scope MINE = Scope.of("acme", "alice");
  private static final Scope THEIRS = Scope.of("acme", "bob");

  private final List<FetchRecord> heard = new CopyOnWriteArrayList<>();
  private MemoryService memory;
  private FakeChatService chat;
  private Memory kept;
  private Memory forgotten;
  private Memory theirs;

  @BeforeEach
  void hook() {
    memory =
        Memhook.builder()
            .inMemory()
            .embedder(HashingEmbedder.create())
            .noCapture()
            .listener(
                new MemoryListener() {
                  @Override
                  public void fetched(FetchRecord fetch) {
                    heard.add(fetch);
                  }
                })
            .build();
    kept = memory.remember(MemoryDraft.of(MINE, "Deploys run from the release branch."));
    forgotten = memory.remember(MemoryDraft.of(MINE, "The old VPN password rotation."));
    memory.forget(forgotten.id(), "alice", "outdated");
    theirs = memory.remember(MemoryDraft.of(THEIRS, "Bob's private note."));
    chat = FakeChatService.create();
    memory.hookInto(chat, HookOptions.builder().scope(MINE).noCapture().build());
  }

  @AfterEach
  void close() {
    memory.close();
  }

  private FetchRecord fetch(Map<String, Object> args) throws Exception {
    int before = heard.size();
    ToolResult ignored =
        chat.callTool("get_memory", args).toCompletableFuture().get(30, TimeUnit.SECONDS);
    eventually(() -> assertEquals(before + 1, heard.size()));
    return heard.get(before);
  }

  @Test
  void idsGivenAsOneString_isRecordedAsSent_andActedOnAsAOneElementList() throws Exception {
    FetchRecord r = fetch(Map.of("ids", kept.id().value(), "summary", true));

    assertEquals(Map.of("ids", kept.id().value(), "summary", true), r.arguments());
    assertEquals(
        Map.of("ids", List.of(kept.id().value()), "summary", true), r.effectiveArguments());
    assertEquals(List.of(new FetchedId(kept.id().value(), Outcome.FOUND)), r.ids());
    assertEquals(Representation.SUMMARY, r.representation());
    assertNull(r.errorCode());
  }

  @Test
  void repeatedIds_areRecordedAsSent_andAnsweredOnce() throws Exception {
    String id = kept.id().value();
    FetchRecord r = fetch(Map.of("ids", List.of(id, id, id)));

    assertEquals(List.of(id, id, id), r.arguments().get("ids"));
    assertEquals(List.of(id), r.effectiveArguments().get("ids"));
    assertEquals(List.of(new FetchedId(id, Outcome.FOUND)), r.ids());
    assertEquals(Representation.FULL, r.representation());
  }

  @Test
  void aForgottenId_anotherScopesId_andAnUnknownId_eachComeToWhatTheyAre() throws Exception {
    FetchRecord r =
        fetch(
            Map.of(
                "ids",
                List.of(
                    kept.id().value(),
                    forgotten.id().value(),
                    theirs.id().value(),
                    "mem_neverwasaremembered")));

    assertEquals(
        List.of(
            new FetchedId(kept.id().value(), Outcome.FOUND),
            new FetchedId(forgotten.id().value(), Outcome.FORGOTTEN),
            new FetchedId(theirs.id().value(), Outcome.OUT_OF_SCOPE),
            new FetchedId("mem_neverwasaremembered", Outcome.UNKNOWN)),
        r.ids());
    assertNull(r.errorCode(), "a batch with unknown ids is still answered");
  }

  @Test
  void aSingleFetchOfAnotherScopesId_isNotFoundForTheModel_andOutOfScopeForTheHost()
      throws Exception {
    FetchRecord r = fetch(Map.of("id", theirs.id().value()));

    assertEquals("not_found", r.errorCode());
    assertEquals(List.of(new FetchedId(theirs.id().value(), Outcome.OUT_OF_SCOPE)), r.ids());
  }

  @Test
  void refusedArguments_areRecordedWithTheirErrorAndNoEffectiveArguments() throws Exception {
    FetchRecord r = fetch(Map.of("ids", List.of(), "summary", "yes"));

    assertEquals("invalid_arguments", r.errorCode());
    assertEquals(Map.of(), r.effectiveArguments());
    assertEquals(List.of(), r.ids());
  }

  @Test
  void aSecretTheModelPastedIntoAnArgument_isRedactedInTheRecord() throws Exception {
    String key = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc";
    FetchRecord r = fetch(Map.of("id", key, "note password=hunter2", "x"));

    String recorded = r.arguments().toString();
    assertTrue(!recorded.contains(key) && !recorded.contains("hunter2"), recorded);
    assertEquals("invalid_arguments", r.errorCode());
  }

  @Test
  void hugeArguments_areRecordedCut() throws Exception {
    String huge = "x".repeat(1_000_000);
    FetchRecord r = fetch(Map.of("id", huge));

    String recorded = (String) r.arguments().get("id");
    assertTrue(recorded.length() <= FetchRecord.MAX_ECHOED_CHARS, "" + recorded.length());
    assertTrue(recorded.endsWith("…"));
  }
}
