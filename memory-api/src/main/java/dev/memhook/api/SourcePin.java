package dev.memhook.api;

import java.util.Objects;

/**
 * A pin from a memory to the source it was learnt from: a file path and a digest of the content
 * seen then, so a later use can tell that the source has moved on.
 *
 * <p>Immutable and thread-safe; both components are required, non-blank and within {@link
 * MemoryDraft#MAX_PIN_PATH} and {@link MemoryDraft#MAX_PIN_DIGEST}.
 *
 * @param path the file path as the host names it
 * @param digest a content digest such as {@code sha256:…}
 */
public record SourcePin(String path, String digest) {
  /** Validates the pin. */
  public SourcePin {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(digest, "digest");
    if (path.isBlank() || digest.isBlank()) {
      throw new IllegalArgumentException("source pin path and digest must not be blank");
    }
    FieldLimits.length("source pin path", path, MemoryDraft.MAX_PIN_PATH);
    FieldLimits.length("source pin digest", digest, MemoryDraft.MAX_PIN_DIGEST);
  }
}
