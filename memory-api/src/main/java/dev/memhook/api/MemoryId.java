package dev.memhook.api;

import java.security.SecureRandom;
import java.util.Objects;

/**
 * The identity of one stored memory version.
 *
 * <p>A value of 1 to 128 characters from {@code [A-Za-z0-9._:-]}, so it is safe to show a model, to
 * put in JSON and to use as a file or index key. Ids made by {@link #random()} are 128-bit random
 * values, never guessable sequences. Hosts that import memories may keep their own ids if they fit
 * the pattern.
 *
 * <p>Immutable and thread-safe. The constructor rejects {@code null} with a {@link
 * NullPointerException} and malformed text with an {@link IllegalArgumentException}.
 *
 * @param value the id text
 */
public record MemoryId(String value) implements Comparable<MemoryId> {

  /** The longest accepted id, in characters. */
  public static final int MAX_LENGTH = 128;

  private static final SecureRandom RANDOM = new SecureRandom();
  private static final char[] ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz".toCharArray();

  /** Validates the id text. */
  public MemoryId {
    Objects.requireNonNull(value, "value");
    if (!isValid(value)) {
      throw new IllegalArgumentException(
          "memory id must be 1-"
              + MAX_LENGTH
              + " characters of [A-Za-z0-9._:-], got '"
              + FieldLimits.abbreviate(value, 40)
              + "'");
    }
  }

  /**
   * Parses an id.
   *
   * @throws IllegalArgumentException if {@code value} is not a valid id
   */
  public static MemoryId of(String value) {
    return new MemoryId(value);
  }

  /**
   * Returns a fresh random id such as {@code mem_8k2v...} (26 random base-32 characters, 130 bits).
   */
  public static MemoryId random() {
    StringBuilder sb = new StringBuilder(30).append("mem_");
    for (int i = 0; i < 26; i++) {
      sb.append(ALPHABET[RANDOM.nextInt(ALPHABET.length)]);
    }
    return new MemoryId(sb.toString());
  }

  /** Whether {@code text} would be accepted by the constructor; {@code false} for null. */
  public static boolean isValid(String text) {
    // a loop, not a regular expression: every id a search returns is checked, and a matcher costs
    // more than the rest of reading the id
    if (text == null || text.isEmpty() || text.length() > MAX_LENGTH) {
      return false;
    }
    for (int i = 0; i < text.length(); i++) {
      if (!isIdChar(text.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code c} is one of {@code [A-Za-z0-9._:-]}. */
  private static boolean isIdChar(char c) {
    return (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || (c >= '0' && c <= '9')
        || c == '.'
        || c == '_'
        || c == ':'
        || c == '-';
  }

  @Override
  public int compareTo(MemoryId other) {
    return value.compareTo(other.value);
  }

  @Override
  public String toString() {
    return value;
  }
}
