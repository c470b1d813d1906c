package dev.memhook.benchmarks;

import dev.memhook.api.Scope;
import dev.memhook.api.spi.EmbeddingSpace;
import dev.memhook.api.spi.MemoryStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.miscellaneous.WordDelimiterGraphFilter;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopScoreDocCollectorManager;
import org.apache.lucene.store.FSDirectory;

/**
 * What the store's text search costs next to Lucene's own BM25 on the same index: the questions of
 * {@link RecallLatencyBenchmark}'s corpus through {@code searchText(k=50)} (analysis into three
 * variants, the score ceiling, the scope filter, reading the hits' ids), against a plain
 * disjunction of the question's words, stemmed as the store stems them, on the same searchable
 * field, run by an {@link IndexSearcher} of its own (top 50, Lucene's default BM25). Medians and
 * p99 over the measured block, after a warm-up block.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.memhook.benchmarks.TextSearchCost [--size N] [--queries N] [--force-merge|--settled]
 * </pre>
 *
 * For a profile of the store's side, run it with {@code
 * -XX:StartFlightRecording=filename=text.jfr,settings=profile} and {@code --only-store}.
 */
public final class TextSearchCost {

  private TextSearchCost() {}

  public static void main(String[] args) throws IOException {
    int size = 100_000;
    int queries = 2_000;
    BenchStores.Layout layout = BenchStores.Layout.AS_BUILT;
    boolean onlyStore = false;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--size" -> size = CommandLine.count(args, ++i);
        case "--queries" -> queries = CommandLine.count(args, ++i);
        case "--force-merge" -> layout = BenchStores.Layout.MERGED;
        case "--settled" -> layout = BenchStores.Layout.SETTLED;
        case "--only-store" -> onlyStore = true;
        default ->
            throw new IllegalArgumentException(
                "usage: TextSearchCost [--size N] [--queries N] [--force-merge|--settled] [--only-store]");
      }
    }
    Scope scope = RecallLatencyBenchmark.SCOPE;
    SyntheticCorpus corpus =
        SyntheticCorpus.generate(
            RecallLatencyBenchmark.SEED, size, RecallLatencyBenchmark.DIMENSION);
    List<SyntheticCorpus.Query> qs = corpus.queries(11, 2 * queries);
    PrecomputedEmbedder.Builder eb =
        PrecomputedEmbedder.builder("bench-synthetic-d" + corpus.dimension(), corpus.dimension());
    qs.forEach(q -> eb.put(q.text(), q.vector()));
    EmbeddingSpace space = eb.build().space();
    BenchStores.Settings settings = BenchStores.Settings.DEFAULTS.withLayout(layout);
    Path dir = BenchStores.indexDirectory(BenchStores.Kind.LUCENE, corpus, scope, space, settings);
    double[] store = new double[queries];
    try (MemoryStore s =
        BenchStores.open(
            BenchStores.Kind.LUCENE, corpus, scope, space, corpus::embedding, settings)) {
      for (int round = 0; round < (onlyStore ? 10 : 1); round++) {
        for (int i = 0; i < queries; i++) {
          s.searchText(scope, qs.get(i).text(), 50); // warm-up block
        }
        for (int i = 0; i < queries; i++) {
          long t = System.nanoTime();
          s.searchText(scope, qs.get(queries + i).text(), 50);
          store[i] = (System.nanoTime() - t) / 1e6;
        }
      }
    }
    System.out.printf(Locale.ROOT, "%s, index %s%n", corpus, dir.getFileName());
    print("store searchText(k=50)", store);
    if (onlyStore) {
      return;
    }
    try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(dir))) {
      System.out.printf(Locale.ROOT, "segments %d%n", reader.leaves().size());
    }
    print("plain BM25 disjunction (top 50)", plainSearches(dir, PLAIN, qs, queries));
    print("plain BM25, identifiers split", plainSearches(dir, SPLIT, qs, queries));
  }

  /**
   * Milliseconds per plain search of the second {@code queries} questions, after the first as
   * warm-up, on a searcher of its own.
   */
  private static double[] plainSearches(
      Path dir, Analyzer analyzer, List<SyntheticCorpus.Query> qs, int queries) throws IOException {
    double[] ms = new double[queries];
    try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(dir))) {
      IndexSearcher searcher = new IndexSearcher(reader);
      for (int i = 0; i < 2 * queries; i++) {
        long t = System.nanoTime();
        searcher.search(
            plainQuery(analyzer, qs.get(i).text()), new TopScoreDocCollectorManager(50, 50));
        if (i >= queries) {
          ms[i - queries] = (System.nanoTime() - t) / 1e6;
        }
      }
    }
    return ms;
  }

  /**
   * The question's words as the store's content analysis spells them (lower-cased, Porter-stemmed,
   * English stop words left out, as the store leaves out function words), one SHOULD clause each.
   */
  private static BooleanQuery plainQuery(Analyzer analyzer, String text) throws IOException {
    BooleanQuery.Builder b = new BooleanQuery.Builder();
    List<String> seen = new ArrayList<>();
    try (TokenStream ts = analyzer.tokenStream("text", text)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        String w = term.toString();
        if (!seen.contains(w)) {
          seen.add(w);
          b.add(new TermQuery(new Term("text", w)), Occur.SHOULD);
        }
      }
      ts.end();
    }
    return b.build();
  }

  /** Standard tokenizer, lower case, English stop words, Porter stemming. */
  private static final Analyzer PLAIN = analyzer(false);

  /**
   * {@link #PLAIN} with identifiers also split into their words ({@code RouterReplicaHandler} gives
   * {@code router}, {@code replica}, {@code handler} beside the whole), as the store's code-aware
   * analysis splits them, with Lucene's own word-delimiter filter.
   */
  private static final Analyzer SPLIT = analyzer(true);

  private static Analyzer analyzer(boolean splitIdentifiers) {
    return new Analyzer() {
      @Override
      protected TokenStreamComponents createComponents(String field) {
        StandardTokenizer source = new StandardTokenizer();
        TokenStream s = source;
        if (splitIdentifiers) {
          s =
              new WordDelimiterGraphFilter(
                  s,
                  WordDelimiterGraphFilter.GENERATE_WORD_PARTS
                      | WordDelimiterGraphFilter.SPLIT_ON_CASE_CHANGE
                      | WordDelimiterGraphFilter.PRESERVE_ORIGINAL,
                  null);
        }
        s = new LowerCaseFilter(s);
        s = new StopFilter(s, EnglishAnalyzer.ENGLISH_STOP_WORDS_SET);
        return new TokenStreamComponents(source, new PorterStemFilter(s));
      }
    };
  }

  private static void print(String what, double[] ms) {
    double[] sorted = ms.clone();
    Arrays.sort(sorted);
    System.out.printf(
        Locale.ROOT,
        "%-34s median %.3f ms, p99 %.3f ms%n",
        what,
        sorted[sorted.length / 2],
        sorted[(int) (sorted.length * 0.99)]);
  }
}
