package dev.memhook.core.capture;

import static dev.memhook.core.capture.CaptureFixtures.flush;
import static dev.memhook.core.capture.CaptureFixtures.observations;
import static dev.memhook.core.capture.CaptureFixtures.postTool;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.Scope;
import dev.memhook.api.capture.CaptureOptions;
import dev.memhook.api.capture.CaptureStats;
import dev.memhook.api.capture.ObserveResult;
import dev.memhook.api.capture.ShedPolicy;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * 10,000 events from 8 threads into a deliberately small queue: every event is counted exactly
 * once, and every accepted event that the policy did not drop is stored and searchable.
 */
class CaptureLoadTest {

  private static final int THREADS = 8;
  private static final int PER_THREAD = 1_250;
  private static final Pattern TOKEN = Pattern.compile("qz[a-k]+");

  /** A word no other event shares, letters only so every analyzer keeps it whole. */
  private static String token(int thread, int i) {
    StringBuilder sb = new StringBuilder("qz");
    for (char c : (thread + "k" + i).toCharArray()) {
      sb.append(c == 'k' ? 'k' : (char) ('a' + (c - '0')));
    }
    return sb.toString();
  }

  @ParameterizedTest
  @EnumSource(ShedPolicy.class)
  void everyEventIsCountedOnce_andEveryKeptEventIsSearchable(ShedPolicy policy) throws Exception {
    Set<String> accepted = ConcurrentHashMap.newKeySet();
    Set<String> shed = ConcurrentHashMap.newKeySet();
    CaptureOptions options =
        CaptureOptions.builder().queueCapacity(16).batchSize(32).shedPolicy(policy).build();
    try (MemoryService memory =
        // a heap store: this is about counting and queueing, and a disk's commits would make a
        // run under CALLER_RUNS (a commit per caller's batch) take minutes; CaptureCrashTest
        // covers what survives on disk
        Memhook.builder().inMemory().embedder(HashingEmbedder.create()).capture(options).build()) {
      ExecutorService pool = Executors.newFixedThreadPool(THREADS);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        done.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < PER_THREAD; i++) {
                    String token = token(thread, i);
                    ObserveResult r =
                        memory
                            .capture()
                            .observe(
                                postTool(
                                    "load-" + thread,
                                    i,
                                    "Bash",
                                    "grep " + token,
                                    "found " + token));
                    (r == ObserveResult.ACCEPTED ? accepted : shed).add(token);
                  }
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
      pool.shutdown();
      flush(memory);

      CaptureStats stats = memory.capture().stats();
      int sent = THREADS * PER_THREAD;
      assertEquals(sent, accepted.size() + shed.size(), "every observe answered once");
      assertEquals(sent, stats.accepted() + stats.shed() + stats.duplicates());
      assertEquals(accepted.size(), stats.accepted());
      assertEquals(0, stats.failed());
      assertEquals(0, stats.pending());
      assertEquals(stats.accepted(), stats.processed() + stats.dropped(), stats.toString());
      if (policy != ShedPolicy.DROP_NEWEST) {
        assertEquals(0, shed.size(), "only DROP_NEWEST refuses events");
      }

      Set<String> stored = new HashSet<>();
      for (Memory m : observations(memory)) {
        Matcher token = TOKEN.matcher(m.content());
        assertTrue(token.find(), m.content());
        assertTrue(stored.add(token.group()), "stored twice: " + token.group());
      }
      assertEquals(stats.processed(), stored.size());
      assertTrue(accepted.containsAll(stored), "nothing shed was stored");
      if (policy != ShedPolicy.DROP_OLDEST) {
        assertEquals(accepted, stored, "every accepted event is stored");
      }
      int checked = 0;
      for (String token : stored) {
        if (checked++ == 200) {
          break;
        }
        List<String> found =
            memory.recall(new RecallQuery(Scope.DEFAULT, token, 3)).memories().stream()
                .map(r -> r.memory().content())
                .toList();
        assertTrue(
            found.stream().anyMatch(c -> c.contains(token)), token + " not recalled: " + found);
      }
    }
  }
}
