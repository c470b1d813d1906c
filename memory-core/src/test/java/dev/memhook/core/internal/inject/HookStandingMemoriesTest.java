package dev.memhook.core.internal.inject;

import static dev.memhook.core.internal.inject.HookExampleFlowTest.injectedBatches;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.HookOptions;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryStoreException;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.TypeListing;
import dev.memhook.api.trace.HookPhase;
import dev.memhook.api.trace.InjectionReceipt;
import dev.memhook.api.trace.PhaseStatus;
import dev.memhook.api.trace.ReceiptCandidate;
import dev.memhook.api.trace.ReceiptCandidate.Decision;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.lucene.LuceneMemoryStore;
import dev.memhook.testkit.FakeChatService;
import dev.memhook.testkit.ForwardingMemoryStore;
import dev.memhook.testkit.ModelReply;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A hook's first injection carries the standing memories of its scopes, first, in the one batched
 * call a {@code beforeSendLoop} makes, with what the message recalled after them; later turns never
 * repeat them. Checked through {@link FakeChatService}: the {@code get_memory} calls it was handed,
 * and the hook's receipts.
 */
class HookStandingMemoriesTest {

  private static final String STRIPE_QUESTION =
      "Checkout card payments through Stripe: where is the Stripe signing secret?";
  private static final String FLUTTER_QUESTION =
      "Is the mobile app written in Flutter and shipped weekly?";
  private static final String OFF_TOPIC = "What is the weather like on Mars today?";

  private MemoryService memory;
  private Memory checkout;
  private Memory webhooks;
  private Memory mobile;
  private FakeChatService chat;

  @BeforeEach
  void setUp() {
    memory = Memhook.builder().inMemory().embedder(HashingEmbedder.create()).build();
    checkout =
        memory.remember(
            MemoryDraft.of(
                Scope.DEFAULT, "The checkout service takes card payments through Stripe."));
    webhooks =
        memory.remember(
            MemoryDraft.of(
                Scope.DEFAULT, "Stripe webhooks are verified with the Stripe signing secret."));
    mobile =
        memory.remember(
            MemoryDraft.of(
                Scope.DEFAULT, "The mobile app is written in Flutter and shipped weekly."));
    memory.remember(
        MemoryDraft.of(Scope.DEFAULT, "Office plants are watered on Fridays by facilities."));
    chat = FakeChatService.builder().fallbackModel(c -> ModelReply.text("noted")).build();
  }

  @AfterEach
  void tearDown() {
    memory.close();
  }

  @Test
  void firstTurn_injectsTheStandingMemoriesThenTheRecall_inOneCall_andLaterTurnsDoNotRepeatThem()
      throws Exception {
    Memory preference =
        standing(Scope.DEFAULT, MemoryType.PREFERENCE, "Answer in British English.");
    Memory decision =
        standing(Scope.DEFAULT, MemoryType.DECISION, "The team chose Koin over Hilt.");
    MemoryHook hook = memory.hookInto(chat, options().build());

    send(STRIPE_QUESTION);
    send(FLUTTER_QUESTION);

    assertEquals(
        List.of(
            values(preference, decision, checkout, webhooks), // one call: standing first
            values(mobile)), // the next turn: only what its message recalls
        injectedBatches(chat));
    InjectionReceipt first = hook.receipts().get(0);
    assertEquals(HookPhase.BEFORE_SEND_LOOP, first.phase());
    assertEquals(
        List.of(preference.id(), decision.id(), checkout.id(), webhooks.id()), first.injectedIds());
    List<ReceiptCandidate> standing = decided(first, Decision.STANDING);
    assertEquals(List.of(preference.id(), decision.id()), ids(standing));
    for (ReceiptCandidate c : standing) {
      assertEquals(first.triggerMessageIds().get(0), c.triggerMessageId());
      assertTrue(Double.isNaN(c.score()), "not recalled, so not scored: " + c);
      assertEquals(List.of(), c.signals());
    }
    assertEquals(List.of(checkout.id(), webhooks.id()), ids(decided(first, Decision.SELECTED)));
    assertEquals(List.of(), decided(hook.receipts().get(1), Decision.STANDING));
    hook.close();
  }

  @Test
  void aFirstMessageThatRecallsNothing_stillGetsTheStandingMemories_withTheGateEmpty()
      throws Exception {
    Memory preference =
        standing(Scope.DEFAULT, MemoryType.PREFERENCE, "Answer in British English.");
    MemoryHook hook = memory.hookInto(chat, options().build());

    send(OFF_TOPIC);

    assertEquals(List.of(values(preference)), injectedBatches(chat));
    InjectionReceipt receipt = hook.receipts().get(0);
    assertEquals(PhaseStatus.Status.EMPTY, receipt.gate().status(), "standing memories pass none");
    assertEquals(PhaseStatus.Status.OK, receipt.injection().status());
    hook.close();
  }

  @Test
  void standingCharsZero_injectsOnlyWhatTheMessageRecalls() throws Exception {
    standing(Scope.DEFAULT, MemoryType.PREFERENCE, "Answer in British English.");
    MemoryHook hook = memory.hookInto(chat, options().standingChars(0).build());

    send(STRIPE_QUESTION);
    send(OFF_TOPIC);

    assertEquals(List.of(values(checkout, webhooks)), injectedBatches(chat));
    assertEquals(List.of(), decided(hook.receipts().get(0), Decision.STANDING));
    hook.close();
  }

  @Test
  void theStandingMemoriesWait_forTheFirstBeforeSendLoopThatInjects() throws Exception {
    MemoryHook hook = memory.hookInto(chat, options().build());
    send(OFF_TOPIC);
    assertEquals(List.of(), injectedBatches(chat), "nothing standing yet, nothing recalled");

    Memory preference =
        standing(Scope.DEFAULT, MemoryType.PREFERENCE, "Answer in British English.");
    send("And what is the weather like on Venus?");
    send("And on Jupiter, what is the weather like?");

    assertEquals(List.of(values(preference)), injectedBatches(chat), "offered once, when it came");
    hook.close();
  }

  @Test
  void aStandingMemoryOfTheHooksOwnConversation_isNotOffered() throws Exception {
    Memory own =
        memory.remember(
            MemoryDraft.builder(Scope.DEFAULT, "Call me Sam.")
                .type(MemoryType.PREFERENCE)
                .sourceSession("conversation-1")
                .build());
    Memory preference =
        standing(Scope.DEFAULT, MemoryType.PREFERENCE, "Answer in British English.");
    MemoryHook hook = memory.hookInto(chat, options().sessionId("conversation-1").build());

    send(OFF_TOPIC);

    assertEquals(List.of(values(preference)), injectedBatches(chat));
    List<ReceiptCandidate> left = decided(hook.receipts().get(0), Decision.OWN_CONVERSATION);
    assertEquals(List.of(own.id()), ids(left));
    hook.close();
  }

  @Test
  void severalScopes_shareTheBudget_inScopeOrder() throws Exception {
    Scope user = Scope.of("alice");
    Scope team = Scope.of("team");
    Memory userFact = standing(user, MemoryType.FACT, "Alice works from Lisbon.");
    Memory teamPreference = standing(team, MemoryType.PREFERENCE, "Review every pull request.");
    MemoryHook both =
        memory.hookInto(chat, options().scopes(List.of(user, team)).standingChars(1_000).build());
    send(OFF_TOPIC);
    assertEquals(
        List.of(values(userFact, teamPreference)),
        injectedBatches(chat),
        "the first scope's profile before the next one's, whatever their types");
    both.close();

    FakeChatService another =
        FakeChatService.builder().fallbackModel(c -> ModelReply.text("noted")).build();
    MemoryHook room =
        memory.hookInto(
            another,
            options()
                .scopes(List.of(user, team))
                .standingChars(entryWithScope(userFact) + 5)
                .build());
    another.sendUser(OFF_TOPIC).toCompletableFuture().get(30, TimeUnit.SECONDS);
    assertEquals(
        List.of(values(userFact)),
        injectedBatches(another),
        "the second scope's profile gets what the first left of the budget");
    room.close();
  }

  @Test
  void aStoreThatFailsToListThem_failsThatAttemptsRecall_andTheNextTurnOffersThemAgain()
      throws Exception {
    AtomicInteger listings = new AtomicInteger();
    MemoryStore failingOnce =
        new ForwardingMemoryStore(LuceneMemoryStore.inMemory()) {
          @Override
          public TypeListing listByType(Scope scope, List<MemoryType> types, int limit) {
            if (listings.getAndIncrement() == 0) {
              throw new MemoryStoreException("the store is away; retry");
            }
            return super.listByType(scope, types, limit);
          }
        };
    try (MemoryService failing =
        Memhook.builder().store(failingOnce).embedder(HashingEmbedder.create()).build()) {
      Memory preference =
          failing.remember(
              MemoryDraft.builder(Scope.DEFAULT, "Answer in British English.")
                  .type(MemoryType.PREFERENCE)
                  .build());
      MemoryHook hook = failing.hookInto(chat, options().build());

      send(OFF_TOPIC);
      InjectionReceipt failed = hook.receipts().get(0);
      assertEquals(PhaseStatus.Status.FAILED, failed.recall().status());
      assertTrue(failed.recall().detail().contains("the store is away"), failed.recall().detail());
      assertEquals(List.of(), injectedBatches(chat), "the turn went on without memories");

      send("And what is the weather like on Venus?");
      assertEquals(List.of(values(preference)), injectedBatches(chat));
      hook.close();
    }
  }

  @Test
  void standingChars_isRejectedBelowZero_andAboveHalfOfTheResultBudget() {
    assertEquals(HookOptions.DEFAULT_STANDING_CHARS, HookOptions.defaults().standingChars());
    IllegalArgumentException negative =
        assertThrows(IllegalArgumentException.class, () -> HookOptions.builder().standingChars(-1));
    assertTrue(negative.getMessage().contains("standingChars"), negative.getMessage());
    IllegalArgumentException tooLarge =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                HookOptions.builder()
                    .maxMemoryChars(2_000)
                    .maxResultChars(10_000)
                    .standingChars(5_001)
                    .build());
    assertTrue(
        tooLarge.getMessage().contains("standingChars (5001)")
            && tooLarge.getMessage().contains("maxResultChars (10000)"),
        tooLarge.getMessage());
    assertEquals(
        5_000,
        HookOptions.builder()
            .maxMemoryChars(2_000)
            .maxResultChars(10_000)
            .standingChars(5_000)
            .build()
            .standingChars());
    assertEquals(
        300,
        HookOptions.builder().standingChars(300).build().withSessionId("s").standingChars(),
        "withSessionId keeps the budget");
  }

  private HookOptions.Builder options() {
    return HookOptions.builder().recallTimeout(Duration.ofSeconds(30));
  }

  private Memory standing(Scope scope, MemoryType type, String text) {
    return memory.remember(MemoryDraft.builder(scope, text).type(type).summary(text).build());
  }

  private void send(String text) throws Exception {
    chat.sendUser(text).toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  private static List<Object> values(Memory... memories) {
    List<Object> out = new ArrayList<>();
    for (Memory m : memories) {
      out.add(m.id().value());
    }
    return out;
  }

  private static List<ReceiptCandidate> decided(InjectionReceipt receipt, Decision decision) {
    return receipt.candidates().stream().filter(c -> c.decision() == decision).toList();
  }

  /** What {@code m} costs in a result that names scopes (plain ASCII), with its comma. */
  private static int entryWithScope(Memory m) {
    return ("{\"id\":\""
                + m.id().value()
                + "\",\"scope\":\""
                + m.scope().value()
                + "\",\"summary\":\""
                + m.summary()
                + "\"}")
            .length()
        + 1;
  }

  private static List<MemoryId> ids(List<ReceiptCandidate> candidates) {
    return candidates.stream().map(ReceiptCandidate::id).toList();
  }
}
