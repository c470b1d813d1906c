package dev.memhook.benchmarks.soak;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** Counts by name (operations by outcome, exceptions by type). Thread-safe. */
final class Tally {

  private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

  void add(String key) {
    counts.computeIfAbsent(key, k -> new LongAdder()).increment();
  }

  long get(String key) {
    LongAdder a = counts.get(key);
    return a == null ? 0 : a.sum();
  }

  /** A sorted snapshot. */
  Map<String, Long> snapshot() {
    Map<String, Long> out = new TreeMap<>();
    counts.forEach((k, v) -> out.put(k, v.sum()));
    return out;
  }
}
