package dev.memhook.benchmarks;

import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The local embedding models themselves: one sentence at a time (latency, median and p99 from
 * SampleTime) and batches of 32 (time per batch; sentences per second = 32 / time). Each call
 * embeds a different sentence from a seeded generator, so nothing is cached.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar EmbedderBenchmark -f 1 -wi 2 -w 2s -i 3 -r 3s
 * </pre>
 */
@State(Scope.Benchmark)
public class EmbedderBenchmark {

  /** Which model: the int8 or the fp32 all-MiniLM-L6-v2. */
  @Param({"djl-int8", "djl-fp32"})
  public String embedder;

  private Embedder model;
  private List<String> sentences;
  private int next;

  @Setup(Level.Trial)
  public void load() {
    model = BenchEmbedders.create(embedder);
    SyntheticCorpus corpus = SyntheticCorpus.generate(7, 1_000, 384);
    sentences = new ArrayList<>();
    for (SyntheticCorpus.Query q : corpus.queries(11, 4_096)) {
      sentences.add(q.text());
    }
  }

  @TearDown(Level.Trial)
  public void close() {
    model.close();
  }

  private String nextSentence() {
    String s = sentences.get(next);
    next = (next + 1) % sentences.size();
    return s;
  }

  /** One sentence. */
  @Benchmark
  @BenchmarkMode(Mode.SampleTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public Embedding single() {
    return model.embed(nextSentence());
  }

  /** A batch of 32 sentences through {@link Embedder#embedAll}. */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  public List<Embedding> batchOf32() {
    List<String> batch = new ArrayList<>(32);
    for (int i = 0; i < 32; i++) {
      batch.add(nextSentence());
    }
    return model.embedAll(batch);
  }
}
