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
 * words, rare identifiers). Vectors: each topic has a random unit centroid and {@value
 * TopicVectors#SUBTOPICS} random sub-directions; a memory's vector is {@code normalize(centroid +
 * 0.6 * subtopic + 0.7 * noise)} with isotropic unit noise, so memories of a topic cluster (cosine
 * to the centroid about 0.7) without being duplicates, and nearest neighbour search has to separate
 * many near ties, as with real sentence embeddings. Queries are drawn the same way (a question
 * built from a topic's entities and a fresh vector of that topic), so a query's relevant memories
 * are its topic's.
 *
 * <p>Everything is a function of the seed: the same arguments give the same texts, ids and vectors
 * in every JVM, which lets a benchmark keep an index on disk between forks. Immutable after
 * construction and thread-safe.
 *
 * <p>This class draws the topics and the memories; {@link CorpusText} and {@link CorpusVocabulary}
 * make the text, {@link TopicVectors} the vectors and {@link CorpusQuestions} the questions.
 */
public final class SyntheticCorpus {

  /** Memories per source session: a session is a short run of one conversation. */
  static final int MEMORIES_PER_SESSION = 20;

  /** Bumped when the generated content changes, so cached indexes are rebuilt. */
  public static final int GENERATOR_VERSION = 1;

  private static final Instant EPOCH = Instant.parse("2025-01-06T09:00:00Z");

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

  private final long seed;
  private final int dimension;
  private final List<CorpusText.Topic> topics;
  private final CorpusQuestions questions;
  private final List<Item> items;
  private final float[][] vectors;

  private SyntheticCorpus(long seed, int size, int dimension, int topicCount) {
    this.seed = seed;
    this.dimension = dimension;
    Random random = new Random(seed);
    this.topics = new ArrayList<>(topicCount);
    TopicVectors space = new TopicVectors(dimension, topicCount);
    for (int t = 0; t < topicCount; t++) {
      topics.add(CorpusText.topic(random, t));
      space.drawTopic(t, random);
    }
    this.questions = new CorpusQuestions(topics, space);
    this.items = new ArrayList<>(size);
    this.vectors = new float[size][];
    String[] templates = CorpusVocabulary.MEMORY_TEMPLATES;
    for (int i = 0; i < size; i++) {
      // sessions are runs of one topic, as in a real conversation
      int session = i / MEMORIES_PER_SESSION;
      int topic =
          random.nextInt(4) == 0
              ? random.nextInt(topicCount)
              : Math.floorMod(mix(seed, session), topicCount);
      String text =
          CorpusText.fill(templates[random.nextInt(templates.length)], topics.get(topic), random)
              + CorpusText.fillerTail(random);
      String speaker = CorpusText.pick(random, CorpusVocabulary.PEOPLE);
      items.add(
          new Item(
              i,
              MemoryId.of(String.format(Locale.ROOT, "bench-%08d", i)),
              text,
              "session-" + session,
              speaker,
              topic));
      vectors[i] = space.draw(random, topic);
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
   * {@code count} passage vectors of item {@code index}, as a memory said in several sentences is
   * stored with ({@code MemoryStore.passageCosines}): each {@code normalize(vector + 0.7 * noise)}
   * around the item's own vector, drawn from a generator of the corpus's seed and the index, so the
   * same arguments give the same passages without the corpus holding them.
   */
  public List<Embedding> passages(int index, int count) {
    Random random = new Random(seed * 0x9E3779B97F4A7C15L + index);
    float[] own = vectors[index];
    List<Embedding> out = new ArrayList<>(count);
    for (int p = 0; p < count; p++) {
      float[] noise = TopicVectors.unitGaussian(random, dimension);
      float[] v = new float[dimension];
      for (int d = 0; d < dimension; d++) {
        v[d] = own[d] + 0.7f * noise[d];
      }
      out.add(Embedding.of(v).normalized());
    }
    return out;
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
    return questions.next(random);
  }

  private static long mix(long seed, int session) {
    long h = seed * 0x9E3779B97F4A7C15L + session;
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    return h;
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
