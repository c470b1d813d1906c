package dev.memhook.postgres;

import dev.memhook.api.MemoryStoreException;
import java.sql.SQLException;
import java.time.Clock;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether PostgreSQL is reachable, as the store's calls and its feed follower find out, and who is
 * told when that changes.
 *
 * <p>Any call that fails to reach PostgreSQL marks it {@linkplain #lost lost}; only the follower
 * marks it {@linkplain #restored restored}, after it has listened again and caught every held scope
 * up, so that {@link ReplicaStatus.State#FOLLOWING} always means the replicas are current. Each
 * change is logged once and given to the listener on the thread that made it; a listener that
 * throws is logged and changes nothing.
 *
 * <p>Thread-safe.
 */
final class FeedHealth {
  private static final Logger LOG = LoggerFactory.getLogger(FeedHealth.class);

  private final Clock clock;
  private final Consumer<? super ReplicaStatus> listener;
  private final String where;
  private volatile ReplicaStatus status;

  FeedHealth(Clock clock, Consumer<? super ReplicaStatus> listener, String where) {
    this.clock = clock;
    this.listener = listener;
    this.where = where;
    this.status = new ReplicaStatus(ReplicaStatus.State.FOLLOWING, clock.instant(), "");
  }

  ReplicaStatus status() {
    return status;
  }

  boolean reachable() {
    return status.following();
  }

  /**
   * Marks PostgreSQL unreachable if {@code e} failed to reach it (rather than being refused a
   * statement).
   *
   * @return whether it did
   */
  boolean noteIfUnreachable(MemoryStoreException e) {
    if (e.getCause() instanceof SQLException sql && Jdbc.isConnectionFailure(sql)) {
      lost(sql);
      return true;
    }
    return false;
  }

  /** PostgreSQL could not be reached: {@code cause} says why. */
  void lost(Throwable cause) {
    ReplicaStatus next;
    synchronized (this) {
      if (!status.following()) {
        return;
      }
      String detail = String.valueOf(cause.getMessage());
      next = new ReplicaStatus(ReplicaStatus.State.DISCONNECTED, clock.instant(), detail);
      status = next;
    }
    LOG.warn(
        "{}: PostgreSQL is unreachable; recall is answered from this instance's replicas as of now,"
            + " writes fail until it is back: {}",
        where,
        next.detail());
    tell(next);
  }

  /** The follower listens again and every held scope has caught up. */
  void restored() {
    ReplicaStatus next;
    synchronized (this) {
      if (status.following()) {
        return;
      }
      next = new ReplicaStatus(ReplicaStatus.State.FOLLOWING, clock.instant(), "");
      status = next;
    }
    LOG.info("{}: PostgreSQL is reachable again; the replicas have caught up", where);
    tell(next);
  }

  private void tell(ReplicaStatus next) {
    try {
      listener.accept(next);
    } catch (RuntimeException e) {
      LOG.warn("{}: the replica status listener threw", where, e);
    }
  }
}
