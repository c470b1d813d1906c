package dev.memhook.core.internal.observe;

import dev.memhook.api.Memory;
import dev.memhook.api.Origin;
import dev.memhook.api.spi.MemoryStore;
import java.text.BreakIterator;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;

/**
 * The one rule for which memories are stored with passage vectors, and the text of each passage:
 * the sentences of what a person said, each after the speaker's name when named, as {@link
 * EmbeddingText} puts it before the memory.
 *
 * <p>A memory's vector averages everything it says, so a question about one thing a person said
 * among several finds the memory late; the best of its sentences' vectors finds it where the one
 * sentence alone would be. That holds for people's words: an assistant's or a tool's answer covers
 * many things at once and its sentences, split, mostly match questions they do not answer (measured
 * in benchmarks/RESULTS.md, "One vector per sentence"). So only a memory said by a person ({@link
 * Origin.Kind#USER}) is split, and only when its content holds two sentences of {@link #MIN_CHARS}
 * characters or more: one sentence is what the memory's own vector says already.
 *
 * <p>Bounded whatever the content's size: the first {@link MemoryStore#MAX_PASSAGES} sentences are
 * taken, each cut to {@link #MAX_CHARS} characters (about one window of a small local model), and
 * the content is read no further than they need. Stateless and thread-safe.
 */
public final class PassageText {

  /** The shortest sentence that is a passage: shorter ones ("Yes!", "Thanks.") say too little. */
  public static final int MIN_CHARS = 15;

  /** The longest passage embedded, in characters; a longer sentence is cut. */
  public static final int MAX_CHARS = EmbeddingText.OBSERVATION_CHARS;

  private PassageText() {}

  /** The passages of {@code memory}: empty unless a person said two sentences or more. */
  public static List<String> of(Memory memory) {
    Origin origin = memory.origin();
    if (origin.kind() != Origin.Kind.USER) {
      return List.of();
    }
    List<String> sentences = sentences(memory.content(), MemoryStore.MAX_PASSAGES);
    if (sentences.size() < 2) {
      return List.of();
    }
    String who = origin.optionalName().map(name -> name + ": ").orElse("");
    List<String> out = new ArrayList<>(sentences.size());
    sentences.forEach(s -> out.add(who + s));
    return List.copyOf(out);
  }

  /**
   * The first {@code max} sentences of {@code text} of at least {@link #MIN_CHARS} characters,
   * stripped and cut to {@link #MAX_CHARS}, as {@link BreakIterator} finds them; a line break ends
   * a sentence too (a list or a pasted block has none of the sentence's own punctuation).
   */
  static List<String> sentences(String text, int max) {
    List<String> out = new ArrayList<>();
    BreakIterator it = BreakIterator.getSentenceInstance(Locale.ROOT);
    for (Iterator<String> lines = text.lines().iterator(); lines.hasNext() && out.size() < max; ) {
      String line = lines.next();
      it.setText(line);
      for (int start = it.first(), end = it.next();
          end != BreakIterator.DONE && out.size() < max;
          start = end, end = it.next()) {
        String s = line.substring(start, end).strip();
        if (s.length() >= MIN_CHARS) {
          out.add(cut(s));
        }
      }
    }
    return out;
  }

  private static String cut(String s) {
    if (s.length() <= MAX_CHARS) {
      return s;
    }
    int end = Character.isHighSurrogate(s.charAt(MAX_CHARS - 1)) ? MAX_CHARS - 1 : MAX_CHARS;
    return s.substring(0, end);
  }
}
