package dev.memhook.core.internal.sanitize;

/**
 * One redaction rule: finds, in one pass over the text, the ranges to replace by its marker {@code
 * [redacted:KIND]}. Built-in rules run in time linear in the text; every rule that runs a regex
 * reads the text through {@link Subject#budgeted()}, so none can run without bound.
 *
 * <p>Implementations are immutable and thread-safe.
 */
interface Rule {

  /** The kind the marker names. */
  String kind();

  /** Adds to {@code edits} every range of {@code subject}'s text this rule redacts, in order. */
  void find(Subject subject, Edits edits);

  static String marker(String kind) {
    return "[redacted:" + kind + "]";
  }

  /** Whether a value found by a rule is already a redaction, which is left as it is. */
  static boolean isMarkerAt(String text, int index) {
    return text.startsWith("[redacted:", index) || text.startsWith("[private]", index);
  }
}
