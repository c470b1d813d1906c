package dev.memhook.api.capture;

/**
 * Counters of the capture pipeline since the service was built. Every event sent to {@code observe}
 * is counted once in exactly one of {@code accepted}, {@code duplicates}, {@code shed} or {@code
 * rejected}; an accepted event later ends in {@code processed}, {@code duplicatesProcessed}, {@code
 * notAdmitted}, {@code dropped} or {@code failed}, or is still {@code pending}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param accepted events accepted by {@code observe}
 * @param duplicates events {@code observe} recognised as redeliveries
 * @param shed events not accepted because the queue was full ({@link
 *     dev.memhook.api.capture.ShedPolicy#DROP_NEWEST}) or the capture log could not take them
 * @param rejected invalid events {@code observe} refused with an exception
 * @param processed accepted events stored as observations
 * @param duplicatesProcessed accepted events the pipeline found already stored
 * @param notAdmitted accepted events kept in their session but stored as no memory: scaffolding,
 *     acknowledgements, tool narration, {@code git status} runs and bare questions, and tool starts
 *     whose run's end stands for them (a start is counted here while it waits for its end, and
 *     moves to {@code processed} if its session ends first and it is stored after all)
 * @param dropped accepted events dropped from a full queue ({@link
 *     dev.memhook.api.capture.ShedPolicy#DROP_OLDEST})
 * @param failed accepted events the pipeline could not store (logged); they stay in the capture log
 *     and are retried when the service next opens
 * @param pending accepted events not yet processed
 * @param replayed events read back from the capture log when the service opened
 * @param compressorFallbacks observations the optional compressor failed on (error, timeout,
 *     invalid answer, budget spent) and the synthetic form replaced
 * @param consolidatorFallbacks sessions the optional consolidator failed on (error, timeout,
 *     invalid answer, budget spent) and the heuristic consolidator consolidated instead
 * @param consolidated memories written or updated by consolidation
 * @param sessionStoreFailures calls to the session store that failed (logged): the sessions stay in
 *     memory and what the calls were to write is written with the next batch; a record the store
 *     refused as unstorable is counted too, and kept in memory only
 */
public record CaptureStats(
    long accepted,
    long duplicates,
    long shed,
    long rejected,
    long processed,
    long duplicatesProcessed,
    long notAdmitted,
    long dropped,
    long failed,
    long pending,
    long replayed,
    long compressorFallbacks,
    long consolidatorFallbacks,
    long consolidated,
    long sessionStoreFailures) {

  /** All zero: what a service that captures nothing (a read-only one) reports. */
  public static final CaptureStats NONE =
      new CaptureStats(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
}
