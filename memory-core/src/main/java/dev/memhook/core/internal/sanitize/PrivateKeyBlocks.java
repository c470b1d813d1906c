package dev.memhook.core.internal.sanitize;

/**
 * Redacts PEM and PGP private-key blocks ({@code -----BEGIN … PRIVATE KEY-----}, {@code -----BEGIN
 * PGP PRIVATE KEY BLOCK-----}) from the header through the matching {@code -----END …-----} line; a
 * block without an end line is redacted to the end of the text, since the rest of it is key
 * material. Headers of other blocks (certificates, public keys) are left alone. A key body pasted
 * without its header is not recognised: base64 alone cannot be told from other encoded data.
 *
 * <p>One forward pass: each header and end line is read once. Stateless and thread-safe.
 */
final class PrivateKeyBlocks implements Rule {

  private static final String BEGIN = "-----BEGIN ";
  private static final String END = "-----END ";
  private static final String DASHES = "-----";

  /** Longest label read between {@code BEGIN }/{@code END } and the closing dashes. */
  private static final int MAX_LABEL = 64;

  @Override
  public String kind() {
    return "private-key";
  }

  @Override
  public void find(Subject subject, Edits edits) {
    String text = subject.text();
    int from = 0;
    for (int at = text.indexOf(BEGIN, from); at >= 0; at = text.indexOf(BEGIN, from)) {
      int headerEnd = labelEnd(text, at + BEGIN.length());
      if (headerEnd < 0 || !isPrivateKeyLabel(text, at + BEGIN.length(), headerEnd)) {
        from = at + 1;
        continue;
      }
      int blockEnd = -1;
      int search = headerEnd + DASHES.length();
      for (int end = text.indexOf(END, search); end >= 0; end = text.indexOf(END, end + 1)) {
        int endLabel = labelEnd(text, end + END.length());
        if (endLabel >= 0 && isPrivateKeyLabel(text, end + END.length(), endLabel)) {
          blockEnd = endLabel + DASHES.length();
          break;
        }
      }
      if (blockEnd < 0) {
        edits.add(at, text.length());
        return;
      }
      edits.add(at, blockEnd);
      from = blockEnd;
    }
  }

  /**
   * Where the label starting at {@code start} ends (the index of its closing dashes), or -1 if what
   * follows is not a short upper-case label closed by five dashes.
   */
  private static int labelEnd(String text, int start) {
    int limit = Math.min(text.length(), start + MAX_LABEL);
    for (int i = start; i < limit; i++) {
      char c = text.charAt(i);
      if (c == '-') {
        return i > start && text.startsWith(DASHES, i) ? i : -1;
      }
      if (!(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == ' ')) {
        return -1;
      }
    }
    return -1;
  }

  private static boolean isPrivateKeyLabel(String text, int start, int end) {
    String label = text.substring(start, end);
    return label.endsWith("PRIVATE KEY") || label.endsWith("PRIVATE KEY BLOCK");
  }
}
