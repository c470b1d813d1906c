package dev.memhook.core.internal.sanitize;

/**
 * Whether a stretch of text reads as a random token rather than as words. A credential's prefix
 * found inside a longer token ({@code token_ghp_…}, {@code GH_TOKEN_ghp_…}) is a credential when
 * what it starts is random, and the end of a word when what follows is words ({@code
 * task-runner-for-the-build}, {@code risk_test_CalculatesExposure}); this tells the two apart.
 *
 * <p>The test: a stretch reads as words when it has no digit and at least {@link #WORDY} of its
 * characters lie in runs of three or more ASCII lower-case letters. Words, in any case convention
 * (kebab, snake, camel), are mostly such runs and seldom hold a digit; a random token over letters
 * and digits has few such runs, since a run needs consecutive lower-case draws, and most random
 * tokens hold a digit. Both conditions together make a random token of 20 or more characters read
 * as words only very rarely, which is what the generated tests rely on. Stateless and thread-safe.
 */
final class TokenShape {

  /** The shortest run of lower-case letters that counts as part of a word. */
  private static final int WORD_RUN = 3;

  /** The share of a stretch in lower-case runs from which, with no digit, it reads as words. */
  private static final double WORDY = 0.7;

  private TokenShape() {}

  /** Whether {@code text[start, end)} reads as a random token. */
  static boolean looksRandom(String text, int start, int end) {
    int inWords = 0;
    int run = 0;
    for (int i = start; i < end; i++) {
      char c = text.charAt(i);
      if (c >= '0' && c <= '9') {
        return true;
      }
      if (c >= 'a' && c <= 'z') {
        run++;
      } else {
        if (run >= WORD_RUN) {
          inWords += run;
        }
        run = 0;
      }
    }
    if (run >= WORD_RUN) {
      inWords += run;
    }
    return inWords < WORDY * (end - start);
  }
}
