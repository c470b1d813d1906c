package dev.memhook.core;

import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.Embedding;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Hashing vectors on both sides, recording which side each text was embedded for: {@link #queries}
 * ({@code embedQuery}) and {@link #documents} (everything stored). Thread-safe.
 */
final class SidedEmbedder implements Embedder {
  private final HashingEmbedder vectors = HashingEmbedder.create();
  final List<String> queries = Collections.synchronizedList(new ArrayList<>());
  final List<String> documents = Collections.synchronizedList(new ArrayList<>());

  @Override
  public Embedding embed(String text) {
    documents.add(text);
    return vectors.embed(text);
  }

  @Override
  public List<Embedding> embedAll(List<String> texts) {
    documents.addAll(texts);
    return vectors.embedAll(texts);
  }

  @Override
  public Embedding embedQuery(String text) {
    queries.add(text);
    return vectors.embed(text);
  }

  @Override
  public int dimension() {
    return vectors.dimension();
  }

  @Override
  public String modelId() {
    return vectors.modelId() + "+sided-test";
  }
}
