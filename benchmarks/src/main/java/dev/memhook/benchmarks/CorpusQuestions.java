package dev.memhook.benchmarks;

import java.util.List;
import java.util.Random;

/**
 * Draws the questions of a {@link SyntheticCorpus}: a question template filled with one topic's
 * entities, and a fresh vector of that topic, so a question's relevant memories are its topic's.
 * Thread-safe given a {@link Random} per caller.
 */
final class CorpusQuestions {

  private final List<CorpusText.Topic> topics;
  private final TopicVectors vectors;

  CorpusQuestions(List<CorpusText.Topic> topics, TopicVectors vectors) {
    this.topics = topics;
    this.vectors = vectors;
  }

  /** One question drawn from {@code random}. */
  SyntheticCorpus.Query next(Random random) {
    int topic = random.nextInt(topics.size());
    String[] templates = CorpusVocabulary.QUERY_TEMPLATES;
    String text =
        CorpusText.fill(templates[random.nextInt(templates.length)], topics.get(topic), random);
    return new SyntheticCorpus.Query(text, topic, vectors.draw(random, topic));
  }
}
