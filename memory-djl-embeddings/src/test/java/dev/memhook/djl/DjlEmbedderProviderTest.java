package dev.memhook.djl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.spi.Embedder;
import dev.memhook.api.spi.EmbedderProvider;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class DjlEmbedderProviderTest {
  @Test
  void serviceLoader_findsTheDjlProvider() {
    List<EmbedderProvider> providers =
        ServiceLoader.load(EmbedderProvider.class).stream()
            .map(ServiceLoader.Provider::get)
            .toList();
    EmbedderProvider djl =
        providers.stream().filter(p -> p instanceof DjlEmbedderProvider).findFirst().orElseThrow();
    assertEquals("djl-minilm-int8", djl.name());
    assertEquals(100, djl.priority());
  }

  @Test
  void create_givesTheBundledInt8ModelWithOneThreadPerCall() {
    try (Embedder embedder = new DjlEmbedderProvider().create()) {
      assertEquals("all-minilm-l6-v2-q", embedder.modelId());
      assertEquals(384, embedder.dimension());
      assertTrue(embedder instanceof DjlEmbedder);
      // The service embeds one text at a time: one ONNX Runtime thread per call (see create()).
      assertTrue(embedder.toString().contains("intraOpThreads=1"), embedder.toString());
    }
  }
}
