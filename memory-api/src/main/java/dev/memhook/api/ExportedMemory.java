package dev.memhook.api;

import java.util.Objects;
import java.util.Optional;

/**
 * A memory as {@link MemoryMaintenance#exportWithVectors} hands it out and {@link
 * MemoryMaintenance#restoreExported} takes it back: the memory and, where its store can give it,
 * the vector the store holds for it.
 *
 * <p>Immutable and thread-safe. Null components are rejected with {@link NullPointerException}.
 *
 * @param memory the memory, any version of any scope
 * @param vector its vector, empty where the store cannot export vectors (or the export file had
 *     none): such a memory is embedded again when restored
 */
public record ExportedMemory(Memory memory, Optional<MemoryVector> vector) {
  /** Checks nulls. */
  public ExportedMemory {
    Objects.requireNonNull(memory, "memory");
    Objects.requireNonNull(vector, "vector");
  }

  /** {@code memory} without a vector: it is embedded when restored. */
  public static ExportedMemory withoutVector(Memory memory) {
    return new ExportedMemory(memory, Optional.empty());
  }
}
