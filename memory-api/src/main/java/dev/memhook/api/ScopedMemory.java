package dev.memhook.api;

import java.util.List;
import java.util.Optional;

/**
 * A {@link MemoryService} confined to one scope, for multi-tenant hosts: give each tenant's code a
 * {@code ScopedMemory} instead of the service, and no call through it can read, change or forget a
 * memory of another scope.
 *
 * <p>Scopes match exactly, as everywhere in Memhook: {@code acme}, {@code acme/alice}, {@code ACME}
 * and {@code acme.} are four unrelated scopes, and a parent does not see its children. A memory of
 * another scope is treated exactly like an unknown id, so a caller cannot tell the two apart and
 * cannot probe other tenants: {@link #get} is empty, {@link #update} throws "no memory with id",
 * {@link #forget} returns false and changes nothing. A draft or query naming another scope is a
 * programming error and is rejected with an {@link IllegalArgumentException}.
 *
 * <p>Obtain one from {@link MemoryService#scoped(Scope)}. Thread-safe, like the service it views;
 * holds no state of its own besides the scope, and is closed with the service. Methods reject null
 * arguments with a {@link NullPointerException}.
 */
public interface ScopedMemory {

  /** The only scope this view reaches. */
  Scope scope();

  /**
   * {@link MemoryService#remember(MemoryDraft)}.
   *
   * @throws IllegalArgumentException if the draft is of another scope, or breaks a limit
   */
  Memory remember(MemoryDraft draft);

  /**
   * {@link MemoryMaintenance#rememberAll(List, java.util.function.Consumer)}, for drafts of this
   * scope only: a draft of another scope fails the call, naming its index, before anything is
   * stored.
   *
   * @throws IllegalArgumentException if a draft is of another scope or is rejected
   */
  List<Memory> rememberAll(
      List<MemoryDraft> drafts, java.util.function.Consumer<ImportProgress> progress);

  /**
   * {@link MemoryService#update(MemoryId, MemoryDraft)}, for a memory of this scope.
   *
   * @throws IllegalArgumentException if {@code id} is unknown or of another scope (the same message
   *     for both), not the latest version, or the draft is of another scope
   */
  Memory update(MemoryId id, MemoryDraft draft);

  /** The memory with this id if it is of this scope; empty if unknown, forgotten or elsewhere. */
  Optional<Memory> get(MemoryId id);

  /**
   * {@link MemoryService#recall(RecallQuery)}.
   *
   * @throws IllegalArgumentException if the query is of another scope
   */
  RecallResult recall(RecallQuery query);

  /**
   * {@link MemoryService#standing(Scope, int)} of this scope.
   *
   * @throws IllegalArgumentException if {@code maxChars} is out of range
   */
  StandingProfile standing(int maxChars);

  /**
   * {@link MemoryService#forget(MemoryId, String, String, ForgetMode)}, for a memory of this scope;
   * its sources are of this scope too.
   *
   * @return the audit records of this forget: empty, with nothing changed, for an id of another
   *     scope
   */
  List<ForgetRecord> forget(MemoryId id, String actor, String reason, ForgetMode mode);

  /**
   * {@link MemoryService#forget(MemoryId, String, String)}, for a memory of this scope: with its
   * older versions and its sources ({@link ForgetMode#WITH_SOURCES}).
   *
   * @return whether anything was forgotten: false, with nothing changed, for an id of another scope
   */
  default boolean forget(MemoryId id, String actor, String reason) {
    return !forget(id, actor, reason, ForgetMode.WITH_SOURCES).isEmpty();
  }

  /**
   * {@link MemoryMaintenance#sources(MemoryId)}, for a memory of this scope.
   *
   * @return the ids of its sources: empty for an id of another scope
   */
  List<MemoryId> sources(MemoryId id);

  /** The audit records of memories forgotten in this scope, oldest first. */
  List<ForgetRecord> forgotten();
}
