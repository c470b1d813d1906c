package dev.memhook.cli;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * What the tests of the no-JVM hook script look up: a tool on the {@code PATH} (the script needs
 * {@code sh}, {@code openssl}, {@code curl}; a test without them is skipped, saying which), and the
 * files the script or a drain left in a store's spool. Stateless.
 */
final class ScriptTools {
  private ScriptTools() {}

  /** Where {@code tool} is on the {@code PATH}, or null. */
  static Path which(String tool) {
    String path = System.getenv("PATH");
    if (path == null) {
      return null;
    }
    for (String dir : path.split(File.pathSeparator)) {
      Path candidate = Path.of(dir, tool);
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    return null;
  }

  static boolean onPath(String tool) {
    return which(tool) != null;
  }

  /** The files in {@code store}'s spool (not its {@code rejected} directory), by name. */
  static List<Path> spooled(Path store) throws IOException {
    Path dir = store.resolve(HookSpool.DIRECTORY);
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> all = Files.list(dir)) {
      return all.filter(Files::isRegularFile).sorted().toList();
    }
  }
}
