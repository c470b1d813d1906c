package dev.memhook.core.internal.inject;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.HookOptions;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.Scope;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ToolCall;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.testkit.FakeChatService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Property: however many threads fire both callbacks in whatever interleaving, no id is injected
 * twice by one hook, and every id that recall returned for a scanned message is injected exactly
 * once. Each case is a seed; a failure names it, and {@code -Dmemhook.seed=N} replays one.
 */
abstract class HookConcurrencyPropertyContract {

  /** A new, empty, unattached store for one service. */
  abstract dev.memhook.api.spi.MemoryStore newStore();


  private static final String[] TOPICS = {
      "kafka consumer lag alerts", "postgres vacuum schedule", "redis cache eviction policy",
      "kubernetes ingress timeouts", "react component testing", "gradle build cache", "jwt token expiry",
      "s3 bucket lifecycle rules", "grpc deadline propagation", "terraform state locking",
      "flutter release train", "elasticsearch shard sizing", "oauth refresh tokens", "nginx rate limits",
      "java virtual threads", "python packaging wheels", "docker layer caching", "spark shuffle tuning",
      "android proguard rules", "graphql schema stitching"};

  static LongStream seeds() {
    String fixed = System.getProperty("memhook.seed");
    return fixed != null ? LongStream.of(Long.parseLong(fixed)) : LongStream.rangeClosed(1, 12);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void concurrentCallbacks_neverInjectAnIdTwice_andInjectEveryRecalledIdOnce(long seed) throws Exception {
    Random random = new Random(seed);
    try (MemoryService memory = Memhook.builder().store(newStore()).embedder(HashingEmbedder.create()).build()) {
      for (String topic : TOPICS) {
        for (int i = 0; i < 3; i++) {
          memory.remember(MemoryDraft.of(Scope.DEFAULT, "Note " + i + " on " + topic + ": detail " + random.nextInt(1000)));
        }
      }
      FakeChatService chat = FakeChatService.create();
      HookOptions options = HookOptions.builder()
          .maxPerMessage(3).maxPerCallback(1000).recallTimeout(Duration.ofSeconds(60)).build();
      MemoryHook hook = memory.hookInto(chat, options);

      int threads = 2 + random.nextInt(7);
      int opsPerThread = 5 + random.nextInt(20);
      List<String> texts = new ArrayList<>();
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<List<CompletableFuture<Void>>>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        long threadSeed = random.nextLong();
        futures.add(pool.submit(() -> {
          Random r = new Random(threadSeed);
          List<CompletableFuture<Void>> fired = new ArrayList<>();
          start.await();
          for (int op = 0; op < opsPerThread; op++) {
            String text = "what about " + TOPICS[r.nextInt(TOPICS.length)] + " and " + TOPICS[r.nextInt(TOPICS.length)];
            switch (r.nextInt(4)) {
              case 0 -> {
                chat.append(ChatMessage.user(text));
                synchronized (texts) { texts.add(text); }
              }
              case 1 -> {
                chat.append(ChatMessage.reasoning(text));
                synchronized (texts) { texts.add(text); }
              }
              case 2 -> fired.add(chat.fireBeforeSendLoop().toCompletableFuture());
              default -> fired.add(chat.fireAfterSend().toCompletableFuture());
            }
          }
          return fired;
        }));
      }
      start.countDown();
      List<CompletableFuture<Void>> all = new ArrayList<>();
      for (Future<List<CompletableFuture<Void>>> f : futures) {
        all.addAll(f.get(60, TimeUnit.SECONDS));
      }
      pool.shutdown();
      CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
      // a last round scans whatever arrived after the racing callbacks
      chat.fireBeforeSendLoop().toCompletableFuture().get(60, TimeUnit.SECONDS);
      chat.fireAfterSend().toCompletableFuture().get(60, TimeUnit.SECONDS);

      List<String> injected = new ArrayList<>();
      for (ToolCall call : chat.toolCalls("get_memory")) {
        for (Object id : (List<?>) call.arguments().get("ids")) {
          injected.add((String) id);
        }
      }
      Set<String> unique = new HashSet<>(injected);
      assertEquals(unique.size(), injected.size(), "an id was injected twice; seed " + seed + ": " + injected);

      Set<String> expected = new LinkedHashSet<>();
      for (String text : texts) {
        for (MemoryId id : memory.recall(new RecallQuery(Scope.DEFAULT, text, 3)).ids()) {
          expected.add(id.value());
        }
      }
      assertEquals(expected, unique, "every recalled id is injected once; seed " + seed);
      Set<String> tracked = new HashSet<>();
      hook.injectedIds().forEach(id -> tracked.add(id.value()));
      assertEquals(unique, tracked, "the hook's set holds exactly what it injected; seed " + seed);
      assertTrue(chat.toolCalls("get_memory").stream().allMatch(c -> !((List<?>) c.arguments().get("ids")).isEmpty()),
          "no empty batch is ever injected; seed " + seed);
    }
  }
}
