package dev.memhook.djl;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes the copies of its native libraries that ONNX Runtime's Java binding writes to the
 * temporary directory, once they are loaded.
 *
 * <p>Design note: to load its libraries the binding copies them out of its jar into a new directory
 * {@code onnxruntime-java<random>} under {@code java.io.tmpdir} (about 20 MB on Linux) and only
 * marks the copies and the directory for deletion at exit. Two things follow, in every process that
 * loads a model: a process that does not exit normally (killed, as an agent's hook timeout kills
 * it, or crashed) leaves the 20 MB behind, and one that does leaves the empty directory, because
 * the JVM deletes marked files in the reverse order of marking and the directory, marked last, is
 * tried while the copies are still in it. The binding has no setting that avoids the copy (its
 * {@code onnxruntime.native.path} wants the libraries already on disk). So after the first model is
 * loaded the copies are deleted: on Linux and macOS a loaded library stays mapped after its file is
 * gone, and the binding never loads a library twice in one class loader.
 *
 * <p>Only what the CPU build copies is removed: a directory named as the binding names it that
 * holds nothing but its two libraries. A directory with anything else in it, such as a GPU provider
 * library a GPU build extracts and may load later, is left as the binding left it, and so is
 * everything where a loaded library cannot be deleted (Windows): there the binding's own deletion
 * at exit applies, as without this class. The directory's path is read from the binding's private
 * static field {@code tempDirectory}; a binding without that field changes nothing.
 *
 * <p>Stateless and thread-safe; failures are logged at DEBUG and never thrown.
 */
final class OrtLibraryCopies {
  private static final Logger LOG = LoggerFactory.getLogger(OrtLibraryCopies.class);

  /** The binding's loader class, which holds the directory in its field {@link #FIELD}. */
  static final String LOADER_CLASS = "ai.onnxruntime.OnnxRuntime";

  static final String FIELD = "tempDirectory";

  /** How the binding names its directory: {@code Files.createTempDirectory(PREFIX)}. */
  static final String PREFIX = "onnxruntime-java";

  /** The file names of the two libraries the binding copies, as it maps them on this platform. */
  static final Set<String> LIBRARIES =
      Set.of(libraryFileName("onnxruntime"), libraryFileName("onnxruntime4j_jni"));

  private OrtLibraryCopies() {}

  /**
   * Removes the binding's copies if it has loaded its libraries from a directory of its own; call
   * after a model has loaded. Does nothing if it has not, or if the directory is already gone.
   */
  static void removeLoaded() {
    Path directory = bindingDirectory();
    if (directory != null) {
      remove(directory);
    }
  }

  /**
   * Deletes {@code directory} and the library copies in it, if it is named as the binding names its
   * directory and holds nothing but {@link #LIBRARIES}; otherwise leaves it as it is. Returns
   * whether it is gone.
   */
  static synchronized boolean remove(Path directory) {
    Path name = directory.getFileName();
    if (name == null
        || !name.toString().startsWith(PREFIX)
        || !Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS)) {
      return !Files.exists(directory, LinkOption.NOFOLLOW_LINKS);
    }
    try {
      List<Path> copies = new ArrayList<>();
      try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
        for (Path entry : entries) {
          if (!LIBRARIES.contains(entry.getFileName().toString())
              || !Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS)) {
            LOG.debug("left {} as ONNX Runtime left it: it holds {}", directory, entry);
            return false;
          }
          copies.add(entry);
        }
      }
      for (Path copy : copies) {
        Files.deleteIfExists(copy);
      }
      Files.deleteIfExists(directory);
      LOG.debug("deleted ONNX Runtime's copies of its loaded libraries in {}", directory);
      return true;
    } catch (IOException | RuntimeException e) {
      LOG.debug(
          "could not delete ONNX Runtime's copies in {}; it deletes them at exit: {}",
          directory,
          e.toString());
      return false;
    }
  }

  /** The directory the binding copied its libraries to, or null if there is none to read. */
  private static Path bindingDirectory() {
    try {
      Class<?> loader = Class.forName(LOADER_CLASS, false, OrtLibraryCopies.class.getClassLoader());
      Field field = loader.getDeclaredField(FIELD);
      field.setAccessible(true);
      return field.get(null) instanceof Path path ? path : null;
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      LOG.debug("ONNX Runtime's library directory is not readable here: {}", e.toString());
      return null;
    }
  }

  /**
   * The binding's own mapping: the platform's name, with macOS's {@code jnilib} as {@code dylib}.
   */
  private static String libraryFileName(String library) {
    return System.mapLibraryName(library).replace("jnilib", "dylib");
  }
}
