/**
 * The memory service: {@link dev.memhook.core.Memhook#builder()} and the few public types around
 * it. The data path ({@code dev.memhook.core.internal.*}) is not exported.
 *
 * <p>The "requires-automatic" lint is suppressed here only: async-util ships no module name, so it
 * is required by the automatic name javac derives from its file name.
 */
@SuppressWarnings("requires-automatic")
module dev.memhook.core {
  requires transitive dev.memhook.api;
  requires dev.memhook.lucene;
  requires com.fasterxml.jackson.databind;
  requires com.github.benmanes.caffeine;
  requires com.google.common;
  requires org.slf4j;
  requires asyncutil;

  exports dev.memhook.core;

  // Memhook.builder() finds a default embedder (memory-djl-embeddings provides one)
  uses dev.memhook.api.spi.EmbedderProvider;
}
