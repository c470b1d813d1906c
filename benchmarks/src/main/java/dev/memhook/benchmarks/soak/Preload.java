package dev.memhook.benchmarks.soak;

import dev.memhook.api.Memory;
import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import dev.memhook.benchmarks.SyntheticCorpus;
import dev.memhook.lucene.LuceneMemoryStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes the corpus into the directory the soak's service will open, as fast as the public API
 * allows: the store SPI's {@code putAll} in batches of {@value #BATCH}, embedded in batches with
 * the service's own embedder (so the vectors are the ones {@code remember} would have stored), on a
 * group-commit store closed before the service opens the directory. {@code remember} would pay one
 * commit per memory, which at 100,000 memories is the whole time budget; the mixed phase is where
 * {@code remember} is exercised.
 */
final class Preload {

  static final int BATCH = 1_000;

  /**
   * What the preload did.
   *
   * @param memories memories written
   * @param elapsed how long it took
   */
  record Result(int memories, Duration elapsed) {
    double perSecond() {
      return memories / Math.max(1e-9, elapsed.toNanos() / 1e9);
    }
  }

  private Preload() {}

  static Result into(Path dir, SyntheticCorpus corpus, MemoryLedger ledger, Embedder embedder) {
    long start = System.nanoTime();
    try (LuceneMemoryStore store =
        LuceneMemoryStore.builder().directory(dir).groupCommit(Duration.ofSeconds(1)).build()) {
      store.attach(embedder.space());
      for (int from = 0; from < corpus.size(); from += BATCH) {
        int to = Math.min(corpus.size(), from + BATCH);
        List<String> texts = new ArrayList<>(to - from);
        List<Memory> memories = new ArrayList<>(to - from);
        for (int i = from; i < to; i++) {
          SyntheticCorpus.Item item = corpus.items().get(i);
          memories.add(corpus.memory(i, ledger.scopeOfItem(i)));
          texts.add(item.speaker() + ": " + item.text()); // what the service embeds for it
        }
        List<Embedding> vectors = embedder.embedDocuments(texts);
        Map<Memory, Embedding> batch = new LinkedHashMap<>();
        for (int j = 0; j < memories.size(); j++) {
          batch.put(memories.get(j), vectors.get(j));
        }
        store.putAll(batch);
      }
    }
    return new Result(corpus.size(), Duration.ofNanos(System.nanoTime() - start));
  }
}
