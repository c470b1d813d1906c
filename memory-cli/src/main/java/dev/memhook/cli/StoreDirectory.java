package dev.memhook.cli;

import java.nio.file.Path;
import java.util.Map;

/**
 * Which store directory a command works on: {@code --dir}, else {@code $MEMHOOK_DIR}, else {@value
 * #DEFAULT_DIRECTORY} in the working directory. The one place of that rule, for the commands
 * ({@link StoreArguments}) and for {@link RemoteCli}, which must find the same directory's server
 * before any command is built; so it loads nothing but the JDK. Stateless.
 */
final class StoreDirectory {
  /** The directory used without {@code --dir} and {@code MEMHOOK_DIR}, relative to the cwd. */
  static final String DEFAULT_DIRECTORY = "memhook-data";

  /** The environment variable naming the store directory. */
  static final String DIR_VARIABLE = "MEMHOOK_DIR";

  private StoreDirectory() {}

  /**
   * {@code given}, else {@code $MEMHOOK_DIR} from {@code env}, else {@value #DEFAULT_DIRECTORY}.
   *
   * @param given the {@code --dir} argument, or null when none was given
   */
  static Path resolve(Path given, Map<String, String> env) {
    if (given != null) {
      return given;
    }
    String fromEnv = env.get(DIR_VARIABLE);
    return Path.of(fromEnv != null && !fromEnv.isBlank() ? fromEnv : DEFAULT_DIRECTORY);
  }
}
