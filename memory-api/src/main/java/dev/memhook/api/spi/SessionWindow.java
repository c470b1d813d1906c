package dev.memhook.api.spi;

import dev.memhook.api.MemoryId;
import java.util.List;
import java.util.Objects;

/**
 * Where one memory stands in its source session: the latest memories of the same scope and session
 * told just before and just after it, as {@link MemoryStore#sessionWindows} finds them. Immutable
 * and thread-safe; null lists are rejected.
 *
 * @param before the memories told just before it, nearest first
 * @param after the memories told just after it, nearest first
 */
public record SessionWindow(List<MemoryId> before, List<MemoryId> after) {

  /** Copies both lists. */
  public SessionWindow {
    before = List.copyOf(Objects.requireNonNull(before, "before"));
    after = List.copyOf(Objects.requireNonNull(after, "after"));
  }
}
