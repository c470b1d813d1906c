package dev.memhook.benchmarks;

import dev.memhook.api.ExportedMemory;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryVector;
import dev.memhook.api.RestoreResult;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedder;
import dev.memhook.core.Memhook;
import dev.memhook.djl.DjlEmbedder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;

/**
 * Import throughput against the model's own, side by side in one run, with the default service on
 * disk ({@code Memhook.builder()}: Lucene, the int8 MiniLM, default durability) and the same
 * generated memories (seed 42):
 *
 * <ol>
 *   <li><b>model</b>: the int8 MiniLM at its batched rate ({@link DjlEmbedder#bundledMiniLm()}'s
 *       model on ONNX Runtime's default threads, with {@code batchSize} set to {@value
 *       DjlEmbedder#DEFAULT_BATCH_SIZE}, which the default embedder leaves unset so that a text's
 *       vector does not depend on its batch), a separate instance, embedding the memories' texts
 *       alone, in lists of 256 as {@code rememberAll} hands them over, measured before and after
 *       the import and averaged, so the ratio compares rates of the same minutes on a shared
 *       machine;
 *   <li><b>rememberAll</b> of every draft into a fresh directory;
 *   <li><b>restore</b> of that store's {@code exportWithVectors} into another fresh directory
 *       ({@code restoreExported}: the vectors reused, no model call), as {@code memhook import} of
 *       an export does.
 * </ol>
 *
 * Each directory is deleted afterwards. Prints the rates and the ratio of {@code rememberAll} to
 * the model.
 *
 * <pre>
 * {@code java -Dai.djl.offline=true -cp benchmarks/target/benchmarks.jar dev.memhook.benchmarks.ImportThroughput [N] [--restore-only]}
 * </pre>
 *
 * N memories, default 5,000. {@code --restore-only} measures the restore alone, five times after
 * two untimed warm-up restores (a cold JVM restores much slower: the JIT has not compiled the
 * store's paths yet), each into a fresh directory, from an export made up here: the same texts,
 * each with a random unit vector labelled with the default model's space, so nothing is embedded at
 * all and the store's side of an import is timed quickly enough to alternate builds.
 */
public final class ImportThroughput {

  private static final Scope SCOPE = Scope.of("bench", "import");
  private static final int BATCH = 256;

  private ImportThroughput() {}

  public static void main(String[] args) throws IOException {
    List<String> given = new ArrayList<>(List.of(args));
    boolean restoreOnly = given.remove("--restore-only");
    int n =
        CommandLine.parseOrExit(
            a -> a.length == 0 ? 5_000 : CommandLine.count("N (memories)", a[0]),
            given.toArray(String[]::new));
    List<MemoryDraft> drafts = drafts(n, new Random(42));
    Path dir = Files.createTempDirectory("memhook-import-bench-");
    try (Embedder model =
        DjlEmbedder.bundledMiniLmBuilder().batchSize(DjlEmbedder.DEFAULT_BATCH_SIZE).build()) {
      if (restoreOnly) {
        List<ExportedMemory> exported = madeUpExport(drafts, model.space().modelId());
        for (int round = 1; round <= 2; round++) { // the JIT's, not timed
          restore(dir.resolve("warm-up-" + round), exported);
        }
        for (int round = 1; round <= 5; round++) {
          System.out.printf(
              "%,d memories: restore with vectors %.0f/s (round %d)%n",
              n, restore(dir.resolve("restore-" + round), exported), round);
        }
        return;
      }
      List<String> texts = drafts.stream().map(MemoryDraft::content).toList();
      embedRate(model, texts.subList(0, Math.min(texts.size(), 2 * BATCH))); // warm up
      double modelBefore = embedRate(model, texts);
      List<ExportedMemory> exported = new ArrayList<>(n);
      double remembered = rememberAll(dir.resolve("rememberAll"), drafts, exported);
      double modelAfter = embedRate(model, texts);
      double restored = restore(dir.resolve("restore"), exported);
      double modelRate = (modelBefore + modelAfter) / 2;
      System.out.printf(
          "%,d memories: model alone %.0f/s (%.0f before, %.0f after), rememberAll %.0f/s"
              + " (%.2fx the model), restore with vectors %.0f/s%n",
          n, modelRate, modelBefore, modelAfter, remembered, remembered / modelRate, restored);
    } finally {
      try (Stream<Path> walk = Files.walk(dir)) {
        walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  /** Texts per second the model embeds in batches of {@link #BATCH}. */
  private static double embedRate(Embedder model, List<String> texts) {
    long start = System.nanoTime();
    for (int from = 0; from < texts.size(); from += BATCH) {
      model.embedDocuments(texts.subList(from, Math.min(texts.size(), from + BATCH)));
    }
    return texts.size() / ((System.nanoTime() - start) / 1e9);
  }

  /** Memories per second {@code rememberAll} stores; {@code exported} gets the store's export. */
  private static double rememberAll(
      Path dir, List<MemoryDraft> drafts, List<ExportedMemory> exported) {
    try (MemoryService memory = Memhook.builder().directory(dir).build()) {
      memory.remember(MemoryDraft.of(SCOPE, "warm up the model and the index"));
      long start = System.nanoTime();
      memory.maintenance().rememberAll(drafts);
      double rate = drafts.size() / ((System.nanoTime() - start) / 1e9);
      memory.maintenance().exportWithVectors(exported::add);
      return rate;
    }
  }

  /** Memories per second {@code restoreExported} stores, checking it embedded none. */
  private static double restore(Path dir, List<ExportedMemory> exported) {
    try (MemoryService memory = Memhook.builder().directory(dir).build()) {
      long start = System.nanoTime();
      RestoreResult result = memory.maintenance().restoreExported(exported, List.of(), p -> {});
      double rate = exported.size() / ((System.nanoTime() - start) / 1e9);
      if (result.embedded() != 0 || result.reusedVectors() != exported.size()) {
        throw new IllegalStateException("the restore embedded again: " + result);
      }
      return rate;
    }
  }

  /** Each draft as a stored memory with a random unit vector in the space {@code modelId} names. */
  private static List<ExportedMemory> madeUpExport(List<MemoryDraft> drafts, String modelId) {
    Random r = new Random(7);
    Instant at = Instant.parse("2026-01-01T00:00:00Z");
    List<ExportedMemory> out = new ArrayList<>(drafts.size());
    for (int i = 0; i < drafts.size(); i++) {
      float[] v = new float[384];
      double norm = 0;
      for (int d = 0; d < v.length; d++) {
        v[d] = (float) r.nextGaussian();
        norm += v[d] * v[d];
      }
      for (int d = 0; d < v.length; d++) {
        v[d] /= (float) Math.sqrt(norm);
      }
      Memory m =
          Memory.builder()
              .id(MemoryId.of("import-" + i))
              .scope(SCOPE)
              .content(drafts.get(i).content())
              .occurredAt(at.plusSeconds(i))
              .createdAt(at.plusSeconds(i))
              .build();
      out.add(new ExportedMemory(m, Optional.of(MemoryVector.of(modelId, v))));
    }
    return out;
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
