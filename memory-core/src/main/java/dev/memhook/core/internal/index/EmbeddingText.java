package dev.memhook.core.internal.index;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryType;

/**
 * The one rule for what text of a memory is embedded: who said it (when named), the title when it
 * adds to the content, and the content. Who said something is often what a question names.
 *
 * <p>A captured observation longer than {@link #OBSERVATION_CHARS} (a tool's output, typically) is
 * embedded by its compressed form instead: title, summary (the narrative and facts compression
 * found) and the start of its content. Its meaning is in those; embedding a long output whole would
 * cost most of capture's time and average its vector into noise. A short observation (a
 * conversation turn) is embedded like any memory, so a captured conversation ranks as one a host
 * stores turn by turn. Stateless and thread-safe.
 */
public final class EmbeddingText {

  /** The longest observation content embedded whole, in characters. */
  public static final int OBSERVATION_CHARS = 2_000;

  private EmbeddingText() {}

  /** The text to embed for {@code memory}. */
  public static String of(Memory memory) {
    StringBuilder sb = new StringBuilder();
    memory.origin().optionalName().ifPresent(name -> sb.append(name).append(": "));
    String title = memory.title();
    String content = memory.content();
    if (memory.type() == MemoryType.OBSERVATION && content.length() > OBSERVATION_CHARS) {
      sb.append(title).append(". ").append(memory.summary()).append(' ');
      int end = OBSERVATION_CHARS;
      if (Character.isHighSurrogate(content.charAt(end - 1))) {
        end--;
      }
      return sb.append(content, 0, end).toString();
    }
    if (DerivedText.addsTo(title, content)) {
      sb.append(title).append(". ");
    }
    sb.append(content);
    return sb.toString();
  }
}
