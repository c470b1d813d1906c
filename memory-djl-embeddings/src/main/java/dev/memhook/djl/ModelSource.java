package dev.memhook.djl;

import java.nio.file.Path;

/** Where a {@link DjlEmbedderBuilder} was told to find its model. Immutable. */
sealed interface ModelSource {

  /** Finds the inputs, failing with an EmbeddingException that names what is missing. */
  ModelFiles resolve();

  record Directory(Path directory) implements ModelSource {
    @Override
    public ModelFiles resolve() {
      return ModelFiles.ofDirectory(directory);
    }

    @Override
    public String toString() {
      return "directory " + directory;
    }
  }

  record Files(Path model, Path tokenizer) implements ModelSource {
    @Override
    public ModelFiles resolve() {
      return ModelFiles.ofFiles(model, tokenizer);
    }

    @Override
    public String toString() {
      return "files " + model + " and " + tokenizer;
    }
  }

  record Classpath(ClassLoader loader, String model, String tokenizer) implements ModelSource {
    @Override
    public ModelFiles resolve() {
      return ModelFiles.ofResources(loader, model, tokenizer);
    }

    @Override
    public String toString() {
      return "class-path resources " + model + " and " + tokenizer;
    }
  }
}
