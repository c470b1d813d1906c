package dev.memhook.benchmarks.soak;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The violations a soak found, by kind. Every violation is counted; the first few details of each
 * kind are kept for the report, so a run that breaks a rule a million times stays bounded in
 * memory. Thread-safe.
 */
final class Findings {

  /** Details kept per kind. */
  static final int DETAILS_PER_KIND = 5;

  private final Tally counts = new Tally();
  private final Map<String, List<String>> details = new ConcurrentHashMap<>();

  /** Records one violation of {@code kind}. */
  void violation(String kind, String detail) {
    counts.add(kind);
    List<String> kept = details.computeIfAbsent(kind, k -> new ArrayList<>());
    synchronized (kept) {
      if (kept.size() < DETAILS_PER_KIND) {
        kept.add(detail);
      }
    }
  }

  /** Violations by kind. */
  Map<String, Long> counts() {
    return counts.snapshot();
  }

  /** The kept details of {@code kind}. */
  List<String> details(String kind) {
    List<String> kept = details.get(kind);
    if (kept == null) {
      return List.of();
    }
    synchronized (kept) {
      return List.copyOf(kept);
    }
  }

  boolean isEmpty() {
    return counts.snapshot().isEmpty();
  }
}
