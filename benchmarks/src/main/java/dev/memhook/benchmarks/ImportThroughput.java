package dev.memhook.benchmarks;

import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import dev.memhook.core.Memhook;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

/**
 * Import throughput into a new store on disk with the default service ({@code Memhook.builder()}:
 * Lucene, int8 MiniLM, default durability): {@code remember} once per memory against one {@code
 * rememberAll}, the same generated memories (seed 42), one after the other in one run, each into a
 * fresh temporary directory that is deleted afterwards.
 *
 * <pre>
 * {@code java -cp benchmarks/target/benchmarks.jar dev.memhook.benchmarks.ImportThroughput [N]}
 * </pre>
 *
 * N memories, default 5,000.
 */
public final class ImportThroughput {

  private static final Scope SCOPE = Scope.of("bench", "import");

  private ImportThroughput() {}

  public static void main(String[] args) throws IOException {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 5_000;
    List<MemoryDraft> drafts = drafts(n, new Random(42));
    Path dir = Files.createTempDirectory("memhook-import-bench-");
    try {
      double each = run(dir.resolve("remember"), drafts, false);
      double batched = run(dir.resolve("rememberAll"), drafts, true);
      System.out.printf(
          "%,d memories: remember %.0f/s, rememberAll %.0f/s (%.1fx)%n",
          n, each, batched, batched / each);
    } finally {
      try (Stream<Path> walk = Files.walk(dir)) {
        walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  private static double run(Path dir, List<MemoryDraft> drafts, boolean batched) {
    try (MemoryService memory = Memhook.builder().directory(dir).build()) {
      memory.remember(MemoryDraft.of(SCOPE, "warm up the model and the index"));
      long start = System.nanoTime();
      if (batched) {
        memory.maintenance().rememberAll(drafts);
      } else {
        drafts.forEach(memory::remember);
      }
      return drafts.size() / ((System.nanoTime() - start) / 1e9);
    }
  }

  private static List<MemoryDraft> drafts(int n, Random r) {
    String[] words = {
      "deploy",
      "billing",
      "database",
      "migration",
      "refund",
      "webhook",
      "retry",
      "cache",
      "session",
      "token",
      "review",
      "release",
      "staging",
      "prod",
      "rollback",
      "alert",
      "queue"
    };
    List<MemoryDraft> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      StringBuilder sb = new StringBuilder("Note " + i + ":");
      int len = 8 + r.nextInt(30);
      for (int j = 0; j < len; j++) {
        sb.append(' ').append(words[r.nextInt(words.length)]);
      }
      out.add(MemoryDraft.of(SCOPE, sb.append('.').toString()));
    }
    return out;
  }
}
