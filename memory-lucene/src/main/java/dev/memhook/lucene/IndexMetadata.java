package dev.memhook.lucene;

import dev.memhook.api.IncompatibleStoreException;
import dev.memhook.api.spi.Embedding;
import dev.memhook.api.spi.EmbeddingSpace;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.lucene.index.IndexWriter;

/**
 * What an index records about itself in its commit user data, beside the documents: the index
 * format and the text field weights, both fixed when the index is created and checked at every
 * open, and the embedding space, recorded by the first {@link #attach} and checked by every later
 * one. An index whose records disagree with the store fails with {@link
 * IncompatibleStoreException}, so that documents written under other rules are never mixed.
 *
 * <p>Thread-safe: writes and searches read the space without locking; {@link #attach} changes it
 * under the write lock.
 */
final class IndexMetadata {
  static final String USER_DATA_MODEL = "memhook.space.model";
  static final String USER_DATA_DIMENSION = "memhook.space.dimension";
  static final String USER_DATA_FORMAT = "memhook.index.format";
  static final String USER_DATA_WEIGHTS = "memhook.text.weights";

  private final String location;

  /** The space recorded in the index, or attached; null until either. */
  private volatile EmbeddingSpace space;

  private volatile boolean attached;

  private IndexMetadata(String location, EmbeddingSpace recorded) {
    this.location = location;
    this.space = recorded;
  }

  /**
   * Reads the commit user data of a just opened writer, checks the format and the field weights,
   * and records them in an index that lacks them (a new one). Only then does it commit: a commit on
   * every open would cost an fsync and start whatever merges the policy finds, competing with the
   * first searches.
   *
   * @param weightUnits each field's weight in {@link IndexSchema#WEIGHT_UNITS}
   * @throws IncompatibleStoreException if the index has another format or other weights
   * @throws IOException if the commit failed
   */
  static IndexMetadata open(
      IndexWriter writer, String location, Map<SearchField, Integer> weightUnits)
      throws IOException {
    Map<String, String> userData = userData(writer);
    String format = userData.get(USER_DATA_FORMAT);
    checkFormat(format, location);
    String weights = weightsKey(weightUnits);
    String recorded = userData.get(USER_DATA_WEIGHTS);
    if (recorded != null && !recorded.equals(weights)) {
      throw new IncompatibleStoreException(
          "the "
              + location
              + " was indexed with text field weights ["
              + recorded
              + "] but the store is configured with ["
              + weights
              + "]; field weights are fixed"
              + " when memories are indexed: configure the original weights or rebuild the index in a new directory");
    }
    if (!weights.equals(recorded) || !IndexSchema.FORMAT.equals(format)) {
      userData.put(USER_DATA_WEIGHTS, weights);
      userData.put(USER_DATA_FORMAT, IndexSchema.FORMAT);
      writer.setLiveCommitData(userData.entrySet());
      writer.commit();
    }
    return new IndexMetadata(location, readSpace(userData));
  }

  /**
   * What a read-only store reads from the commit user data {@code userData}: the format, checked,
   * and the space. The field weights are not checked: they were applied when the index was written
   * and a read-only store writes nothing.
   *
   * @throws IncompatibleStoreException if the index has another format
   */
  static IndexMetadata readOnly(Map<String, String> userData, String location) {
    checkFormat(userData.get(USER_DATA_FORMAT), location);
    return new IndexMetadata(location, readSpace(userData));
  }

  /**
   * The space recorded in the index or attached, or null if neither: what searches compare with.
   */
  EmbeddingSpace space() {
    return space;
  }

  /**
   * The attached space: what writes are checked against.
   *
   * @throws IllegalStateException if {@link #attach} was not called
   */
  EmbeddingSpace attachedSpace() {
    EmbeddingSpace s = space;
    if (!attached || s == null) {
      throw new IllegalStateException(
          "attach(EmbeddingSpace) must be called before writing to the " + location);
    }
    return s;
  }

  /**
   * Checks {@code space} against the recorded one, records and commits it if none is, and marks the
   * store attached; under the write lock, so two attaches cannot both record.
   *
   * @throws IncompatibleStoreException if another space is recorded
   */
  void attach(EmbeddingSpace space, WritePath writes) {
    if (writes.isReadOnly()) {
      writes.ensureOpen();
      synchronized (this) {
        checkSpace(space);
        if (this.space == null) {
          this.space = space; // a read-only store records nothing: searches compare with it
        }
        this.attached = true;
      }
      return;
    }
    writes.locked(
        writer -> {
          EmbeddingSpace recorded = this.space;
          checkSpace(space);
          if (recorded == null) {
            Map<String, String> userData = userData(writer);
            userData.put(USER_DATA_MODEL, space.modelId());
            userData.put(USER_DATA_DIMENSION, Integer.toString(space.dimension()));
            writer.setLiveCommitData(userData.entrySet());
            writes.commitNow("record the embedding space");
            this.space = space;
          }
          this.attached = true;
        });
  }

  private void checkSpace(EmbeddingSpace space) {
    EmbeddingSpace recorded = this.space;
    if (recorded != null && !recorded.equals(space)) {
      throw new IncompatibleStoreException(
          "the "
              + location
              + " holds vectors of model '"
              + recorded.modelId()
              + "' (dimension "
              + recorded.dimension()
              + ") but the configured embedder is '"
              + space.modelId()
              + "' (dimension "
              + space.dimension()
              + "); configure the original model or"
              + " rebuild the store in a new directory (vector spaces are never mixed)");
    }
  }

  /**
   * Checks that {@code e} is in {@code s}.
   *
   * @throws IllegalArgumentException if its dimension is another
   */
  static void checkDimension(Embedding e, EmbeddingSpace s) {
    if (e.dimension() != s.dimension()) {
      throw new IllegalArgumentException(
          "embedding has dimension "
              + e.dimension()
              + " but the attached space '"
              + s.modelId()
              + "' has dimension "
              + s.dimension());
    }
  }

  /** The weights as recorded in the commit user data, such as {@code title=8,summary=6,...}. */
  static String weightsKey(Map<SearchField, Integer> units) {
    return units.entrySet().stream()
        .map(e -> e.getKey().fieldName() + "=" + e.getValue())
        .collect(Collectors.joining(","));
  }

  private static void checkFormat(String format, String location) {
    if (format != null && !IndexSchema.READABLE_FORMATS.contains(format)) {
      throw new IncompatibleStoreException(
          "the "
              + location
              + " has index format "
              + format
              + " but this Memhook reads formats "
              + new java.util.TreeSet<>(IndexSchema.READABLE_FORMATS)
              + "; upgrade Memhook or rebuild the index");
    }
  }

  private static Map<String, String> userData(IndexWriter writer) {
    Map<String, String> userData = new HashMap<>();
    Iterable<Map.Entry<String, String>> live = writer.getLiveCommitData();
    if (live != null) {
      live.forEach(e -> userData.put(e.getKey(), e.getValue()));
    }
    return userData;
  }

  private static EmbeddingSpace readSpace(Map<String, String> userData) {
    String model = userData.get(USER_DATA_MODEL);
    String dimension = userData.get(USER_DATA_DIMENSION);
    if (model == null || dimension == null) {
      return null;
    }
    return new EmbeddingSpace(model, Integer.parseInt(dimension));
  }
}
