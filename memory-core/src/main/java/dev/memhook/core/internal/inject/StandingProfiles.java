package dev.memhook.core.internal.inject;

import dev.memhook.api.Memory;
import dev.memhook.api.Scope;
import dev.memhook.api.StandingProfile;
import dev.memhook.api.spi.MemoryStore;
import dev.memhook.api.spi.TypeListing;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * What a scope's standing profile is, in one place: the store's listing of its latest memories of
 * the {@linkplain StandingProfile#TYPES standing types}, in the listing's order, cut to a budget in
 * characters counted on what the model reads, and to a count. {@link
 * dev.memhook.api.MemoryService#standing} returns {@link #of}; a hook's first injection offers the
 * same cut over its scopes ({@link ScopedRecall}, which decides about each memory).
 *
 * <h2>Rules</h2>
 *
 * <ul>
 *   <li>A memory costs the length of its entry in a {@code get_memory} summary result ({@link
 *       MemoryRendering#summary}, with its scope when the result shows scopes) plus one for the
 *       comma or bracket beside it, so the budget is what the model reads.
 *   <li>Memories are taken in the listing's order, each if it fits in what is left of the budget
 *       and the count; one that does not fit is passed over and the next is tried, so one long
 *       memory does not keep out the short ones after it.
 *   <li>At most {@link StandingProfile#MAX_MEMORIES} are listed, so the work is bounded by that,
 *       not by the scope's size; what the listing did not return counts as omitted.
 * </ul>
 *
 * <p>Thread-safe if the store is.
 */
public final class StandingProfiles {

  private final MemoryStore store;

  /** The profiles of the memories {@code store} holds. */
  public StandingProfiles(MemoryStore store) {
    this.store = Objects.requireNonNull(store, "store");
  }

  /**
   * The profile of {@code scope} within {@code maxChars}, every standing memory eligible, scopes
   * not shown: what {@link dev.memhook.api.MemoryService#standing} returns.
   *
   * @param maxChars checked by the caller ({@link StandingProfile#checkBudget})
   */
  public StandingProfile of(Scope scope, int maxChars) {
    return cut(scope, list(scope), maxChars, StandingProfile.MAX_MEMORIES, false, m -> true);
  }

  /** The store's listing of {@code scope}'s standing memories: at most the most a profile holds. */
  TypeListing list(Scope scope) {
    return store.listByType(scope, StandingProfile.TYPES, StandingProfile.MAX_MEMORIES);
  }

  /**
   * {@code listing} cut to {@code maxChars} and {@code maxCount}: the memories {@code eligible}
   * lets through, in order, each taken if it fits in what is left. {@code omitted} counts the
   * eligible memories not taken and those the listing did not return; the ones {@code eligible}
   * kept out are the caller's to report.
   *
   * @param withScope whether the result the memories are shown in names each one's scope
   */
  static StandingProfile cut(
      Scope scope,
      TypeListing listing,
      int maxChars,
      int maxCount,
      boolean withScope,
      Predicate<Memory> eligible) {
    List<Memory> taken = new ArrayList<>();
    int characters = 0;
    int ineligible = 0;
    for (Memory m : listing.memories()) {
      if (!eligible.test(m)) {
        ineligible++;
        continue;
      }
      if (taken.size() >= maxCount) {
        continue;
      }
      int cost = cost(m, withScope);
      if (cost <= maxChars - characters) {
        taken.add(m);
        characters += cost;
      }
    }
    return new StandingProfile(
        scope, taken, characters, listing.total() - ineligible - taken.size());
  }

  /** What {@code m} takes of a profile's budget: its summary entry and the comma beside it. */
  static int cost(Memory m, boolean withScope) {
    return MemoryRendering.summary(m, Integer.MAX_VALUE, withScope).length() + 1;
  }
}
