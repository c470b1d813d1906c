package dev.memhook.djl;

import dev.memhook.api.EmbeddingException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a model and its tokenizer live on disk, and the temporary directory holding them when they
 * were extracted from the class path (deleted by {@link #close()}).
 *
 * <p>Not thread-safe; owned by the {@link EmbeddingEngine} of one {@link DjlEmbedder}.
 */
final class ModelFiles implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ModelFiles.class);
  static final String MODEL_FILE = "model.onnx";
  static final String TOKENIZER_FILE = "tokenizer.json";

  final Path model;
  final Path tokenizer;
  private final Path tempDirectory;

  private ModelFiles(Path model, Path tokenizer, Path tempDirectory) {
    this.model = model;
    this.tokenizer = tokenizer;
    this.tempDirectory = tempDirectory;
  }

  /** The given files, which must exist. */
  static ModelFiles ofFiles(Path model, Path tokenizer) {
    requireFile(model, "ONNX model file");
    requireFile(tokenizer, "tokenizer file");
    return new ModelFiles(model, tokenizer, null);
  }

  /**
   * The model and tokenizer in {@code directory}: {@code model.onnx} or else its only {@code
   * *.onnx} file, and {@code tokenizer.json} or else its only {@code *tokenizer.json} file.
   */
  static ModelFiles ofDirectory(Path directory) {
    if (!Files.isDirectory(directory)) {
      throw new EmbeddingException("model directory not found: " + directory);
    }
    Path model = pick(directory, MODEL_FILE, "*.onnx", "ONNX model file");
    Path tokenizer = pick(directory, TOKENIZER_FILE, "*tokenizer.json", "tokenizer file");
    return ofFiles(model, tokenizer);
  }

  /** Copies two class-path resources into a new temporary directory. */
  static ModelFiles extract(ClassLoader loader, String modelResource, String tokenizerResource) {
    URL modelUrl = loader.getResource(modelResource);
    if (modelUrl == null) {
      throw new EmbeddingException(
          "ONNX model resource not found on the class path: " + modelResource);
    }
    URL tokenizerUrl = loader.getResource(tokenizerResource);
    if (tokenizerUrl == null) {
      throw new EmbeddingException(
          "tokenizer resource not found on the class path: " + tokenizerResource);
    }
    Path dir;
    try {
      dir = Files.createTempDirectory("memhook-djl-");
    } catch (IOException e) {
      throw new EmbeddingException(
          "could not create a temporary directory for the model; check java.io.tmpdir", e);
    }
    try {
      Path model = copy(modelUrl, modelResource, dir);
      Path tokenizer = copy(tokenizerUrl, tokenizerResource, dir);
      return new ModelFiles(model, tokenizer, dir);
    } catch (RuntimeException e) {
      deleteTree(dir);
      throw e;
    }
  }

  private static Path copy(URL url, String resource, Path dir) {
    String name = resource.substring(resource.lastIndexOf('/') + 1);
    Path target = dir.resolve(name);
    try (InputStream in = url.openStream()) {
      Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
      return target;
    } catch (IOException e) {
      throw new EmbeddingException(
          "could not extract class-path resource " + resource + " to " + target, e);
    }
  }

  private static Path pick(Path directory, String preferred, String glob, String what) {
    Path exact = directory.resolve(preferred);
    if (Files.isRegularFile(exact)) {
      return exact;
    }
    List<Path> matches = new ArrayList<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory, glob)) {
      stream.forEach(matches::add);
    } catch (IOException e) {
      throw new EmbeddingException("could not list model directory " + directory, e);
    }
    if (matches.size() != 1) {
      throw new EmbeddingException(
          "expected "
              + preferred
              + " or exactly one "
              + glob
              + " "
              + what
              + " in "
              + directory
              + ", found "
              + matches.size());
    }
    return matches.get(0);
  }

  private static void requireFile(Path file, String what) {
    if (!Files.isRegularFile(file)) {
      throw new EmbeddingException(what + " not found: " + file);
    }
    if (!Files.isReadable(file)) {
      throw new EmbeddingException(what + " is not readable: " + file);
    }
  }

  /** Deletes the extracted copy, if any. Idempotent. */
  @Override
  public void close() {
    if (tempDirectory != null) {
      deleteTree(tempDirectory);
    }
  }

  private static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.sorted(Comparator.reverseOrder()).forEach(ModelFiles::deleteQuietly);
    } catch (IOException | UncheckedIOException e) {
      LOG.warn("could not delete temporary model directory {}", dir, e);
    }
  }

  private static void deleteQuietly(Path path) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      LOG.warn("could not delete temporary model file {}", path, e);
    }
  }
}
