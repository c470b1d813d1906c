package dev.memhook.cli;

import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** How human output shows sizes, counts and durations. Stateless. */
final class Sizes {
  private Sizes() {}

  /** {@code 1.2 MiB}, {@code 512 B}. */
  static String human(long bytes) {
    if (bytes < 1024) {
      return bytes + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB"};
    double v = bytes;
    int u = -1;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
  }

  /** {@code fact 2, preference 1}, or {@code none}. */
  static String counts(Map<String, Long> counts) {
    return counts.isEmpty()
        ? "none"
        : counts.entrySet().stream()
            .map(e -> e.getKey() + " " + e.getValue())
            .collect(Collectors.joining(", "));
  }

  /**
   * {@code n} followed by the singular or the plural noun: {@code 1 memory}, {@code 0 memories},
   * {@code 2 memories}. Every count a command prints in words goes through here, so none reads "1
   * memories".
   */
  static String count(long n, String one, String many) {
    return n + " " + (n == 1 ? one : many);
  }

  /** {@code 1:05:09} or {@code 4:02}. */
  static String clock(long seconds) {
    long h = seconds / 3600;
    long m = seconds / 60 % 60;
    long s = seconds % 60;
    return h > 0
        ? String.format(Locale.ROOT, "%d:%02d:%02d", h, m, s)
        : String.format(Locale.ROOT, "%d:%02d", m, s);
  }
}
