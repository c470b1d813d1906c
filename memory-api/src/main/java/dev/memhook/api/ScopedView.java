package dev.memhook.api;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@link ScopedMemory} of {@link MemoryService#scoped(Scope)}: checks the scope, then
 * delegates. Checking before acting is safe because a memory's scope never changes (an update stays
 * in its scope, and forgetting follows versions of one memory and its sources of the same scope
 * only).
 */
final class ScopedView implements ScopedMemory {

  private final MemoryService service;
  private final Scope scope;

  ScopedView(MemoryService service, Scope scope) {
    this.service = Objects.requireNonNull(service, "service");
    this.scope = Objects.requireNonNull(scope, "scope");
  }

  @Override
  public Scope scope() {
    return scope;
  }

  @Override
  public Memory remember(MemoryDraft draft) {
    checkScope("draft", Objects.requireNonNull(draft, "draft").scope());
    return service.remember(draft);
  }

  @Override
  public List<Memory> rememberAll(
      List<MemoryDraft> drafts, java.util.function.Consumer<ImportProgress> progress) {
    List<MemoryDraft> all = List.copyOf(drafts);
    for (int i = 0; i < all.size(); i++) {
      try {
        checkScope("draft", all.get(i).scope());
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "drafts[" + i + "]: " + e.getMessage() + "; nothing was stored", e);
      }
    }
    return service.maintenance().rememberAll(all, Objects.requireNonNull(progress, "progress"));
  }

  @Override
  public Memory update(MemoryId id, MemoryDraft draft) {
    Objects.requireNonNull(id, "id");
    checkScope("draft", Objects.requireNonNull(draft, "draft").scope());
    if (get(id).isEmpty()) {
      throw new IllegalArgumentException("no memory with id " + id);
    }
    return service.update(id, draft);
  }

  @Override
  public Optional<Memory> get(MemoryId id) {
    Objects.requireNonNull(id, "id");
    return service.get(id).filter(m -> m.scope().equals(scope));
  }

  @Override
  public RecallResult recall(RecallQuery query) {
    checkScope("query", Objects.requireNonNull(query, "query").scope());
    return service.recall(query);
  }

  @Override
  public StandingProfile standing(int maxChars) {
    return service.standing(scope, StandingProfile.checkBudget(maxChars));
  }

  @Override
  public List<ForgetRecord> forget(MemoryId id, String actor, String reason, ForgetMode mode) {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(actor, "actor");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(mode, "mode");
    return get(id).isPresent() ? service.forget(id, actor, reason, mode) : List.of();
  }

  @Override
  public List<MemoryId> sources(MemoryId id) {
    return get(id).isPresent() ? service.maintenance().sources(id) : List.of();
  }

  @Override
  public List<ForgetRecord> forgotten() {
    return service.maintenance().forgotten(scope);
  }

  private void checkScope(String what, Scope other) {
    if (!other.equals(scope)) {
      throw new IllegalArgumentException(
          "this view is confined to scope " + scope + "; the " + what + " is of scope " + other);
    }
  }

  @Override
  public String toString() {
    return "ScopedMemory[" + scope + "]";
  }
}
