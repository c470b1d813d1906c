package dev.memhook.benchmarks.capture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * What {@link CaptureBench} reads from and uses of the machine it runs on: the system load average
 * and the garbage collectors' counts, printed beside each row so a noisy run shows, and the
 * temporary directories each run's service lives in.
 *
 * <p>Stateless; thread-safe.
 */
final class RunEnvironment {

  private RunEnvironment() {}

  /** The system load average of the last minute, or a negative value where there is none. */
  static double load() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  /** Collections so far, summed over the JVM's collectors. */
  static long gcCount() {
    return ManagementFactory.getGarbageCollectorMXBeans().stream()
        .mapToLong(GarbageCollectorMXBean::getCollectionCount)
        .sum();
  }

  /** Milliseconds spent collecting so far, summed over the JVM's collectors. */
  static long gcMillis() {
    return ManagementFactory.getGarbageCollectorMXBeans().stream()
        .mapToLong(GarbageCollectorMXBean::getCollectionTime)
        .sum();
  }

  /**
   * A new empty temporary directory for one run.
   *
   * @throws UncheckedIOException if it cannot be created
   */
  static Path tempDirectory() {
    try {
      return Files.createTempDirectory("memhook-capture-bench");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Deletes {@code dir} and everything in it; a failure is printed to standard error, not thrown.
   */
  static void deleteRecursively(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      System.err.println("could not delete " + dir + ": " + e);
    }
  }
}
