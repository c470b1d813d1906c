package dev.memhook.benchmarks;

import java.util.Random;

/**
 * The vector side of {@link SyntheticCorpus}: per topic a random unit centroid and {@value
 * #SUBTOPICS} random unit sub-directions, and vectors drawn around them as {@code
 * normalize(centroid + 0.6 * subtopic + 0.7 * noise)}. Draws come from the caller's {@link Random}
 * in a fixed order, part of the corpus's seed contract. Not thread-safe while topics are being
 * drawn; read-only (and thread-safe) after.
 */
final class TopicVectors {

  /** Sub-directions per topic. */
  static final int SUBTOPICS = 8;

  private final int dimension;
  private final float[][] centroids;
  private final float[][][] subtopics;

  TopicVectors(int dimension, int topicCount) {
    this.dimension = dimension;
    this.centroids = new float[topicCount][];
    this.subtopics = new float[topicCount][SUBTOPICS][];
  }

  /** Draws the centroid, then the sub-directions, of {@code topic}. */
  void drawTopic(int topic, Random random) {
    centroids[topic] = unitGaussian(random, dimension);
    for (int s = 0; s < SUBTOPICS; s++) {
      subtopics[topic][s] = unitGaussian(random, dimension);
    }
  }

  /** A fresh unit vector of {@code topic}, whose centroid and sub-directions must be drawn. */
  float[] draw(Random random, int topic) {
    float[] c = centroids[topic];
    float[] s = subtopics[topic][random.nextInt(SUBTOPICS)];
    float[] noise = unitGaussian(random, dimension);
    float[] v = new float[dimension];
    for (int d = 0; d < dimension; d++) {
      v[d] = c[d] + 0.6f * s[d] + 0.7f * noise[d];
    }
    return normalize(v);
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
}
