/**
 * The LangChain4j adapter: {@link dev.memhook.langchain4j.LangChain4jChatService} and {@link
 * dev.memhook.langchain4j.MemhookLangChain4j}.
 *
 * <p>The "requires-automatic" and "requires-transitive-automatic" lints are suppressed here only:
 * LangChain4j's jars ship no module name, so they are required by the automatic names javac derives
 * from their file names, and their types are part of this module's API.
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module dev.memhook.langchain4j {
  requires transitive dev.memhook.api;
  requires transitive langchain4j.core;
  requires transitive langchain4j;
  requires com.fasterxml.jackson.databind;
  requires org.slf4j;

  exports dev.memhook.langchain4j;
}
