package dev.memhook.core.internal.sanitize;

import java.util.Locale;

/**
 * Redacts the token after {@code Bearer} (any case): 12 or more of {@code A-Z a-z 0-9 . _ ~ + / -}
 * and trailing {@code =}, unless it is one ordinary word ({@code bearer authentication}: all
 * letters, lower case or capitalised). The word {@code bearer} stays.
 *
 * <p>Found by a literal scan of the folded text; each attempt reads the blanks and one token, and
 * the scan goes on after the token: linear. Stateless and thread-safe.
 */
final class BearerTokens implements Rule {

  private static final String[] TRIGGER = {"bearer"};
  private static final int MIN_TOKEN = 12;

  @Override
  public String kind() {
    return "bearer";
  }

  @Override
  public void find(Subject subject, Edits edits) {
    String text = subject.text();
    Triggers candidates = new Triggers(subject.folded(), TRIGGER);
    int from = 0;
    for (int at = candidates.next(from); at >= 0; at = candidates.next(from)) {
      from = at + 1;
      if (at > 0 && continuesWord(text.charAt(at - 1))) {
        continue;
      }
      int start = at + TRIGGER[0].length();
      while (start < text.length() && (text.charAt(start) == ' ' || text.charAt(start) == '\t')) {
        start++;
      }
      if (start == at + TRIGGER[0].length()) {
        continue;
      }
      int end = start;
      while (end < text.length() && isTokenChar(text.charAt(end))) {
        end++;
      }
      int tokenEnd = end;
      while (end < text.length() && text.charAt(end) == '=') {
        end++;
      }
      from = Math.max(from, end);
      if (tokenEnd - start >= MIN_TOKEN && !isOrdinaryWord(text.substring(start, tokenEnd))) {
        edits.add(start, end);
      }
    }
  }

  private static boolean isOrdinaryWord(String token) {
    if (!token.chars().allMatch(Character::isLetter)) {
      return false;
    }
    String rest = token.substring(1);
    return token.equals(token.toLowerCase(Locale.ROOT))
        || rest.equals(rest.toLowerCase(Locale.ROOT));
  }

  private static boolean isTokenChar(char c) {
    return c >= 'a' && c <= 'z'
        || c >= 'A' && c <= 'Z'
        || c >= '0' && c <= '9'
        || c == '.'
        || c == '_'
        || c == '~'
        || c == '+'
        || c == '/'
        || c == '-';
  }

  private static boolean continuesWord(char c) {
    return c >= 'a' && c <= 'z'
        || c >= 'A' && c <= 'Z'
        || c >= '0' && c <= '9'
        || c == '_'
        || c == '-';
  }
}
