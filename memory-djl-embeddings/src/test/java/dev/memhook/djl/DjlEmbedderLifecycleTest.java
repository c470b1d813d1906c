package dev.memhook.djl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.EmbeddingException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DjlEmbedderLifecycleTest {
  @TempDir Path dir;

  private Path copyResource(String resource, String name) throws IOException {
    Path target = dir.resolve(name);
    try (InputStream in = DjlEmbedder.class.getClassLoader().getResourceAsStream(resource)) {
      Files.copy(in, target);
    }
    return target;
  }

  @Test
  void build_missingModelFileFailsNamingIt() throws IOException {
    Path tokenizer = copyResource(BundledModel.MINILM_L6_V2_Q.tokenizerResource, "tokenizer.json");
    Path missing = dir.resolve("nope.onnx");
    EmbeddingException e =
        assertThrows(
            EmbeddingException.class,
            () -> DjlEmbedder.builder().modelFiles(missing, tokenizer).modelId("x").build());
    assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
  }

  @Test
  void build_missingDirectoryFailsNamingIt() {
    Path missing = dir.resolve("no-such-dir");
    EmbeddingException e =
        assertThrows(
            EmbeddingException.class,
            () -> DjlEmbedder.builder().modelDirectory(missing).modelId("x").build());
    assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
  }

  @Test
  void build_corruptModelFileFailsNamingIt() throws IOException {
    Path tokenizer = copyResource(BundledModel.MINILM_L6_V2_Q.tokenizerResource, "tokenizer.json");
    Path corrupt = dir.resolve("model.onnx");
    byte[] garbage = new byte[4096];
    new java.util.Random(1).nextBytes(garbage);
    Files.write(corrupt, garbage);
    EmbeddingException e =
        assertThrows(
            EmbeddingException.class,
            () -> DjlEmbedder.builder().modelDirectory(dir).modelId("x").build());
    assertTrue(e.getMessage().contains(corrupt.toString()), e.getMessage());
    assertTrue(Files.exists(tokenizer));
  }

  @Test
  void build_corruptTokenizerFileFailsNamingIt() throws IOException {
    Path model = copyResource(BundledModel.MINILM_L6_V2_Q.modelResource, "model.onnx");
    Path tokenizer = dir.resolve("tokenizer.json");
    Files.writeString(tokenizer, "{ this is not a tokenizer");
    EmbeddingException e =
        assertThrows(
            EmbeddingException.class,
            () -> DjlEmbedder.builder().modelFiles(model, tokenizer).modelId("x").build());
    assertTrue(e.getMessage().contains(tokenizer.toString()), e.getMessage());
  }

  @Test
  void close_isIdempotentAndLaterUseThrowsIllegalState() throws IOException {
    Path model = copyResource(BundledModel.MINILM_L6_V2_Q.modelResource, "model.onnx");
    copyResource(BundledModel.MINILM_L6_V2_Q.tokenizerResource, "tokenizer.json");
    DjlEmbedder embedder =
        DjlEmbedder.builder().modelDirectory(dir).modelId("dir-model").predictorPoolSize(2).build();
    assertEquals(384, embedder.embed("hello").dimension());
    embedder.close();
    embedder.close();
    assertThrows(IllegalStateException.class, () -> embedder.embed("hello"));
    assertThrows(IllegalStateException.class, () -> embedder.embedAll(List.of("hello")));
    assertEquals("dir-model", embedder.modelId());
    assertEquals(384, embedder.dimension());
    // Files the caller gave are the caller's: close leaves them.
    assertTrue(Files.exists(model));
  }

  @Test
  void theBundledModel_isReadFromTheClassPathIntoMemory_leavingNoFileBehind() throws IOException {
    Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
    List<Path> before = modelCopies(tmp);
    try (DjlEmbedder embedder = DjlEmbedder.bundledMiniLm()) {
      assertEquals(384, embedder.embed("hello").dimension());
      // Compare by difference, so other runs sharing java.io.tmpdir do not disturb the check.
      List<Path> ours = modelCopies(tmp).stream().filter(p -> !before.contains(p)).toList();
      assertEquals(List.of(), ours, "files written to " + tmp + " while loading");
    }
  }

  /**
   * Copies of a model in {@code tmp}: the directories earlier versions extracted the bundled model
   * into ({@code memhook-djl-*}) and any ONNX file.
   */
  private static List<Path> modelCopies(Path tmp) throws IOException {
    try (Stream<Path> s = Files.list(tmp)) {
      return s.filter(
              p -> {
                String name = p.getFileName().toString();
                return name.startsWith("memhook-djl-") || name.endsWith(".onnx");
              })
          .sorted()
          .toList();
    }
  }

  @Test
  void bundledMiniLmFp32_withoutTheArtifactNamesIt() {
    try (URLClassLoader empty = new URLClassLoader(new URL[0], null)) {
      EmbeddingException e =
          assertThrows(EmbeddingException.class, () -> BundledModel.MINILM_L6_V2.builder(empty));
      assertTrue(e.getMessage().contains(BundledModel.MINILM_L6_V2.artifact()), e.getMessage());
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void builder_isStrict() {
    assertThrows(IllegalArgumentException.class, () -> DjlEmbedder.builder().maxTokens(7));
    assertThrows(IllegalArgumentException.class, () -> DjlEmbedder.builder().batchSize(0));
    assertThrows(IllegalArgumentException.class, () -> DjlEmbedder.builder().predictorPoolSize(0));
    assertThrows(IllegalArgumentException.class, () -> DjlEmbedder.builder().intraOpThreads(0));
    assertThrows(
        IllegalStateException.class,
        () -> DjlEmbedder.builder().intraOpThreads(1).intraOpThreads(2));
    assertThrows(IllegalArgumentException.class, () -> DjlEmbedder.builder().modelId(" "));
    assertThrows(NullPointerException.class, () -> DjlEmbedder.builder().pooling(null));
    assertThrows(
        IllegalStateException.class, () -> DjlEmbedder.builder().batchSize(4).batchSize(8));
    assertThrows(
        IllegalStateException.class, () -> DjlEmbedder.builder().normalize(true).normalize(false));
    assertThrows(
        IllegalStateException.class,
        () -> DjlEmbedder.builder().modelDirectory(Path.of("a")).modelDirectory(Path.of("b")));
    IllegalStateException noSource =
        assertThrows(IllegalStateException.class, () -> DjlEmbedder.builder().modelId("x").build());
    assertTrue(noSource.getMessage().contains("model source"));
    IllegalStateException noId =
        assertThrows(
            IllegalStateException.class,
            () -> DjlEmbedder.builder().modelDirectory(Path.of("a")).build());
    assertTrue(noId.getMessage().contains("modelId"));
  }

  @Test
  void offlineSwitchIsOnForDjl() {
    DjlRuntime.ensureOffline();
    String env = System.getenv(DjlRuntime.OFFLINE_ENV);
    String effective = env != null ? env : System.getProperty(DjlRuntime.OFFLINE_PROPERTY);
    assertTrue(Boolean.parseBoolean(effective));
    assertFalse(effective.isBlank());
  }
}
