package dev.memhook.lucene;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.lucene.index.FilterMergePolicy;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;

/**
 * Rewrites every segment that holds deleted documents without them, so that no segment file of the
 * writer still holds a deleted document's stored record, terms, doc values or vector.
 *
 * <h2>Design note</h2>
 *
 * A Lucene delete only marks a document deleted; its stored fields and terms stay in the segment's
 * files until a merge rewrites that segment. {@link IndexWriter#forceMergeDeletes(boolean)} asks
 * the merge policy which merges expunge deletes; Lucene's {@code TieredMergePolicy} answers with
 * merges it finds worth their cost (a share of deletes over a threshold, and not every small
 * segment even at a threshold of 0), so the store's writer wraps its policy in {@link #policy},
 * which answers with one single-segment merge per segment that has a deleted document: exactly the
 * affected segments are rewritten, each on its own, and nothing else. A merge that was already
 * running on such a segment when the delete arrived carries the delete into its result as a deleted
 * document, and segments being merged are not offered; so {@link #deletes} first waits for the
 * merges under way on segments with deletes, and repeats while the writer still has deletions, a
 * bounded number of times.
 *
 * <p>The rewritten segments are new files; the old ones are deleted by the writer once no commit
 * and no open reader references them: the caller commits and then refreshes the searchers (see
 * {@link WritePath#erase}).
 *
 * <p>Stateless; call {@link #deletes} under the write lock.
 */
final class Expunge {
  /** Rounds of {@code forceMergeDeletes} before giving up; each waits for its merges. */
  static final int MAX_ROUNDS = 8;

  /** How often {@link #deletes} checks whether the merges it waits for are done. */
  private static final long POLL_MILLIS = 2;

  private Expunge() {}

  /**
   * {@code policy} for every merge but the expunging of deletes, for which it answers with one
   * single-segment merge per segment that has deleted documents and is not being merged.
   */
  static MergePolicy policy(MergePolicy policy) {
    return new FilterMergePolicy(policy) {
      @Override
      public MergeSpecification findForcedDeletesMerges(SegmentInfos infos, MergeContext context)
          throws IOException {
        Set<SegmentCommitInfo> merging = context.getMergingSegments();
        MergeSpecification spec = new MergeSpecification();
        for (SegmentCommitInfo segment : infos) {
          if (!merging.contains(segment) && context.numDeletesToMerge(segment) > 0) {
            spec.add(new OneMerge(List.of(segment)));
          }
        }
        return spec.merges.isEmpty() ? null : spec;
      }
    };
  }

  /**
   * Rewrites every segment of {@code writer} that has deleted documents, waiting for the merges.
   * The writer must use a {@link #policy}.
   *
   * @throws IOException if a merge failed, or if deleted documents remain after {@value
   *     #MAX_ROUNDS} rounds
   */
  static void deletes(IndexWriter writer) throws IOException {
    for (int round = 0; writer.hasDeletions(); round++) {
      if (round == MAX_ROUNDS) {
        throw new IOException(
            "deleted documents remain after " + MAX_ROUNDS + " rounds of expunging deletes");
      }
      awaitMergesWithDeletes(writer);
      writer.forceMergeDeletes(true);
    }
  }

  /**
   * Waits until no merge under way involves a segment with deleted documents: the merge policy does
   * not offer segments being merged, and a merge that started before a delete keeps the deleted
   * document in its result. The writer offers no way to wait for merges it did not start here, so
   * this polls; merges always finish (or fail, which ends them too).
   */
  static void awaitMergesWithDeletes(IndexWriter writer) throws IOException {
    while (mergingWithDeletes(writer)) {
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException(
            "interrupted while waiting for a merge to expunge deletes");
      }
    }
  }

  private static boolean mergingWithDeletes(IndexWriter writer) throws IOException {
    List<SegmentCommitInfo> merging;
    // getMergingSegments is a view of a set that merge threads change under the writer's monitor:
    // copy it under that monitor, or iterating it may throw ConcurrentModificationException
    synchronized (writer) {
      merging = new ArrayList<>(writer.getMergingSegments());
    }
    for (SegmentCommitInfo segment : merging) {
      if (writer.numDeletesToMerge(segment) > 0) {
        return true;
      }
    }
    return false;
  }
}
