package dev.memhook.core.capture;

import static dev.memhook.core.capture.CaptureFixtures.flush;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.HookOptions;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEvent;
import dev.memhook.api.capture.LifecycleEventType;
import dev.memhook.api.trace.InjectionReceipt;
import dev.memhook.api.trace.ReceiptCandidate;
import dev.memhook.api.trace.ReceiptCandidate.Decision;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.testkit.FakeChatService;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a capturing hook's own conversation captured never takes one of its recall places: the
 * message it just captured comes back from recall with a perfect match, and is left out before
 * {@link HookOptions#maxPerMessage()} counts, so every relevant memory is still injected.
 */
class HookOwnConversationTest {

  /**
   * What the user says: a statement with its question, so capture stores it as an observation (a
   * bare question is kept only as its session's context) and it matches itself perfectly.
   */
  private static final String QUESTION =
      "I have to deploy the billing service to production tonight. How do we deploy it?";

  private static final List<String> RELEVANT =
      List.of(
          "Deploy the billing service to production with the blue-green deploy script.",
          "A production deploy of the billing service needs an approved change ticket.",
          "The billing service deploys to production only after 18:00 UTC.");

  /**
   * How long a turn may take before the test calls it stalled: a liveness bound, far beyond what a
   * turn needs, not a measurement.
   */
  private static final long LIVENESS_SECONDS = 60;

  @TempDir Path dir;

  private MemoryService service() {
    return Memhook.builder().directory(dir).embedder(HashingEmbedder.create()).build();
  }

  private static Set<MemoryId> rememberRelevant(MemoryService memory, Scope scope) {
    return RELEVANT.stream()
        .map(text -> memory.remember(MemoryDraft.of(scope, text)).id())
        .collect(Collectors.toSet());
  }

  private static HookOptions options(Scope scope, String session) {
    return HookOptions.builder()
        .scope(scope)
        .sessionId(session)
        .maxPerMessage(3)
        .recallTimeout(Duration.ofSeconds(LIVENESS_SECONDS))
        .build();
  }

  @Test
  void theQuestionCapturedFromThisConversation_takesNoPlace_andAllThreeRelevantAreInjected()
      throws Exception {
    try (MemoryService memory = service()) {
      Set<MemoryId> relevant = rememberRelevant(memory, Scope.DEFAULT);
      // the conversation asked the question before, and capture stored it: a perfect match
      memory
          .capture()
          .observe(
              LifecycleEvent.builder(LifecycleEventType.PROMPT_SUBMIT, "conv-1")
                  .project("chat")
                  .cwd("-")
                  .data(EventData.prompt(QUESTION))
                  .build());
      flush(memory);
      MemoryId own =
          CaptureFixtures.observations(memory).stream()
              .filter(m -> m.content().equals(QUESTION))
              .findFirst()
              .orElseThrow()
              .id();
      assertEquals(MemoryType.OBSERVATION, memory.get(own).orElseThrow().type());

      FakeChatService chat = FakeChatService.create();
      try (MemoryHook hook = memory.hookInto(chat, options(Scope.DEFAULT, "conv-1"))) {
        chat.sendUser(QUESTION).toCompletableFuture().get(LIVENESS_SECONDS, TimeUnit.SECONDS);

        assertEquals(relevant, hook.injectedIds(), () -> "receipts: " + hook.receipts());
        InjectionReceipt receipt = hook.receipts().get(0);
        assertEquals(relevant, Set.copyOf(receipt.injectedIds()));
        List<ReceiptCandidate> ownCandidates =
            receipt.candidates().stream().filter(c -> c.id().equals(own)).toList();
        assertEquals(1, ownCandidates.size(), "the own observation is reported once");
        assertEquals(Decision.OWN_CONVERSATION, ownCandidates.get(0).decision());
        assertEquals(
            relevant,
            receipt.candidates().stream()
                .filter(c -> c.decision() == Decision.SELECTED)
                .map(ReceiptCandidate::id)
                .collect(Collectors.toSet()),
            "the three relevant memories, and nothing else, are selected");
      }
    }
  }

  @Test
  void manyHooksFiringAtOnce_eachInjectAllThreeRelevant_whateverTheirConversationsCaptured()
      throws Exception {
    int threads = 4;
    int firingsPerThread = 25;
    try (MemoryService memory = service()) {
      List<Set<MemoryId>> relevant = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        relevant.add(rememberRelevant(memory, Scope.of("team-" + t)));
      }
      List<String> wrong = new CopyOnWriteArrayList<>();
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      try {
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          int thread = t;
          done.add(
              pool.submit(
                  () -> {
                    Scope scope = Scope.of("team-" + thread);
                    // every firing of this thread continues one conversation, which captures
                    // each question it asks: from the second firing on, recall finds them
                    for (int firing = 0; firing < firingsPerThread; firing++) {
                      FakeChatService chat = FakeChatService.create();
                      try (MemoryHook hook =
                          memory.hookInto(chat, options(scope, "conv-" + thread))) {
                        chat.sendUser(QUESTION)
                            .toCompletableFuture()
                            .get(LIVENESS_SECONDS, TimeUnit.SECONDS);
                        if (!hook.injectedIds().equals(relevant.get(thread))) {
                          wrong.add(
                              "thread "
                                  + thread
                                  + ", firing "
                                  + firing
                                  + ": injected "
                                  + hook.injectedIds().size()
                                  + " of 3; "
                                  + hook.receipts());
                        }
                      }
                    }
                    return null;
                  }));
        }
        for (Future<?> f : done) {
          f.get(LIVENESS_SECONDS * firingsPerThread, TimeUnit.SECONDS);
        }
      } finally {
        pool.shutdownNow();
      }
      assertTrue(wrong.isEmpty(), () -> wrong.size() + " firings fell short: " + wrong.get(0));
    }
  }
}
