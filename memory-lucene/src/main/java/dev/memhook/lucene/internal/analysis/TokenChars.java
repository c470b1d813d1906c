package dev.memhook.lucene.internal.analysis;

/**
 * The character classes of the code-aware chains, decided per code point without regular
 * expressions: the analysis of every text a memory is indexed with runs through them, and Java's
 * script and category classes cost a lookup per character in a matcher.
 *
 * <p>The classes (each is tested against its regular-expression form over every code point):
 *
 * <ul>
 *   <li>{@link #isCjk}: {@code [\p{IsHan}\p{IsHiragana}\p{IsKatakana}\p{IsHangul}\u30FC]};
 *   <li>{@link #isTokenChar}: {@code [\p{L}\p{N}\p{M}_./\\@#$~+'\u2019-]}, CJK or not;
 *   <li>{@link #isLetterOrNumber}: {@code [\p{L}\p{N}]}.
 * </ul>
 *
 * <p>Stateless.
 */
final class TokenChars {

  /** The lowest code point of the Han, Hiragana, Katakana and Hangul scripts (a Hangul jamo). */
  static final int FIRST_CJK = 0x1100;

  /** The katakana-hiragana prolonged sound mark, of the common script, joined to CJK runs. */
  private static final int PROLONGED_SOUND_MARK = 0x30FC;

  private static final int LETTERS =
      1 << Character.UPPERCASE_LETTER
          | 1 << Character.LOWERCASE_LETTER
          | 1 << Character.TITLECASE_LETTER
          | 1 << Character.MODIFIER_LETTER
          | 1 << Character.OTHER_LETTER;
  private static final int NUMBERS =
      1 << Character.DECIMAL_DIGIT_NUMBER
          | 1 << Character.LETTER_NUMBER
          | 1 << Character.OTHER_NUMBER;
  private static final int MARKS =
      1 << Character.NON_SPACING_MARK
          | 1 << Character.ENCLOSING_MARK
          | 1 << Character.COMBINING_SPACING_MARK;

  private TokenChars() {}

  /** Whether {@code cp} is of a CJK script, or the prolonged sound mark. */
  static boolean isCjk(int cp) {
    if (cp < FIRST_CJK) {
      return false;
    }
    if (cp == PROLONGED_SOUND_MARK) {
      return true;
    }
    Character.UnicodeScript script = Character.UnicodeScript.of(cp);
    return script == Character.UnicodeScript.HAN
        || script == Character.UnicodeScript.HIRAGANA
        || script == Character.UnicodeScript.KATAKANA
        || script == Character.UnicodeScript.HANGUL;
  }

  /** Whether {@code cp} belongs in a token: a letter, number or mark, or a code punctuation. */
  static boolean isTokenChar(int cp) {
    if (cp < 0x80) {
      return isAsciiLetterOrDigit(cp) || "_./\\@#$~+'-".indexOf(cp) >= 0;
    }
    return cp == '\u2019' || ((1 << Character.getType(cp)) & (LETTERS | NUMBERS | MARKS)) != 0;
  }

  /** Whether {@code cp} is a letter or a number. */
  static boolean isLetterOrNumber(int cp) {
    if (cp < 0x80) {
      return isAsciiLetterOrDigit(cp);
    }
    return ((1 << Character.getType(cp)) & (LETTERS | NUMBERS)) != 0;
  }

  /** Whether {@code c} is {@code [0-9a-fA-F]}. */
  static boolean isHexDigit(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }

  private static boolean isAsciiLetterOrDigit(int cp) {
    return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9');
  }
}
