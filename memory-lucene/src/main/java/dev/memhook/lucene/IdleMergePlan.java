package dev.memhook.lucene;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * The merges that bring a quiet store's segments down to as few as its largest segment allows: the
 * decisions of {@link IdleMerges}, over plain values so that they can be checked on synthetic
 * segment lists.
 *
 * <h2>Design note</h2>
 *
 * Every search visits every segment, so the fewest segments search fastest; every merge rewrites
 * what it merges (its HNSW graph included), and so does the rewrite that erases a forgotten memory
 * from its segment, so no merge here builds a segment past {@code maxBytes}. Within that bound the
 * plan packs the segments by their live size (what a merge keeps: the size times the share of
 * documents not deleted) into as few groups as first-fit decreasing finds, which is within 11/9 of
 * the fewest possible: a store smaller than {@code maxBytes} becomes one segment, a larger one
 * about {@code size / maxBytes} of them. Each group of two or more segments is one merge. A segment
 * alone in its group is rewritten alone if at least {@link #REWRITE_DELETED_SHARE} of its documents
 * are deleted (a store that replaces memories, or a mirror, accumulates deleted documents that
 * every search still walks past); otherwise it is left as it is. A segment larger than {@code
 * maxBytes} (from an explicit {@code forceMerge}, or a store opened with a smaller limit than it
 * was built with) is never merged, and a segment with no live document is left to Lucene, which
 * drops it. A graphless segment, whose vectors a bulk load wrote without their search graph ({@link
 * VectorGraphs}), is always rewritten: with the others of its group, or alone (also when it is
 * larger than {@code maxBytes}), since the rewrite is what builds its graph.
 *
 * <p>The plan is deterministic: segments of equal live size are taken in name order.
 *
 * <p>Stateless and thread-safe; every method rejects null arguments with {@link
 * NullPointerException}.
 */
final class IdleMergePlan {

  /**
   * The share of deleted documents from which a segment alone in its group is rewritten to drop
   * them: Lucene's {@code TieredMergePolicy} lets natural merges leave up to a fifth; half that
   * keeps a quiet store's searches from walking past many deleted documents, at the price of one
   * rewrite of a segment that cannot merge with others.
   */
  static final double REWRITE_DELETED_SHARE = 0.10;

  private IdleMergePlan() {}

  /**
   * A segment as the plan sees it.
   *
   * @param name the segment's name, unique within a list
   * @param sizeBytes the size of its files, deleted documents included
   * @param maxDoc its documents, deleted ones included
   * @param deletedDocs how many of them are deleted
   * @param graphless whether its vectors lack their search graph ({@link VectorGraphs}): such a
   *     segment is always rewritten, with others or alone
   */
  record Segment(String name, long sizeBytes, int maxDoc, int deletedDocs, boolean graphless) {
    /**
     * @throws IllegalArgumentException if a count or the size is negative, or more documents are
     *     deleted than the segment has
     */
    Segment {
      Objects.requireNonNull(name, "name");
      if (sizeBytes < 0 || maxDoc < 0 || deletedDocs < 0 || deletedDocs > maxDoc) {
        throw new IllegalArgumentException(
            "segment "
                + name
                + ": size "
                + sizeBytes
                + ", "
                + maxDoc
                + " documents, "
                + deletedDocs
                + " deleted");
      }
    }

    /** A segment whose vectors have their graph. */
    Segment(String name, long sizeBytes, int maxDoc, int deletedDocs) {
      this(name, sizeBytes, maxDoc, deletedDocs, false);
    }

    /** What a merge keeps of this segment: its size times the share of live documents. */
    long liveBytes() {
      return maxDoc == 0 ? 0 : Math.round(sizeBytes * ((double) (maxDoc - deletedDocs) / maxDoc));
    }

    private double deletedShare() {
      return maxDoc == 0 ? 0 : (double) deletedDocs / maxDoc;
    }
  }

  /**
   * The merges to run, each as the names of the segments it merges (largest live size first), in
   * the order first-fit decreasing opened them; empty if the segments are as few and as clean as
   * the plan makes them.
   *
   * @param segments the segments free to merge (none of them in a merge already)
   * @param maxBytes the largest live size a merge may build
   * @throws IllegalArgumentException if {@code maxBytes} is not positive
   */
  static List<List<String>> merges(List<Segment> segments, long maxBytes) {
    Objects.requireNonNull(segments, "segments");
    if (maxBytes <= 0) {
      throw new IllegalArgumentException("maxBytes must be positive, got " + maxBytes);
    }
    List<Segment> candidates = new ArrayList<>();
    for (Segment s : segments) {
      if (s.maxDoc() > s.deletedDocs() && (s.liveBytes() <= maxBytes || s.graphless())) {
        candidates.add(s);
      }
    }
    candidates.sort(
        Comparator.comparingLong(Segment::liveBytes).reversed().thenComparing(Segment::name));
    List<List<Segment>> groups = new ArrayList<>();
    List<Long> filled = new ArrayList<>();
    for (Segment s : candidates) {
      int g = 0;
      // a graphless segment over the limit (never merged with others) fits no group: its own
      while (g < groups.size() && filled.get(g) + s.liveBytes() > maxBytes) {
        g++;
      }
      if (g == groups.size()) {
        groups.add(new ArrayList<>());
        filled.add(0L);
      }
      groups.get(g).add(s);
      filled.set(g, filled.get(g) + s.liveBytes());
    }
    List<List<String>> merges = new ArrayList<>();
    for (List<Segment> group : groups) {
      if (group.size() >= 2
          || group.get(0).deletedShare() >= REWRITE_DELETED_SHARE
          || group.get(0).graphless()) {
        merges.add(group.stream().map(Segment::name).toList());
      }
    }
    return merges;
  }
}
