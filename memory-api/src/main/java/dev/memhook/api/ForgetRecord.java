package dev.memhook.api;

import java.time.Instant;
import java.util.Objects;

/**
 * The audit record a {@link MemoryService#forget} leaves behind: which memory, who asked, when and
 * why. It holds no memory content; the service sanitizes the actor and the reason like any other
 * text it stores.
 *
 * <p>Immutable and thread-safe; every component is required.
 *
 * @param id the forgotten id
 * @param scope the scope it was in
 * @param actor who asked for it to be forgotten
 * @param reason why
 * @param at when
 */
public record ForgetRecord(MemoryId id, Scope scope, String actor, String reason, Instant at) {

  /** The longest actor, in characters. */
  public static final int MAX_ACTOR = 200;

  /** The longest reason, in characters. */
  public static final int MAX_REASON = 1_000;

  /** Validates the record. */
  public ForgetRecord {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(actor, "actor");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(at, "at");
    if (actor.isBlank()) {
      throw new IllegalArgumentException("actor must not be blank");
    }
    FieldLimits.length("actor", actor, MAX_ACTOR);
    FieldLimits.length("reason", reason, MAX_REASON);
  }
}
