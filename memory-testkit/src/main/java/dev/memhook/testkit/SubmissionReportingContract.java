package dev.memhook.testkit;

import static dev.memhook.testkit.ChatContractSupport.assertAppearance;
import static dev.memhook.testkit.ChatContractSupport.await;
import static dev.memhook.testkit.ChatContractSupport.generous;
import static dev.memhook.testkit.ChatContractSupport.injectedReceipt;
import static dev.memhook.testkit.ChatContractSupport.reportsOrSkip;
import static dev.memhook.testkit.ChatContractSupport.texts;
import static dev.memhook.testkit.ChatContractSupport.userMessages;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatService;
import dev.memhook.api.chat.Registration;
import dev.memhook.api.chat.SubmittedRequest;
import dev.memhook.api.trace.InjectionReceipt;
import dev.memhook.api.trace.PhaseStatus;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * What a chat service that reports its submissions ({@link ChatService#onRequestSubmitted}) owes a
 * memory hook: each request reported once, in order, before the model reads it; listeners isolated;
 * removal; and the hook's receipts linked to the requests that carried its pair. {@link
 * ChatServiceContract} runs these; each is skipped for a chat service that does not report.
 */
public interface SubmissionReportingContract {

  /** A fresh conversation on the chat service under test, closed after the test. */
  ChatHarness harness(ModelScript model);

  /** A fresh memory service, closed after the test; the test is skipped when there is none. */
  MemoryService memoryServiceOrSkip();

  // ---- submitted requests ------------------------------------------------------------------

  @Test
  default void onRequestSubmitted_reportsEachRequestOnce_inOrder_beforeTheModelReadsIt() {
    ModelScript model = ModelScript.create();
    ChatHarness h = harness(model);
    List<SubmittedRequest> reported = new CopyOnWriteArrayList<>();
    List<Integer> modelRequestsBefore = new CopyOnWriteArrayList<>();
    reportsOrSkip(
        h.chat(),
        r -> {
          modelRequestsBefore.add(model.requests().size());
          reported.add(r);
        });

    await(h.sendUser("first question"));
    await(h.sendUser("second question"));

    assertEquals(2, model.requests().size());
    assertEquals(2, reported.size(), "one report per request: " + reported);
    assertEquals(List.of(0, 1), modelRequestsBefore, "each reported before the model read it");
    assertFalse(
        reported.get(0).attemptId().equals(reported.get(1).attemptId()), "attempt ids differ");
    for (int i = 0; i < 2; i++) {
      assertEquals(
          texts(userMessages(model.requests().get(i).messages())),
          texts(userMessages(reported.get(i).messages())),
          "request " + i + " carried the user messages the model read");
    }
  }

  @Test
  default void onRequestSubmitted_aListenerThatThrows_failsNeitherTheSendNorTheNextListener() {
    ModelScript model = ModelScript.create().then(ModelReply.text("still answered"));
    ChatHarness h = harness(model);
    List<SubmittedRequest> reported = new CopyOnWriteArrayList<>();
    reportsOrSkip(
        h.chat(),
        r -> {
          throw new IllegalStateException("a broken listener");
        });
    h.chat().onRequestSubmitted(reported::add);

    await(h.sendUser("hello"));

    assertEquals(1, model.requests().size());
    assertEquals(1, reported.size(), "the next listener heard of the request");
    List<ChatMessage> messages = h.chat().messages();
    assertEquals("still answered", messages.get(messages.size() - 1).text());
  }

  @Test
  default void onRequestSubmitted_removed_reportsNoMore_andRemovingTwiceIsHarmless() {
    ModelScript model = ModelScript.create();
    ChatHarness h = harness(model);
    List<SubmittedRequest> reported = new CopyOnWriteArrayList<>();
    Registration registration = reportsOrSkip(h.chat(), reported::add);

    await(h.sendUser("one"));
    registration.remove();
    registration.remove();
    await(h.sendUser("two"));

    assertEquals(2, model.requests().size());
    assertEquals(1, reported.size(), "reported until removed: " + reported);
  }

  @Test
  default void hookInto_aPairARequestCarried_isDelivered_andEachLaterRequestAddsAnAppearance() {
    MemoryService memory = memoryServiceOrSkip();
    Memory m = memory.remember(MemoryDraft.of(Scope.DEFAULT, "The staging database is pg-stage-7"));
    ModelScript model = ModelScript.create();
    ChatHarness h = harness(model);
    MemoryHook hook = memory.hookInto(h.chat(), generous());
    List<SubmittedRequest> reported = new CopyOnWriteArrayList<>();
    reportsOrSkip(h.chat(), reported::add);

    await(h.sendUser("which staging database do we use?"));

    InjectionReceipt receipt = injectedReceipt(hook);
    assertEquals(List.of(m.id()), receipt.injectedIds());
    assertEquals(PhaseStatus.Status.DELIVERED, receipt.delivery().status(), receipt.toString());
    assertEquals(1, receipt.appearances().size());
    assertAppearance(receipt, receipt.appearances().get(0), reported.get(0));

    await(h.sendUser("and which one is production?"));

    InjectionReceipt later = injectedReceipt(hook);
    assertEquals(receipt.id(), later.id(), "still one injection");
    assertEquals(1, hook.injectedIds().size());
    assertEquals(2, later.appearances().size(), "the second request carried the pair too");
    assertAppearance(later, later.appearances().get(1), reported.get(reported.size() - 1));
  }
}
