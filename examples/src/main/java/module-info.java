/**
 * The demo, as a host module would declare itself: it reads Memhook's public API and nothing else,
 * and exports nothing. It runs on the class path; memory-djl-embeddings joins it at run time, found
 * by {@code ServiceLoader}.
 *
 * <p>The "requires-automatic" lint is suppressed here only: LangChain4j's OpenAI client ships no
 * module name, so it is required by the automatic name javac derives from its file name.
 */
@SuppressWarnings("requires-automatic")
module dev.memhook.examples {
  requires dev.memhook.core;
  requires dev.memhook.langchain4j;
  requires dev.memhook.testkit;
  requires langchain4j.open.ai;
}
