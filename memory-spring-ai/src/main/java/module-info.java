/**
 * The Spring AI adapter: {@link dev.memhook.springai.MemhookAdvisor} and its Spring Boot
 * auto-configuration. memory-djl-embeddings and memory-micrometer are optional, as in the build:
 * the auto-configuration checks for them before it touches them.
 *
 * <p>The auto-configuration package is opened, not exported: Spring finds it through {@code
 * META-INF/spring} and reflects into it, and hosts configure it with {@code memhook.*} properties,
 * not by naming its types (it has package-private types in its bean methods' signatures, and its
 * annotations are Spring Boot's).
 *
 * <p>The "requires-automatic" and "requires-transitive-automatic" lints are suppressed here only:
 * the Spring AI, Spring Boot, Spring Framework, Reactor and Micrometer jars are all automatic
 * modules (Spring AI's named from their file names), and Spring AI's and Reactor's types are part
 * of this module's API.
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module dev.memhook.springai {
  requires transitive dev.memhook.api;
  requires dev.memhook.core;
  requires static dev.memhook.djl;
  requires static dev.memhook.micrometer;
  requires static micrometer.core;
  requires transitive spring.ai.client.chat;
  requires transitive spring.ai.model;
  requires transitive reactor.core;
  requires org.reactivestreams;
  requires spring.beans;
  requires spring.boot;
  requires spring.boot.autoconfigure;
  requires spring.context;
  requires spring.core;
  requires com.fasterxml.jackson.databind;
  requires org.slf4j;

  exports dev.memhook.springai;

  // Spring Boot instantiates and binds the auto-configuration and its properties reflectively
  opens dev.memhook.springai.autoconfigure;
}
