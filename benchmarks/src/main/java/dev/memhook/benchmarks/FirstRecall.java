package dev.memhook.benchmarks;

import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.Scope;
import dev.memhook.core.Memhook;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * What a new process pays before its first recall: run once with {@code prepare DIR N} to store N
 * generated memories (seed 42) with the default service, then with {@code measure DIR}, each in a
 * new JVM, to time {@code Memhook.builder().directory(DIR).build()}, the first recall and the
 * second (a different query), with the default service (int8 MiniLM, Lucene on disk). {@code hooked
 * DIR} hooks the service into a chat service recalling from the memories' scope first (which warms
 * that scope), times {@code hookInto}, then the recalls.
 *
 * <pre>{@code
 * java -cp benchmarks/target/benchmarks.jar dev.memhook.benchmarks.FirstRecall prepare /tmp/fr 10000
 * java -cp benchmarks/target/benchmarks.jar dev.memhook.benchmarks.FirstRecall measure /tmp/fr
 * }</pre>
 */
public final class FirstRecall {

  private static final Scope SCOPE = Scope.of("bench", "first-recall");

  private FirstRecall() {}

  public static void main(String[] args) throws Exception {
    int needed = args.length > 0 && args[0].equals("prepare") ? 3 : 2;
    if (args.length < needed
        || !(args[0].equals("prepare")
            || args[0].equals("measure")
            || args[0].equals("hooked")
            || args[0].equals("turn"))) {
      System.err.println("usage: FirstRecall prepare DIR N | FirstRecall measure|hooked|turn DIR");
      System.exit(2);
      return;
    }
    Path dir = Path.of(args[1]);
    if (args[0].equals("prepare")) {
      int n = CommandLine.parseOrExit(a -> CommandLine.count("N (memories)", a[2]), args);
      Random r = new Random(42);
      String[] words = {"deploy", "billing", "database", "refund", "webhook", "retry", "cache"};
      List<MemoryDraft> drafts = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        StringBuilder sb = new StringBuilder("Note " + i + ":");
        for (int j = 0; j < 12; j++) {
          sb.append(' ').append(words[r.nextInt(words.length)]);
        }
        drafts.add(MemoryDraft.of(SCOPE, sb.toString()));
      }
      try (MemoryService memory = Memhook.builder().directory(dir).build()) {
        memory.maintenance().rememberAll(drafts);
      }
      System.out.println("stored " + n + " memories in " + dir);
      return;
    }
    if (args[0].equals("turn")) {
      firstTurn(dir);
      return;
    }
    long start = System.nanoTime();
    try (MemoryService memory = Memhook.builder().directory(dir).build()) {
      if (args[0].equals("hooked")) {
        long hookStart = System.nanoTime();
        memory.hookInto(
            dev.memhook.testkit.FakeChatService.create(),
            dev.memhook.api.HookOptions.builder().scopes(java.util.List.of(SCOPE)).build());
        System.out.printf("hookInto %.1f ms%n", (System.nanoTime() - hookStart) / 1e6);
      }
      long built = System.nanoTime();
      var r1 = memory.recall(new RecallQuery(SCOPE, "why did the billing webhook retry?", 5));
      long first = System.nanoTime();
      var r2 = memory.recall(new RecallQuery(SCOPE, "which cache does the refund use?", 5));
      long second = System.nanoTime();
      System.out.println("first recall by signal " + r1.took() + "; second " + r2.took());
      System.out.printf(
          "build %.0f ms, first recall %.1f ms, second recall %.1f ms, build to first result %.0f ms%n",
          (built - start) / 1e6,
          (first - built) / 1e6,
          (second - first) / 1e6,
          (first - start) / 1e6);
    }
  }

  /**
   * The first hooked turn of a new process, as a host has it: build, {@code hookInto} a chat
   * service with the default hook options (the default recall timeout) in the memories' scope, send
   * one user message; prints what the turn injected and whether its recall timed out.
   */
  private static void firstTurn(Path dir) throws Exception {
    long start = System.nanoTime();
    java.util.List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
    java.util.List<dev.memhook.api.MemoryId> injected =
        new java.util.concurrent.CopyOnWriteArrayList<>();
    List<java.time.Duration> recalls = new java.util.concurrent.CopyOnWriteArrayList<>();
    dev.memhook.api.trace.MemoryListener listener =
        new dev.memhook.api.trace.MemoryListener() {
          @Override
          public void receipt(dev.memhook.api.trace.InjectionReceipt receipt) {
            if (!receipt.triggerMessageIds().isEmpty()) {
              recalls.add(receipt.recall().took());
            }
          }

          @Override
          public void injected(
              String hookId,
              dev.memhook.api.trace.HookPhase phase,
              List<dev.memhook.api.MemoryId> ids) {
            injected.addAll(ids);
          }

          @Override
          public void failed(
              String hookId, dev.memhook.api.trace.HookPhase phase, Throwable cause) {
            failures.add(cause);
          }
        };
    try (MemoryService memory = Memhook.builder().directory(dir).build()) {
      long built = System.nanoTime();
      dev.memhook.testkit.FakeChatService chat = dev.memhook.testkit.FakeChatService.create();
      dev.memhook.api.MemoryHook hook =
          memory.hookInto(
              chat,
              dev.memhook.api.HookOptions.builder()
                  .scopes(List.of(SCOPE))
                  .listener(listener)
                  .build());
      try {
        long hooked = System.nanoTime();
        chat.sendUser("why did the billing webhook retry?")
            .toCompletableFuture()
            .get(30, java.util.concurrent.TimeUnit.SECONDS);
        long turned = System.nanoTime();
        Thread.sleep(200); // listener calls arrive on the listener's own thread
        chat.sendUser("which cache does the refund use?")
            .toCompletableFuture()
            .get(30, java.util.concurrent.TimeUnit.SECONDS);
        Thread.sleep(200);
        boolean timedOut =
            failures.stream().anyMatch(f -> f instanceof dev.memhook.api.RecallTimeoutException);
        System.out.printf(
            "build %.0f ms, hookInto %.0f ms, first turn %.1f ms, recalls of the first and"
                + " second turn %s, injected %d, timed out %s, failures %s%n",
            (built - start) / 1e6,
            (hooked - built) / 1e6,
            (turned - hooked) / 1e6,
            recalls.stream().map(d -> String.format("%.1f ms", d.toNanos() / 1e6)).toList(),
            injected.size(),
            timedOut,
            failures);
      } finally {
        hook.close();
      }
    }
  }
}
