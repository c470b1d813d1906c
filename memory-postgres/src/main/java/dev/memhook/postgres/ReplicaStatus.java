package dev.memhook.postgres;

import java.time.Instant;
import java.util.Objects;

/**
 * Whether a {@link PostgresMemoryStore}'s local replicas are following PostgreSQL, as given to
 * {@link PostgresMemoryStore.Builder#statusListener} and returned by {@link
 * PostgresMemoryStore#replicaStatus()}.
 *
 * <p>While {@link State#DISCONNECTED}, searches of the scopes this instance holds are answered from
 * its replicas as they were when PostgreSQL was last reached ({@code since}): changes made through
 * other instances since then are missing from them, and reads by id are answered from the replicas
 * too. Scopes this instance does not hold, writes, counts and exports fail with a retriable {@link
 * dev.memhook.api.MemoryStoreException}. Back in {@link State#FOLLOWING}, the replicas have caught
 * up on everything committed while disconnected.
 *
 * <p>Immutable and thread-safe.
 *
 * @param state following or disconnected
 * @param since when the state began
 * @param detail why it is disconnected (the failure's message, without credentials), or empty
 */
public record ReplicaStatus(State state, Instant since, String detail) {

  /** The states of the replicas. */
  public enum State {
    /** Connected to PostgreSQL and applying its change feed. */
    FOLLOWING,
    /** PostgreSQL unreachable: searches are answered from the replicas as they were. */
    DISCONNECTED
  }

  /** Rejects nulls. */
  public ReplicaStatus {
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(since, "since");
    Objects.requireNonNull(detail, "detail");
  }

  /** Whether the replicas are following PostgreSQL. */
  public boolean following() {
    return state == State.FOLLOWING;
  }
}
