package dev.memhook.api.spi;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryType;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What {@link MemoryStore#listByType} found: the first memories in the listing's order, and how
 * many memories of the listed types the scope holds in all.
 *
 * <p>An immutable value; the list is copied. Null components are rejected.
 *
 * @param memories the first memories of the listing, in its order ({@link #order}); none of them
 *     twice
 * @param total how many latest memories of the scope have one of the listed types, at least {@code
 *     memories.size()}; a record the store found but could not read (damaged) may be counted here
 *     and be missing from {@code memories}
 */
public record TypeListing(List<Memory> memories, long total) {

  private static final TypeListing EMPTY = new TypeListing(List.of(), 0);

  /** Validates and copies. */
  public TypeListing {
    memories = List.copyOf(Objects.requireNonNull(memories, "memories"));
    if (total < memories.size()) {
      throw new IllegalArgumentException(
          "total ("
              + total
              + ") must be at least the number of memories ("
              + memories.size()
              + ")");
    }
  }

  /** Nothing listed, nothing held. */
  public static TypeListing empty() {
    return EMPTY;
  }

  /**
   * The order {@link MemoryStore#listByType} lists in: by the position of a memory's type in {@code
   * types}, then by importance (highest first), then newest first ({@link Memory#createdAt()}),
   * then by id, so that the order is total. A store may break the last tie its own way; this
   * comparator is what the default implementation and stores that sort in memory use.
   *
   * @param types the listed types, as checked by {@link #checkTypes}
   */
  public static Comparator<Memory> order(List<MemoryType> types) {
    List<MemoryType> ranks = checkTypes(types);
    return Comparator.comparingInt((Memory m) -> rank(ranks, m))
        .thenComparing(Memory::importance, Comparator.reverseOrder())
        .thenComparing(Memory::createdAt, Comparator.reverseOrder())
        .thenComparing(m -> m.id().value());
  }

  private static int rank(List<MemoryType> types, Memory m) {
    int rank = types.indexOf(m.type());
    return rank < 0 ? Integer.MAX_VALUE : rank;
  }

  /**
   * {@code types} copied, if it is a list {@link MemoryStore#listByType} accepts: not empty, no
   * type twice.
   *
   * @throws NullPointerException if {@code types} or one of its elements is null
   * @throws IllegalArgumentException if it is empty or names a type twice
   */
  public static List<MemoryType> checkTypes(List<MemoryType> types) {
    List<MemoryType> copy = List.copyOf(Objects.requireNonNull(types, "types"));
    if (copy.isEmpty()) {
      throw new IllegalArgumentException("types must name at least one type");
    }
    Set<MemoryType> seen = EnumSet.noneOf(MemoryType.class);
    for (MemoryType t : copy) {
      if (!seen.add(t)) {
        throw new IllegalArgumentException("types names " + t + " twice: " + copy);
      }
    }
    return copy;
  }
}
