package dev.memhook.core.internal.sanitize;

/**
 * Redacts the user information of a URL that carries a password: in {@code
 * scheme://user:password@host} (also {@code redis://:password@host}, with no user) the part between
 * {@code ://} and the last {@code @} of the authority becomes the marker. A user without a password
 * ({@code ssh://git@host}) is left alone, and so is a user that another rule already redacted
 * ({@code https://ghp_…@github.com} stays a {@code github-token}).
 *
 * <p>Found from {@code ://} by a literal scan; the authority is read forward to the first {@code
 * /}, white space, quote or angle bracket, so no character is read for two URLs. Stateless and
 * thread-safe.
 */
final class UrlCredentials implements Rule {

  @Override
  public String kind() {
    return "url-credentials";
  }

  @Override
  public void find(Subject subject, Edits edits) {
    String text = subject.text();
    int n = text.length();
    int from = 0;
    for (int at = text.indexOf("://", from); at >= 0; at = text.indexOf("://", from)) {
      int start = at + 3;
      int lastAt = -1;
      int firstColon = -1;
      // a token redacted as the user (https://[redacted:github-token]@host) keeps its
      // kind: the marker's own colon is no password separator
      boolean inMarker = Rule.isMarkerAt(text, start);
      int i = start;
      for (; i < n; i++) {
        char c = text.charAt(i);
        if (endsAuthority(c)) {
          break;
        }
        if (c == '@') {
          lastAt = i;
        } else if (c == ']') {
          inMarker = false;
        } else if (c == ':' && firstColon < 0 && !inMarker) {
          firstColon = i;
        }
      }
      if (firstColon >= 0 && firstColon < lastAt) {
        edits.add(start, lastAt);
      }
      // A "://" that starts at the authority's last character is still found.
      from = Math.max(i - 1, at + 1);
    }
  }

  private static boolean endsAuthority(char c) {
    return c == '/'
        || Character.isWhitespace(c)
        || c == '"'
        || c == '\''
        || c == '`'
        || c == '<'
        || c == '>';
  }
}
