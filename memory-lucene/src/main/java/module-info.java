/**
 * The embedded default store, {@link dev.memhook.lucene.LuceneMemoryStore}, and what stores kept
 * elsewhere reuse. The analysis package is internal: exported to memory-core alone.
 *
 * <p>The "module" lint is suppressed here only: memory-lucene builds before memory-core, so javac
 * cannot find the module its qualified export names and warns about it.
 */
@SuppressWarnings("module")
module dev.memhook.lucene {
  requires transitive dev.memhook.api;
  requires org.apache.lucene.core;
  requires org.apache.lucene.analysis.common;
  // a store written by Lucene 9.12 names that Lucene's codecs, which Lucene 10 keeps here
  requires org.apache.lucene.backward_codecs;
  requires com.fasterxml.jackson.databind;
  requires com.github.benmanes.caffeine;
  requires com.google.common;
  requires org.slf4j;
  // Lucene requires it statically only: without it in the module graph, MMapDirectory cannot
  // unmap the index files it closes, and Lucene asks the application to add it
  requires jdk.unsupported;

  exports dev.memhook.lucene;
  exports dev.memhook.lucene.internal.analysis to
      dev.memhook.core;

  // the format of a bulk load's segments, which Lucene looks up by the name a segment records
  provides org.apache.lucene.codecs.KnnVectorsFormat with
      dev.memhook.lucene.internal.vectors.GraphlessVectorsFormat;
}
