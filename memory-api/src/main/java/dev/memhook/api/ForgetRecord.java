package dev.memhook.api;

import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The audit record a {@link MemoryService#forget} leaves behind for each id it removes: which
 * memory, who asked, when and why, and every id the same forget removed. It holds no memory
 * content; the service sanitizes the actor and the reason like any other text it stores.
 *
 * <p>Immutable and thread-safe; every component is required. {@link #removed()} is copied and
 * unmodifiable.
 *
 * @param id the forgotten id
 * @param scope the scope it was in
 * @param actor who asked for it to be forgotten
 * @param reason why
 * @param at when
 * @param removed every id the forget that wrote this record removed, {@code id} among them, the
 *     memory the caller named first, then the versions it superseded, then the observations they
 *     were consolidated from (see {@link ForgetMode}); at most {@value #MAX_REMOVED}, no id twice.
 *     A forget that removes more than {@value #MAX_REMOVED} ids is written in parts of at most that
 *     many, and each record lists the ids of its part. A record made with the five-component
 *     constructor, or read from a store that kept it before records listed their forget's ids,
 *     lists {@code id} alone
 */
public record ForgetRecord(
    MemoryId id, Scope scope, String actor, String reason, Instant at, List<MemoryId> removed) {

  /** The longest actor, in characters. */
  public static final int MAX_ACTOR = 200;

  /** The longest reason, in characters. */
  public static final int MAX_REASON = 1_000;

  /**
   * The most ids one record lists. A forget writes a record per id it removes, each listing every
   * id, so this bounds the largest record and the size of one store write: far above what
   * forgetting a consolidated memory with its versions and sources removes, and low enough that the
   * records of one write stay small next to the memories they replace.
   */
  public static final int MAX_REMOVED = 1_000;

  /**
   * Validates the record and copies {@code removed}.
   *
   * @throws IllegalArgumentException if the actor is blank, a text is over its limit, or {@code
   *     removed} lacks {@code id}, names an id twice or holds more than {@value #MAX_REMOVED}
   */
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
    removed = List.copyOf(Objects.requireNonNull(removed, "removed"));
    if (removed.size() > MAX_REMOVED) {
      throw new IllegalArgumentException(
          "removed holds at most " + MAX_REMOVED + " ids, got " + removed.size());
    }
    Set<MemoryId> seen = new HashSet<>();
    for (MemoryId r : removed) {
      if (!seen.add(r)) {
        throw new IllegalArgumentException("removed names " + r + " twice");
      }
    }
    if (!seen.contains(id)) {
      throw new IllegalArgumentException("removed must name the record's own id " + id);
    }
  }

  /** The record of a forget that removed {@code id} alone. */
  public ForgetRecord(MemoryId id, Scope scope, String actor, String reason, Instant at) {
    this(id, scope, actor, reason, at, List.of(Objects.requireNonNull(id, "id")));
  }
}
