/**
 * The memory service: {@link dev.memhook.core.Memhook#builder()} and the few public types around
 * it. The data path ({@code dev.memhook.core.internal.*}) is not exported, but for the excerpts and
 * the query words they are chosen for, which {@code memhook hook} (memory-cli) shows and reads as
 * the chat hook does.
 *
 * <p>The "requires-automatic" lint is suppressed here only: async-util ships no module name, so it
 * is required by the automatic name javac derives from its file name. The "module" lint is
 * suppressed because memory-cli, the target of the two qualified exports, is built after this
 * module and javac cannot see it here.
 */
@SuppressWarnings({"requires-automatic", "module"})
module dev.memhook.core {
  requires transitive dev.memhook.api;
  requires dev.memhook.lucene;
  requires com.fasterxml.jackson.databind;
  requires com.github.benmanes.caffeine;
  requires com.google.common;
  requires org.slf4j;
  requires asyncutil;

  exports dev.memhook.core;
  // the excerpt a recalled memory shows for a prompt's words, shared with `memhook hook`'s answers
  exports dev.memhook.core.internal.inject.excerpt to
      dev.memhook.cli;
  exports dev.memhook.core.internal.recall.words to
      dev.memhook.cli;

  // Memhook.builder() finds a default embedder (memory-djl-embeddings provides one)
  uses dev.memhook.api.spi.EmbedderProvider;
}
