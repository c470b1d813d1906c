package dev.memhook.core.internal.index;

import dev.memhook.api.Memory;

/**
 * The one rule for what text of a memory is embedded: who said it (when named), the title when it
 * adds to the content, and the content. Who said something is often what a question names.
 * Stateless and thread-safe.
 */
public final class EmbeddingText {

  private EmbeddingText() {}

  /** The text to embed for {@code memory}. */
  public static String of(Memory memory) {
    StringBuilder sb = new StringBuilder();
    memory.origin().optionalName().ifPresent(name -> sb.append(name).append(": "));
    String title = memory.title();
    if (DerivedText.addsTo(title, memory.content())) {
      sb.append(title).append(". ");
    }
    sb.append(memory.content());
    return sb.toString();
  }
}
