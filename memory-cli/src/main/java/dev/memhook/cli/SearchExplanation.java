package dev.memhook.cli;

import dev.memhook.api.RecallResult;
import java.util.Locale;
import java.util.Map;

/**
 * The account of a recall that {@code memhook search --explain} prints and the viewer's search page
 * shows: the result's {@link RecallResult#explain()} (the fusion, each recalled memory's signals,
 * every dropped candidate with its rule), then how long each signal's search took, by signal name.
 * One place, so that the two never differ. Stateless and thread-safe; null is rejected.
 */
final class SearchExplanation {
  private SearchExplanation() {}

  /** The explanation of {@code result}, one line per fact, each ending in a newline. */
  static String of(RecallResult result) {
    StringBuilder sb = new StringBuilder(result.explain());
    result.took().entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(
            e ->
                sb.append(
                    String.format(
                        Locale.ROOT,
                        "took %s %.1f ms%n",
                        JsonRecords.lower(e.getKey()),
                        e.getValue().toNanos() / 1e6)));
    return sb.toString();
  }
}
