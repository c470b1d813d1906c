/**
 * {@link dev.memhook.djl.DjlEmbedder}: a local sentence-embedding model through DJL and ONNX
 * Runtime, provided to {@code Memhook.builder()} as an {@link dev.memhook.api.spi.EmbedderProvider}
 * (also registered in {@code META-INF/services} for class-path hosts).
 *
 * <p>The "requires-automatic" lint is suppressed here only: DJL's jars are automatic modules, named
 * by their manifests.
 */
@SuppressWarnings("requires-automatic")
module dev.memhook.djl {
  requires transitive dev.memhook.api;
  requires ai.djl.api;
  requires ai.djl.tokenizers;
  requires com.github.benmanes.caffeine;
  // GpuProbeLogs quiets two java.util.logging loggers when JUL is the binding
  requires java.logging;
  requires org.slf4j;

  exports dev.memhook.djl;

  provides dev.memhook.api.spi.EmbedderProvider with
      dev.memhook.djl.DjlEmbedderProvider;
}
