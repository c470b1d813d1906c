package dev.memhook.djl;

import dev.memhook.api.EmbeddingException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a model and its tokenizer are read from: two files on disk, or two class-path resources,
 * which are read into memory when the model loads and never written to disk (so no process leaves a
 * copy of the bundled model behind, whatever way it ends).
 *
 * <p>Immutable; {@link #close()} has nothing to release and is kept for the engine's life cycle.
 */
final class ModelFiles implements AutoCloseable {
  static final String MODEL_FILE = "model.onnx";
  static final String TOKENIZER_FILE = "tokenizer.json";

  /**
   * One input: a file, or a class-path resource.
   *
   * @param file the file, or null for a resource
   * @param resource the resource's URL, or null for a file
   * @param name the file's path or the resource's name, for messages
   */
  record Input(Path file, URL resource, String name) {

    /** Opens the input for reading; the caller closes the stream. */
    InputStream open() throws IOException {
      return file != null ? Files.newInputStream(file) : resource.openStream();
    }

    /**
     * What the input is, for messages: {@code file /x/model.onnx} or {@code class-path resource
     * m.onnx}.
     */
    String describe() {
      return (file != null ? "file " : "class-path resource ") + name;
    }

    /** The file name without {@code suffix}, or the resource's base name without it. */
    String baseName(String suffix) {
      String n =
          file != null ? file.getFileName().toString() : name.substring(name.lastIndexOf('/') + 1);
      return n.endsWith(suffix) ? n.substring(0, n.length() - suffix.length()) : n;
    }
  }

  final Input model;
  final Input tokenizer;

  private ModelFiles(Input model, Input tokenizer) {
    this.model = model;
    this.tokenizer = tokenizer;
  }

  /** The given files, which must exist. */
  static ModelFiles ofFiles(Path model, Path tokenizer) {
    requireFile(model, "ONNX model file");
    requireFile(tokenizer, "tokenizer file");
    return new ModelFiles(
        new Input(model, null, model.toString()), new Input(tokenizer, null, tokenizer.toString()));
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

  /** Two class-path resources, which must exist; nothing is copied. */
  static ModelFiles ofResources(
      ClassLoader loader, String modelResource, String tokenizerResource) {
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
    return new ModelFiles(
        new Input(null, modelUrl, modelResource), new Input(null, tokenizerUrl, tokenizerResource));
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

  /** Nothing to release: no input is ever copied. Idempotent. */
  @Override
  public void close() {}
}
