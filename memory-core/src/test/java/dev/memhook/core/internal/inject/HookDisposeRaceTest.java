package dev.memhook.core.internal.inject;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.HookOptions;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatService;
import dev.memhook.api.chat.ToolResult;
import dev.memhook.api.trace.PhaseStatus;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.testkit.FakeChatService;
import dev.memhook.testkit.ForwardingChatService;
import dev.memhook.testkit.Seeds;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Once {@code dispose()} has returned, a hook starts no injection, however many callbacks were
 * running or waiting for its lock: in every trial, threads fire {@code beforeSendLoop} with new
 * user messages while the test disposes the hook at a random moment, and the {@code get_memory}
 * calls queued on the chat service are counted when {@code dispose()} returns and again once every
 * callback has completed. Timings vary by small random pauses from one seed, printed on failure.
 */
class HookDisposeRaceTest {

  private static final int TRIALS = 200;
  private static final int THREADS = 8;
  private static final int FIRINGS_PER_THREAD = 3;

  /** The longest random pause before a firing or the dispose, in nanoseconds. */
  private static final int MAX_PAUSE_NANOS = 1_000_000;

  /**
   * How long the callbacks of one trial may take before the test calls them stalled: a liveness
   * bound, not a measurement.
   */
  private static final long LIVENESS_SECONDS = 30;

  private static final String[] TOPICS = {
    "kafka consumer lag alerts",
    "postgres vacuum schedule",
    "redis cache eviction policy",
    "kubernetes ingress timeouts",
    "gradle build cache",
    "jwt token expiry",
    "s3 bucket lifecycle rules",
    "terraform state locking",
    "nginx rate limits",
    "docker layer caching"
  };

  @Test
  void afterDisposeReturns_noGetMemoryCallIsQueued_whateverCallbacksWereRacingIt()
      throws Exception {
    long seed = Seeds.seed();
    Random random = new Random(seed);
    List<String> violations = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try (MemoryService memory =
        Memhook.builder().inMemory().embedder(HashingEmbedder.create()).noCapture().build()) {
      for (String topic : TOPICS) {
        for (int i = 0; i < 3; i++) {
          memory.remember(MemoryDraft.of(Scope.DEFAULT, "Note " + i + " on " + topic + "."));
        }
      }
      HookOptions options =
          HookOptions.builder()
              .maxPerMessage(3)
              .maxPerCallback(10)
              .recallTimeout(Duration.ofSeconds(LIVENESS_SECONDS))
              .build();
      for (int trial = 0; trial < TRIALS; trial++) {
        FakeChatService chat = FakeChatService.create();
        Semaphore injecting = new Semaphore(0);
        MemoryHook hook =
            memory.hookInto(slowToInject(chat, random.nextLong(), injecting), options);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<List<CompletableFuture<Void>>>> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
          long threadSeed = random.nextLong();
          threads.add(pool.submit(() -> fire(chat, new Random(threadSeed), start)));
        }
        // dispose at a random moment; in half the trials, while an injection is on its way
        boolean midInjection = random.nextBoolean();
        long pause = random.nextInt(MAX_PAUSE_NANOS);
        start.countDown();
        if (midInjection) {
          injecting.tryAcquire(LIVENESS_SECONDS, TimeUnit.SECONDS);
        }
        LockSupport.parkNanos(pause);
        hook.dispose();
        int atDispose = chat.toolCalls("get_memory").size();

        List<CompletableFuture<Void>> callbacks = new ArrayList<>();
        for (Future<List<CompletableFuture<Void>>> t : threads) {
          callbacks.addAll(t.get(LIVENESS_SECONDS, TimeUnit.SECONDS));
        }
        CompletableFuture.allOf(callbacks.toArray(CompletableFuture[]::new))
            .get(LIVENESS_SECONDS, TimeUnit.SECONDS);
        int atEnd = chat.toolCalls("get_memory").size();
        if (atEnd != atDispose) {
          violations.add(
              "trial " + trial + ": " + atDispose + " calls when dispose() returned, " + atEnd);
        }
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(List.of(), violations, Seeds.replay(seed));
  }

  @Test
  void disposingFromInsideInjectToolCall_doesNotDeadlock_andNothingIsQueuedAfterwards()
      throws Exception {
    try (MemoryService memory =
        Memhook.builder().inMemory().embedder(HashingEmbedder.create()).noCapture().build()) {
      memory.remember(MemoryDraft.of(Scope.DEFAULT, "Note on " + TOPICS[0] + "."));
      memory.remember(MemoryDraft.of(Scope.DEFAULT, "Note on " + TOPICS[1] + "."));
      FakeChatService chat = FakeChatService.create();
      AtomicReference<MemoryHook> hook = new AtomicReference<>();
      ChatService disposingHost =
          new ForwardingChatService(chat) {
            @Override
            public CompletionStage<ToolResult> injectToolCall(
                String toolName, Map<String, Object> args) {
              hook.get().dispose(); // on the injecting thread
              return super.injectToolCall(toolName, args);
            }
          };
      hook.set(
          memory.hookInto(
              disposingHost,
              HookOptions.builder().recallTimeout(Duration.ofSeconds(LIVENESS_SECONDS)).build()));

      chat.append(ChatMessage.user("what about " + TOPICS[0] + "?"));
      chat.fireBeforeSendLoop().toCompletableFuture().get(LIVENESS_SECONDS, TimeUnit.SECONDS);
      assertTrue(hook.get().isDisposed());
      // the dispose unregistered the tool, so the chat service refused the call under way
      assertEquals(List.of(), chat.toolCalls("get_memory"));
      assertEquals(PhaseStatus.Status.FAILED, hook.get().receipts().get(0).injection().status());

      chat.append(ChatMessage.user("what about " + TOPICS[1] + "?"));
      chat.fireBeforeSendLoop().toCompletableFuture().get(LIVENESS_SECONDS, TimeUnit.SECONDS);
      assertEquals(List.of(), chat.toolCalls("get_memory"), "nothing after the dispose");
      assertEquals(1, hook.get().receipts().size(), "no attempt after the dispose");
    }
  }

  /**
   * {@code chat} as a host whose {@code injectToolCall} takes a little time, as a real host's may:
   * it releases {@code injecting}, then pauses up to {@value #MAX_PAUSE_NANOS} ns before the call
   * is queued.
   */
  private static ChatService slowToInject(FakeChatService chat, long seed, Semaphore injecting) {
    Random random = new Random(seed);
    return new ForwardingChatService(chat) {
      @Override
      public CompletionStage<ToolResult> injectToolCall(String toolName, Map<String, Object> args) {
        injecting.release();
        LockSupport.parkNanos(random.nextInt(MAX_PAUSE_NANOS));
        return super.injectToolCall(toolName, args);
      }
    };
  }

  /** Appends a user message and fires {@code beforeSendLoop}, a few times, after random pauses. */
  private static List<CompletableFuture<Void>> fire(
      FakeChatService chat, Random random, CountDownLatch start) throws InterruptedException {
    List<CompletableFuture<Void>> fired = new ArrayList<>();
    start.await();
    for (int i = 0; i < FIRINGS_PER_THREAD; i++) {
      chat.append(ChatMessage.user("what about " + TOPICS[random.nextInt(TOPICS.length)] + "?"));
      LockSupport.parkNanos(random.nextInt(MAX_PAUSE_NANOS));
      fired.add(chat.fireBeforeSendLoop().toCompletableFuture());
    }
    return fired;
  }
}
