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
import dev.memhook.core.TestStores;
import dev.memhook.testkit.FakeChatService;
import dev.memhook.testkit.Seeds;
import java.nio.file.Path;
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
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Property: however many threads fire both callbacks in whatever interleaving, no id is injected
 * twice by one hook, and every id that recall returned for a scanned message is injected exactly
 * once, on every {@link TestStores} configuration. Each case is a store and a seed drawn by {@link
 * Seeds}; a failure names both, and {@code -Dmemhook.seed=N} replays the seed on each store.
 */
class HookConcurrencyPropertyTest {

  @TempDir Path dir;

  private static final String[] TOPICS = {
    "kafka consumer lag alerts",
    "postgres vacuum schedule",
    "redis cache eviction policy",
    "kubernetes ingress timeouts",
    "react component testing",
    "gradle build cache",
    "jwt token expiry",
    "s3 bucket lifecycle rules",
    "grpc deadline propagation",
    "terraform state locking",
    "flutter release train",
    "elasticsearch shard sizing",
    "oauth refresh tokens",
    "nginx rate limits",
    "java virtual threads",
    "python packaging wheels",
    "docker layer caching",
    "spark shuffle tuning",
    "android proguard rules",
    "graphql schema stitching"
  };

  /** Seeds per store kept in memory, each a new interleaving of 2 to 8 threads. */
  private static final int SEEDS = 8;

  /**
   * Seeds per store kept on disk: each case remembers 60 memories, each a commit (an fsync) on such
   * a store, so it runs one case; the property is the hook's, and the store in memory runs the
   * rest.
   */
  private static final int DISK_SEEDS = 1;

  static Stream<Arguments> cases() {
    return TestStores.all()
        .flatMap(
            kind ->
                Seeds.seeds(kind.onDisk() ? DISK_SEEDS : SEEDS)
                    .mapToObj(seed -> Arguments.of(kind, seed)));
  }

  @ParameterizedTest(name = "{0}, seed {1}")
  @MethodSource("cases")
  void concurrentCallbacks_neverInjectAnIdTwice_andInjectEveryRecalledIdOnce(
      TestStores.Kind stores, long seed) throws Exception {
    Random random = new Random(seed);
    try (MemoryService memory =
        Memhook.builder()
            .store(stores.open(dir))
            .embedder(HashingEmbedder.create())
            // the oracle is the store's recall: captured turns of the racing chats would change it
            .noCapture()
            .build()) {
      for (String topic : TOPICS) {
        for (int i = 0; i < 3; i++) {
          memory.remember(
              MemoryDraft.of(
                  Scope.DEFAULT,
                  "Note " + i + " on " + topic + ": detail " + random.nextInt(1000)));
        }
      }
      FakeChatService chat = FakeChatService.create();
      HookOptions options =
          HookOptions.builder()
              .maxPerMessage(3)
              .maxPerCallback(1000)
              .recallTimeout(Duration.ofSeconds(60))
              .build();
      MemoryHook hook = memory.hookInto(chat, options);

      int threads = 2 + random.nextInt(7);
      int opsPerThread = 5 + random.nextInt(20);
      List<String> texts = new ArrayList<>();
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<List<CompletableFuture<Void>>>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        long threadSeed = random.nextLong();
        futures.add(
            pool.submit(
                () -> {
                  Random r = new Random(threadSeed);
                  List<CompletableFuture<Void>> fired = new ArrayList<>();
                  start.await();
                  for (int op = 0; op < opsPerThread; op++) {
                    String text =
                        "what about "
                            + TOPICS[r.nextInt(TOPICS.length)]
                            + " and "
                            + TOPICS[r.nextInt(TOPICS.length)];
                    switch (r.nextInt(4)) {
                      case 0 -> {
                        chat.append(ChatMessage.user(text));
                        synchronized (texts) {
                          texts.add(text);
                        }
                      }
                      case 1 -> {
                        chat.append(ChatMessage.reasoning(text));
                        synchronized (texts) {
                          texts.add(text);
                        }
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
      assertEquals(
          unique.size(),
          injected.size(),
          "an id was injected twice; " + Seeds.replay(seed) + ": " + injected);

      Set<String> expected = new LinkedHashSet<>();
      for (String text : texts) {
        for (MemoryId id : memory.recall(new RecallQuery(Scope.DEFAULT, text, 3)).ids()) {
          expected.add(id.value());
        }
      }
      assertEquals(expected, unique, "every recalled id is injected once; " + Seeds.replay(seed));
      Set<String> tracked = new HashSet<>();
      hook.injectedIds().forEach(id -> tracked.add(id.value()));
      assertEquals(
          unique, tracked, "the hook's set holds exactly what it injected; " + Seeds.replay(seed));
      assertTrue(
          chat.toolCalls("get_memory").stream()
              .allMatch(c -> !((List<?>) c.arguments().get("ids")).isEmpty()),
          "no empty batch is ever injected; " + Seeds.replay(seed));
    }
  }
}
