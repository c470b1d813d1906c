package dev.memhook.core.internal.inject;

import static dev.memhook.core.Eventually.eventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.HookOptions;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.RecallResult;
import dev.memhook.api.RecallTimeoutException;
import dev.memhook.api.RecalledMemory;
import dev.memhook.api.Scope;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.trace.HookPhase;
import dev.memhook.api.trace.MemoryListener;
import dev.memhook.core.internal.recall.Exclusion;
import dev.memhook.core.internal.sanitize.Sanitizer;
import dev.memhook.testkit.FakeChatService;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A recall nobody waits for any more is not run, and a recall the executor refuses fails fast:
 * either way the callback completes normally without memories and the host's turn goes on. The hook
 * runs over a recall function that counts its calls and an executor the test controls.
 */
class HookAbandonedRecallTest {

  private static final Duration NEVER = Duration.ofHours(1);

  private final MapStore store = new MapStore();
  private final Memory memory =
      store.add(ToolFixtures.memory("m1", Scope.DEFAULT, "the staging db resets at 2am").build());
  private final AtomicInteger recalls = new AtomicInteger();
  private final List<Throwable> failures = new CopyOnWriteArrayList<>();
  private final FakeChatService chat = FakeChatService.create();

  /** Holds every task until the test runs it. */
  private static final class HeldExecutor implements Executor {
    final BlockingQueue<Runnable> held = new LinkedBlockingQueue<>();

    @Override
    public void execute(Runnable task) {
      held.add(task);
    }

    void runAll() {
      for (Runnable task = held.poll(); task != null; task = held.poll()) {
        task.run();
      }
    }
  }

  private Exclusion.Result found() {
    return new Exclusion.Result(
        new RecallResult(List.of(new RecalledMemory(memory, 1.0, List.of())), List.of()),
        List.of());
  }

  private HookRecall counting() {
    return (q, exclusion) -> {
      recalls.incrementAndGet();
      return found();
    };
  }

  private AsyncMemoryHook hook(Duration timeout, HookRecall recall, Executor executor) {
    return hook(timeout, recall, executor, new CountDownLatch(0));
  }

  private AsyncMemoryHook hook(
      Duration timeout, HookRecall recall, Executor executor, CountDownLatch failed) {
    HookOptions options =
        HookOptions.builder()
            .recallTimeout(timeout)
            .listener(
                new MemoryListener() {
                  @Override
                  public void failed(String hookId, HookPhase phase, Throwable cause) {
                    failures.add(cause);
                    failed.countDown();
                  }
                })
            .build();
    return new AsyncMemoryHook(
        chat,
        options,
        new HookParts(
            store,
            recall,
            new StandingProfiles(store),
            Optional.empty(),
            Sanitizer.defaults(),
            executor,
            Clock.systemUTC()),
        HookEvents.detached(options.listener()),
        (c, h) -> {});
  }

  @Test
  void aTimedOutRecall_thatHadNotStarted_neverRunsTheRecallFunction() throws Exception {
    HeldExecutor executor = new HeldExecutor();
    AsyncMemoryHook hook = hook(Duration.ofMillis(1), counting(), executor);
    chat.append(ChatMessage.user("when does the staging db reset?"));

    chat.fireBeforeSendLoop().toCompletableFuture().get(30, TimeUnit.SECONDS);
    assertEquals(1, executor.held.size(), "the recall was handed to the executor");
    eventually(() -> assertEquals(1, failures.size(), "the timeout was reported: " + failures));
    assertInstanceOf(RecallTimeoutException.class, failures.get(0));

    executor.runAll();
    assertEquals(0, recalls.get(), "the abandoned recall ran after its callback gave up");
    assertEquals(List.of(), chat.toolCalls("get_memory"));
    assertEquals(Set.of(), hook.injectedIds());
  }

  @Test
  void aUserMessageWhoseRecallTimedOut_isNotTakenForOneTheHostShowedTooLate() throws Exception {
    HeldExecutor executor = new HeldExecutor();
    AsyncMemoryHook hook = hook(Duration.ofMillis(1), counting(), executor);
    chat.append(ChatMessage.user("when does the staging db reset?"));
    chat.fireBeforeSendLoop().toCompletableFuture().get(30, TimeUnit.SECONDS);
    eventually(() -> assertEquals(1, failures.size(), "the timeout was reported: " + failures));

    chat.append(ChatMessage.assistant("I do not know."));
    chat.fireAfterSend().toCompletableFuture().get(30, TimeUnit.SECONDS);

    assertNull(hook.hostWarning(), "the host showed the message in time; only the recall was slow");
    assertEquals(1, executor.held.size(), "the handed-back message is recalled again");

    // the check itself still works for this hook: a user message no beforeSendLoop saw
    chat.append(ChatMessage.user("and the prod db?"), ChatMessage.assistant("No idea."));
    chat.fireAfterSend().toCompletableFuture().get(30, TimeUnit.SECONDS);
    assertNotNull(hook.hostWarning());
  }

  @Test
  void aRecallThatTimesOutMidway_skipsTheMessagesNotYetRecalled() throws Exception {
    CountDownLatch timedOut = new CountDownLatch(1);
    HookRecall firstWaitsOutTheTimeout =
        (q, exclusion) -> {
          recalls.incrementAndGet();
          try {
            timedOut.await(30, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          return found();
        };
    // runs the recall on the callback's thread, right after the timeout is armed; the timeout is
    // long enough that the first recall starts before it fires, and that recall then outlasts it
    Executor inline = Runnable::run;
    AsyncMemoryHook hook = hook(Duration.ofMillis(500), firstWaitsOutTheTimeout, inline, timedOut);
    chat.append(
        ChatMessage.user("when does the staging db reset?"),
        ChatMessage.user("and who gets paged for it?"),
        ChatMessage.user("is that documented somewhere?"));

    chat.fireBeforeSendLoop().toCompletableFuture().get(30, TimeUnit.SECONDS);
    assertEquals(1, recalls.get(), "messages after the timeout were still recalled");
    eventually(
        () -> assertEquals(1, failures.size(), "the timeout was reported once: " + failures));
    assertInstanceOf(RecallTimeoutException.class, failures.get(0));
    assertEquals(List.of(), chat.toolCalls("get_memory"));
    assertEquals(Set.of(), hook.injectedIds());
  }

  @Test
  void disposingTheHook_completesTheWaitingCallback_andItsRecallNeverRuns() throws Exception {
    HeldExecutor executor = new HeldExecutor();
    AsyncMemoryHook hook = hook(NEVER, counting(), executor);
    chat.append(ChatMessage.user("when does the staging db reset?"));

    CompletableFuture<Void> callback = chat.fireBeforeSendLoop().toCompletableFuture();
    assertEquals(1, executor.held.size(), "the recall was handed to the executor");
    assertFalse(callback.isDone(), "the callback waits for its recall");

    hook.dispose();
    callback.get(30, TimeUnit.SECONDS); // long before the recall timeout
    executor.runAll();
    assertEquals(0, recalls.get(), "the recall of a disposed hook ran");
    assertEquals(List.of(), failures, "disposal is not a failure");
    assertEquals(List.of(), chat.toolCalls("get_memory"));
    assertEquals(Set.of(), hook.injectedIds());
  }

  @Test
  void disposingTheHookMidway_skipsTheMessagesNotYetRecalled() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch disposed = new CountDownLatch(1);
    HookRecall firstWaitsForDisposal =
        (q, exclusion) -> {
          recalls.incrementAndGet();
          entered.countDown();
          try {
            disposed.await(30, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          return found();
        };
    HeldExecutor executor = new HeldExecutor();
    AsyncMemoryHook hook = hook(NEVER, firstWaitsForDisposal, executor);
    chat.append(
        ChatMessage.user("when does the staging db reset?"),
        ChatMessage.user("and who gets paged for it?"));

    CompletableFuture<Void> callback = chat.fireBeforeSendLoop().toCompletableFuture();
    Thread worker = new Thread(executor::runAll, "recall-worker");
    worker.start();
    assertTrue(entered.await(30, TimeUnit.SECONDS), "the recall never started");
    hook.dispose();
    disposed.countDown();
    worker.join(TimeUnit.SECONDS.toMillis(30));
    assertFalse(worker.isAlive(), "the recall did not finish");

    callback.get(30, TimeUnit.SECONDS);
    assertEquals(1, recalls.get(), "the second message was recalled for a disposed hook");
    assertEquals(List.of(), chat.toolCalls("get_memory"));
    assertEquals(Set.of(), hook.injectedIds());
  }

  @Test
  void aSaturatedRecallPool_refusesTheRecall_andTheTurnGoesOnWithoutMemories() throws Exception {
    ThreadPoolExecutor pool = RecallPool.create(1, 1);
    CountDownLatch gate = new CountDownLatch(1);
    CountDownLatch blockersDone = new CountDownLatch(2);
    Runnable blocked =
        () -> {
          try {
            gate.await(30, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          blockersDone.countDown();
        };
    try {
      pool.execute(blocked); // takes the only thread
      pool.execute(blocked); // fills the queue
      AsyncMemoryHook hook = hook(NEVER, counting(), pool);

      chat.sendUser("when does the staging db reset?")
          .toCompletableFuture()
          .get(30, TimeUnit.SECONDS);
      assertEquals(
          List.of(ChatRole.USER, ChatRole.ASSISTANT),
          chat.messages().stream().map(ChatMessage::role).toList(),
          "the turn went on: the model answered");
      eventually(() -> assertEquals(1, failures.size(), "the refusal was reported: " + failures));
      assertInstanceOf(RejectedExecutionException.class, failures.get(0));
      assertTrue(failures.get(0).getMessage().contains("saturated"), failures.get(0).getMessage());
      assertEquals(0, recalls.get());
      assertEquals(List.of(), chat.toolCalls("get_memory"));
      assertEquals(Set.of(), hook.injectedIds());

      // once the pool has room again, the same hook recalls and injects as usual
      gate.countDown();
      assertTrue(blockersDone.await(30, TimeUnit.SECONDS), "the pool never drained");
      chat.sendUser("staging db reset time?").toCompletableFuture().get(30, TimeUnit.SECONDS);
      assertEquals(1, recalls.get());
      assertEquals(Set.of(memory.id()), hook.injectedIds());
      assertEquals(1, chat.toolCalls("get_memory").size());
      eventually(() -> assertEquals(1, failures.size(), "nothing more failed: " + failures));
    } finally {
      gate.countDown();
      pool.shutdownNow();
    }
  }

  @Test
  void aRecallFunctionThatThrows_failsOnlyThatCallback() throws Exception {
    HeldExecutor executor = new HeldExecutor();
    IllegalStateException boom = new IllegalStateException("boom");
    AsyncMemoryHook hook =
        hook(
            NEVER,
            (q, exclusion) -> {
              recalls.incrementAndGet();
              throw boom;
            },
            executor);
    chat.append(ChatMessage.user("when does the staging db reset?"));
    CompletableFuture<Void> callback = chat.fireBeforeSendLoop().toCompletableFuture();
    executor.runAll();
    callback.get(30, TimeUnit.SECONDS);
    assertEquals(1, recalls.get());
    eventually(() -> assertEquals(List.of(boom), failures));
    assertEquals(Set.<MemoryId>of(), hook.injectedIds());
  }
}
