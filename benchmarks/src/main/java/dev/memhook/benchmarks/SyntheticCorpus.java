package dev.memhook.benchmarks;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Origin;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.Embedding;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * A seeded, deterministic corpus of developer-chat memories and questions about them, with vectors
 * correlated with the text's topic, for benchmarks that must not measure an embedding model.
 *
 * <h2>Design note</h2>
 *
 * The corpus has {@code topics} topics. Each topic owns a small world of code entities (a service
 * name, camelCase and snake_case identifiers, file paths, an error code, a command line) drawn from
 * fixed word lists; a memory is one or two sentences of English prose from templates, filled with
 * its topic's entities and some filler words, so BM25 sees realistic term statistics (common prose
 * words, rare identifiers). Vectors: each topic has a random unit centroid and {@value #SUBTOPICS}
 * random sub-directions; a memory's vector is {@code normalize(centroid + 0.6 * subtopic + 0.7 *
 * noise)} with isotropic unit noise, so memories of a topic cluster (cosine to the centroid about
 * 0.7) without being duplicates, and nearest neighbour search has to separate many near ties, as
 * with real sentence embeddings. Queries are drawn the same way (a question built from a topic's
 * entities and a fresh vector of that topic), so a query's relevant memories are its topic's.
 *
 * <p>Everything is a function of the seed: the same arguments give the same texts, ids and vectors
 * in every JVM, which lets a benchmark keep an index on disk between forks. Immutable after
 * construction and thread-safe.
 */
public final class SyntheticCorpus {

  /** Sub-directions per topic. */
  static final int SUBTOPICS = 8;

  /** Memories per source session: a session is a short run of one conversation. */
  static final int MEMORIES_PER_SESSION = 20;

  /** Bumped when the generated content changes, so cached indexes are rebuilt. */
  public static final int GENERATOR_VERSION = 1;

  private static final Instant EPOCH = Instant.parse("2025-01-06T09:00:00Z");

  private static final String[] NOUNS = {
    "auth",
    "token",
    "session",
    "cache",
    "payment",
    "invoice",
    "order",
    "cart",
    "user",
    "account",
    "queue",
    "worker",
    "retry",
    "backoff",
    "schema",
    "migration",
    "index",
    "search",
    "report",
    "export",
    "import",
    "upload",
    "image",
    "thumbnail",
    "email",
    "notification",
    "webhook",
    "audit",
    "billing",
    "refund",
    "ledger",
    "inventory",
    "shipment",
    "pricing",
    "discount",
    "coupon",
    "tenant",
    "config",
    "feature",
    "flag",
    "metric",
    "trace",
    "log",
    "alert",
    "deploy",
    "build",
    "release",
    "parser",
    "lexer",
    "router",
    "handler",
    "client",
    "server",
    "proxy",
    "gateway",
    "limiter",
    "scheduler",
    "job",
    "batch",
    "stream",
    "consumer",
    "producer",
    "topic",
    "partition",
    "offset",
    "snapshot",
    "backup",
    "replica",
    "shard",
    "lock",
    "lease",
    "quota",
    "profile",
    "avatar",
    "calendar",
    "event",
    "timezone",
    "locale",
    "currency",
    "tax",
    "checkout",
    "wallet",
    "ticket"
  };
  private static final String[] VERBS = {
    "parse", "validate", "load", "save", "fetch", "resolve", "compute", "render", "send", "retry",
    "refresh", "rotate", "merge", "split", "flush", "encode", "decode", "sign", "verify", "expire"
  };
  private static final String[] SERVICES = {
    "auth-service", "payments-api", "order-svc", "search-indexer", "billing-worker", "gateway",
    "notifier", "inventory-api", "reporting", "checkout-web", "ledger-core", "media-pipeline"
  };
  private static final String[] ERROR_PREFIXES = {"ERR_", "E", "HTTP ", "ORA-", "SQLSTATE ", "EX"};
  private static final String[] ERROR_WORDS = {
    "CONN_REFUSED", "TIMEOUT", "TOKEN_EXPIRED", "DEADLOCK", "NOT_FOUND", "RATE_LIMITED",
    "SCHEMA_MISMATCH", "OUT_OF_MEMORY", "CHECKSUM", "UNAUTHORIZED", "CONFLICT", "UNAVAILABLE"
  };
  private static final String[] COMMANDS = {
    "mvn -pl %s -am test", "git bisect start HEAD %s", "kubectl rollout restart deploy/%s",
    "docker compose up -d %s", "./gradlew :%s:check --info", "psql -c 'VACUUM ANALYZE %s'",
    "curl -sS localhost:8080/%s/health", "npm run build --workspace=%s"
  };
  private static final String[] PEOPLE = {
    "Alice", "Bob", "Chen", "Dana", "Emeka", "Farah", "Goran", "Hana", "Ivan", "Júlia", "Kenji",
    "Leila", "Mateo", "Nadia", "Omar", "Priya"
  };
  private static final String[] FILLER = {
    "the",
    "a",
    "we",
    "it",
    "that",
    "this",
    "after",
    "before",
    "because",
    "when",
    "again",
    "still",
    "only",
    "really",
    "probably",
    "yesterday",
    "today",
    "last",
    "week",
    "sprint",
    "meeting",
    "team",
    "fix",
    "change",
    "problem",
    "slow",
    "fast",
    "broken",
    "flaky",
    "works",
    "locally",
    "prod",
    "staging",
    "review",
    "agreed",
    "decided",
    "prefer",
    "should",
    "never",
    "always",
    "later"
  };
  private static final String[] MEMORY_TEMPLATES = {
    "%P said %S fails with %E when %I runs twice; the fix is in %F.",
    "We decided to move %I out of %F and call %J from %S instead.",
    "%P prefers %J over %I because the old path in %F was %W.",
    "The %W build of %S broke on %E; run `%C` to reproduce it.",
    "Remember: %I must %V the %N before %J, otherwise %S returns %E.",
    "Deploy note for %S: `%C` after changing %F, and watch for %E in the logs.",
    "%P found that %J in %F leaks the %N %W, so we added a guard in %I.",
    "The %N cache in %S is keyed by %J; clearing it fixed %E for %P.",
    "In the %W review %P asked to rename %I to %J in %F.",
    "%S started throwing %E after the %N migration; rolling back with `%C` helped."
  };
  private static final String[] QUERY_TEMPLATES = {
    "why does %S fail with %E?",
    "where did we move %I?",
    "how do I reproduce the %E in %S",
    "what did %P say about %J",
    "what's the deploy command for %S",
    "which file has %J and %I",
    "%E again in %S after the %N change, what was the fix?",
    "should I call %J or %I from %S?"
  };

  /**
   * One generated memory.
   *
   * @param index its position in the corpus
   * @param id its deterministic id
   * @param text its content
   * @param session its source session id
   * @param speaker who said it
   * @param topic its topic
   */
  public record Item(
      int index, MemoryId id, String text, String session, String speaker, int topic) {}

  /**
   * One generated question.
   *
   * @param text the question
   * @param topic the topic it asks about (its relevant memories are that topic's)
   * @param vector its precomputed unit vector
   */
  public record Query(String text, int topic, float[] vector) {}

  /** The entities of one topic. */
  private record Topic(
      String service,
      String ident,
      String ident2,
      String snake,
      String file,
      String error,
      String command,
      String noun,
      String verb) {}

  private final long seed;
  private final int dimension;
  private final List<Topic> topics;
  private final float[][] centroids;
  private final float[][][] subtopics;
  private final List<Item> items;
  private final float[][] vectors;

  private SyntheticCorpus(long seed, int size, int dimension, int topicCount) {
    this.seed = seed;
    this.dimension = dimension;
    Random random = new Random(seed);
    this.topics = new ArrayList<>(topicCount);
    this.centroids = new float[topicCount][];
    this.subtopics = new float[topicCount][SUBTOPICS][];
    for (int t = 0; t < topicCount; t++) {
      topics.add(topic(random, t));
      centroids[t] = unitGaussian(random, dimension);
      for (int s = 0; s < SUBTOPICS; s++) {
        subtopics[t][s] = unitGaussian(random, dimension);
      }
    }
    this.items = new ArrayList<>(size);
    this.vectors = new float[size][];
    for (int i = 0; i < size; i++) {
      // sessions are runs of one topic, as in a real conversation
      int session = i / MEMORIES_PER_SESSION;
      int topic =
          random.nextInt(4) == 0
              ? random.nextInt(topicCount)
              : Math.floorMod(mix(seed, session), topicCount);
      String text =
          fill(MEMORY_TEMPLATES[random.nextInt(MEMORY_TEMPLATES.length)], topics.get(topic), random)
              + fillerTail(random);
      String speaker = PEOPLE[random.nextInt(PEOPLE.length)];
      items.add(
          new Item(
              i,
              MemoryId.of(String.format(Locale.ROOT, "bench-%08d", i)),
              text,
              "session-" + session,
              speaker,
              topic));
      vectors[i] = vectorOf(random, topic);
    }
  }

  /**
   * Generates a corpus.
   *
   * @param seed the seed; the same seed gives the same corpus
   * @param size the number of memories, at least 1
   * @param dimension the vector dimension, at least 8
   * @throws IllegalArgumentException if {@code size} or {@code dimension} is out of range
   */
  public static SyntheticCorpus generate(long seed, int size, int dimension) {
    if (size < 1) {
      throw new IllegalArgumentException("size must be positive, got " + size);
    }
    if (dimension < 8) {
      throw new IllegalArgumentException("dimension must be at least 8, got " + dimension);
    }
    // about 200 memories per topic, at least 10 topics
    return new SyntheticCorpus(seed, size, dimension, Math.max(10, size / 200));
  }

  /** The seed. */
  public long seed() {
    return seed;
  }

  /** The vector dimension. */
  public int dimension() {
    return dimension;
  }

  /** The number of memories. */
  public int size() {
    return items.size();
  }

  /** The number of topics. */
  public int topicCount() {
    return topics.size();
  }

  /** The memories, in index order. */
  public List<Item> items() {
    return items;
  }

  /** The vector of memory {@code index}; the caller must not modify it. */
  public float[] vector(int index) {
    return vectors[index];
  }

  /** All vectors, indexed like {@link #items()}; the caller must not modify them. */
  public float[][] vectors() {
    return vectors;
  }

  /** The topic of the memory with this id, or -1 if the id is not of this corpus. */
  public int topicOf(MemoryId id) {
    String v = id.value();
    if (!v.startsWith("bench-")) {
      return -1;
    }
    int index = Integer.parseInt(v.substring("bench-".length()));
    return index < items.size() ? items.get(index).topic() : -1;
  }

  /** The memory record for item {@code index} in {@code scope}, as a store would be given it. */
  public Memory memory(int index, Scope scope) {
    Item item = items.get(index);
    Instant at = EPOCH.plusSeconds(60L * index);
    String title = item.text().length() <= 80 ? item.text() : item.text().substring(0, 80);
    return Memory.builder()
        .id(item.id())
        .type(MemoryType.OBSERVATION)
        .title(title)
        .summary(item.text())
        .content(item.text())
        .scope(scope)
        .sourceSession(item.session())
        .origin(Origin.user(item.speaker()))
        .occurredAt(at)
        .createdAt(at)
        .build();
  }

  /** The embedding of item {@code index}. */
  public Embedding embedding(int index) {
    return Embedding.of(vectors[index]);
  }

  /**
   * {@code count} questions drawn with {@code querySeed}, each with its own vector; the same
   * arguments give the same questions.
   */
  public List<Query> queries(long querySeed, int count) {
    Random random = new Random(querySeed ^ seed * 31);
    List<Query> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      out.add(query(random));
    }
    return out;
  }

  /** One question drawn from {@code random}. */
  public Query query(Random random) {
    int topic = random.nextInt(topics.size());
    String text =
        fill(QUERY_TEMPLATES[random.nextInt(QUERY_TEMPLATES.length)], topics.get(topic), random);
    return new Query(text, topic, vectorOf(random, topic));
  }

  private float[] vectorOf(Random random, int topic) {
    float[] c = centroids[topic];
    float[] s = subtopics[topic][random.nextInt(SUBTOPICS)];
    float[] noise = unitGaussian(random, dimension);
    float[] v = new float[dimension];
    for (int d = 0; d < dimension; d++) {
      v[d] = c[d] + 0.6f * s[d] + 0.7f * noise[d];
    }
    return normalize(v);
  }

  private static Topic topic(Random r, int t) {
    String noun = pick(r, NOUNS);
    String noun2 = pick(r, NOUNS);
    String verb = pick(r, VERBS);
    String verb2 = pick(r, VERBS);
    String service = pick(r, SERVICES) + (t % 3 == 0 ? "" : "-" + pick(r, NOUNS));
    String ident = verb + capitalize(noun) + capitalize(noun2); // camelCase
    String ident2 = capitalize(noun2) + capitalize(pick(r, NOUNS)) + "Handler"; // PascalCase
    String snake = noun + "_" + pick(r, NOUNS) + "_" + (r.nextBoolean() ? "ms" : "limit");
    String file = "src/main/java/com/acme/" + noun + "/" + ident2 + ".java";
    if (r.nextInt(3) == 0) {
      file = "services/" + service + "/" + noun2 + "/" + snake + ".py";
    }
    String prefix = pick(r, ERROR_PREFIXES);
    String error =
        switch (prefix) {
          case "ERR_" -> "ERR_" + pick(r, ERROR_WORDS);
          case "HTTP " -> "HTTP " + (400 + r.nextInt(104));
          case "ORA-" -> String.format(Locale.ROOT, "ORA-%05d", r.nextInt(99_999));
          case "SQLSTATE " -> "SQLSTATE " + (40000 + r.nextInt(60000));
          default -> prefix + (1000 + r.nextInt(9000));
        };
    String command = String.format(Locale.ROOT, pick(r, COMMANDS), service);
    return new Topic(service, ident, ident2, snake, file, error, command, noun, verb2);
  }

  private static String fill(String template, Topic t, Random r) {
    StringBuilder sb = new StringBuilder(template.length() + 80);
    for (int i = 0; i < template.length(); i++) {
      char ch = template.charAt(i);
      if (ch != '%' || i + 1 == template.length()) {
        sb.append(ch);
        continue;
      }
      char key = template.charAt(++i);
      sb.append(
          switch (key) {
            case 'P' -> pick(r, PEOPLE);
            case 'S' -> t.service();
            case 'E' -> t.error();
            case 'I' -> r.nextBoolean() ? t.ident() : t.snake();
            case 'J' -> t.ident2();
            case 'F' -> t.file();
            case 'C' -> t.command();
            case 'N' -> t.noun();
            case 'V' -> t.verb();
            case 'W' -> pick(r, FILLER);
            default -> "%" + key;
          });
    }
    return sb.toString();
  }

  private static String fillerTail(Random r) {
    int words = r.nextInt(12);
    if (words == 0) {
      return "";
    }
    StringBuilder sb = new StringBuilder(" ");
    for (int i = 0; i < words; i++) {
      if (i > 0) {
        sb.append(' ');
      }
      sb.append(r.nextInt(5) == 0 ? pick(r, NOUNS) : pick(r, FILLER));
    }
    return sb.append('.').toString();
  }

  private static String pick(Random r, String[] words) {
    return words[r.nextInt(words.length)];
  }

  private static String capitalize(String s) {
    return Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }

  private static long mix(long seed, int session) {
    long h = seed * 0x9E3779B97F4A7C15L + session;
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    return h;
  }

  static float[] unitGaussian(Random r, int dimension) {
    float[] v = new float[dimension];
    for (int d = 0; d < dimension; d++) {
      v[d] = (float) r.nextGaussian();
    }
    return normalize(v);
  }

  static float[] normalize(float[] v) {
    double n = 0;
    for (float x : v) {
      n += x * x;
    }
    float scale = (float) (1 / Math.sqrt(n));
    for (int d = 0; d < v.length; d++) {
      v[d] *= scale;
    }
    return v;
  }

  @Override
  public String toString() {
    return "SyntheticCorpus[seed="
        + seed
        + ", size="
        + items.size()
        + ", dimension="
        + dimension
        + ", topics="
        + topics.size()
        + "]";
  }
}
