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

  public static void main(String[] args) {
    if (args.length < 2
        || !(args[0].equals("prepare") || args[0].equals("measure") || args[0].equals("hooked"))) {
      System.err.println("usage: FirstRecall prepare DIR N | FirstRecall measure|hooked DIR");
      System.exit(2);
      return;
    }
    Path dir = Path.of(args[1]);
    if (args[0].equals("prepare")) {
      int n = Integer.parseInt(args[2]);
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
        memory.rememberAll(drafts);
      }
      System.out.println("stored " + n + " memories in " + dir);
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
}
