package dev.memhook.core.internal.observe;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryType;
import dev.memhook.lucene.internal.analysis.DerivedText;

/**
 * The one rule for what text of a memory is embedded: who said it (when named), the title when it
 * adds to the content, and the content. Who said something is often what a question names.
 *
 * <p>A captured observation longer than {@link #OBSERVATION_CHARS} (a tool's input and output,
 * typically) is embedded by its compressed form instead: its title (when the summary does not
 * already say it) and summary (the narrative and facts compression found), at most {@link
 * #OBSERVATION_CHARS} characters of them. Its meaning is in those; the local model reads a long
 * text as several windows, so embedding tool output whole costs most of capture's time, and
 * averaging its windows blurs the vector. A short observation (a conversation turn) is embedded
 * like any memory, so a captured conversation ranks as one a host stores turn by turn. Stateless
 * and thread-safe.
 */
public final class EmbeddingText {

  /**
   * The longest observation content embedded whole, and the most of a longer one's compressed form
   * that is embedded, in characters: about a hundred tokens, one short window of the local model.
   */
  public static final int OBSERVATION_CHARS = 600;

  private EmbeddingText() {}

  /** The text to embed for {@code memory}. */
  public static String of(Memory memory) {
    StringBuilder sb = new StringBuilder();
    memory.origin().optionalName().ifPresent(name -> sb.append(name).append(": "));
    String title = memory.title();
    String content = memory.content();
    if (memory.type() == MemoryType.OBSERVATION && content.length() > OBSERVATION_CHARS) {
      String summary = memory.summary();
      if (DerivedText.addsTo(title, summary)) {
        sb.append(title).append(". ");
      }
      sb.append(summary);
      int end = Math.min(sb.length(), OBSERVATION_CHARS);
      if (end < sb.length() && Character.isHighSurrogate(sb.charAt(end - 1))) {
        end--;
      }
      return sb.substring(0, end);
    }
    if (DerivedText.addsTo(title, content)) {
      sb.append(title).append(". ");
    }
    sb.append(content);
    return sb.toString();
  }
}
