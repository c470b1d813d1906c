package dev.memhook.springai.autoconfigure;

import dev.memhook.api.HookOptions;
import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.Scope;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.springai.MemhookAdvisor;
import java.util.Objects;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.util.ClassUtils;

/**
 * Spring Boot auto-configuration for Memhook: a {@link MemoryService} built from the {@code
 * memhook.*} properties ({@link MemhookProperties}) and a {@link MemhookAdvisor} over it, ready for
 * {@code ChatClient.builder(model).defaultAdvisors(memhookAdvisor)}.
 *
 * <p>A host's own {@code MemoryService} or {@code MemhookAdvisor} bean wins. {@code
 * memhook.enabled=false} turns both off. Without {@code memhook.directory} the store is in memory
 * (a warning says so at startup): a Boot application should not write files in a place it was not
 * told. A bad value fails startup with an {@link IllegalStateException} naming the property group.
 *
 * <p>With {@code dev.memhook:memory-micrometer} on the class path and a {@code MeterRegistry} bean,
 * the service also reports Micrometer meters ({@link MemhookMetricsConfiguration}); {@code
 * memhook.metrics.enabled=false} turns them off.
 *
 * <p>Stateless and thread-safe; Spring calls its bean methods once per context, and they never
 * return null.
 */
@AutoConfiguration(
    afterName = {
      "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
      "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration"
    })
@ConditionalOnClass({ChatClient.class, MemoryService.class})
@ConditionalOnBooleanProperty(name = "memhook.enabled", matchIfMissing = true)
@EnableConfigurationProperties(MemhookProperties.class)
@Import(MemhookMetricsConfiguration.class)
public class MemhookAutoConfiguration {

  private static final Logger LOG = LoggerFactory.getLogger(MemhookAutoConfiguration.class);

  private static final String DJL_EMBEDDER = "dev.memhook.djl.DjlEmbedder";

  /** Creates the auto-configuration; Spring calls it. */
  public MemhookAutoConfiguration() {}

  /**
   * The memory service, closed with the context.
   *
   * @throws IllegalStateException if a {@code memhook.*} value is invalid, or {@code
   *     memhook.embedder=minilm} without memory-djl-embeddings on the class path
   */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  public MemoryService memhookMemoryService(
      MemhookProperties properties, ObjectProvider<MemhookServiceCustomizer> customizers) {
    RecallOptions recall = recallOptions(properties.getRecall());
    Memhook.Builder builder = Memhook.builder();
    if (properties.getDirectory() != null) {
      builder.directory(properties.getDirectory());
    } else {
      LOG.warn(
          "Memhook keeps memories in memory: they are lost when the application stops. Set"
              + " memhook.directory to keep them on disk.");
      builder.inMemory();
    }
    switch (Objects.requireNonNull(properties.getEmbedder(), "memhook.embedder")) {
      case AUTO -> {}
      case HASHING -> builder.embedder(HashingEmbedder.create());
      case MINILM -> {
        if (!ClassUtils.isPresent(DJL_EMBEDDER, MemhookAutoConfiguration.class.getClassLoader())) {
          throw new IllegalStateException(
              "Invalid Memhook configuration: memhook.embedder=minilm needs"
                  + " dev.memhook:memory-djl-embeddings on the class path; add it, or set"
                  + " memhook.embedder=auto or hashing");
        }
        builder.embedder(BundledMiniLm.create());
      }
    }
    builder.recallOptions(recall);
    if (!properties.getCapture().isEnabled()) {
      builder.noCapture();
    }
    customizers.orderedStream().forEach(c -> c.customize(builder));
    return builder.build();
  }

  /**
   * The advisor over the memory service; closing it detaches its hooks and leaves the service open.
   *
   * @throws IllegalStateException if a {@code memhook.hook.*} or {@code memhook.advisor.*} value is
   *     invalid
   */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  public MemhookAdvisor memhookAdvisor(MemoryService memoryService, MemhookProperties properties) {
    HookOptions hook = hookOptions(properties);
    MemhookProperties.Advisor a = properties.getAdvisor();
    return checked(
        "memhook.advisor",
        () ->
            MemhookAdvisor.builder(memoryService)
                .hookOptions(hook)
                .order(a.getOrder())
                .callbackTimeout(Objects.requireNonNull(a.getCallbackTimeout(), "callback-timeout"))
                .maxLoopsPerCall(a.getMaxLoopsPerCall())
                .defaultConversationId(
                    Objects.requireNonNull(a.getDefaultConversationId(), "default-conversation-id"))
                .maxConversations(a.getMaxConversations())
                .build());
  }

  static RecallOptions recallOptions(MemhookProperties.Recall r) {
    return checked(
        "memhook.recall",
        () -> {
          RecallOptions.Builder b =
              RecallOptions.builder()
                  .fusion(Objects.requireNonNull(r.getFusion(), "fusion"))
                  .weights(r.getTextWeight(), r.getVectorWeight(), r.getGraphWeight());
          MemhookProperties.Gate g = r.getGate();
          if (g.isEnabled()) {
            b.minCosine(g.getMinCosine())
                .minTextScore(g.getMinTextScore())
                .evidenceFloors(g.getEvidenceCosine(), g.getEvidenceTextScore());
          } else {
            b.noRelevanceGate();
          }
          return b.build();
        });
  }

  static HookOptions hookOptions(MemhookProperties p) {
    MemhookProperties.Hook h = p.getHook();
    return checked(
        "memhook.hook",
        () -> {
          HookOptions.Builder b =
              HookOptions.builder()
                  .scopes(
                      Objects.requireNonNull(h.getScopes(), "scopes").stream()
                          .map(Scope::new)
                          .toList())
                  .toolName(Objects.requireNonNull(h.getToolName(), "tool-name"))
                  .maxPerMessage(h.getMaxPerMessage())
                  .maxPerCallback(h.getMaxPerCallback())
                  .recallTimeout(Objects.requireNonNull(h.getRecallTimeout(), "recall-timeout"));
          if (h.getCaptureScope() != null) {
            b.captureScope(new Scope(h.getCaptureScope()));
          }
          if (!p.getCapture().isEnabled()) {
            b.noCapture();
          }
          return b.build();
        });
  }

  private static <T> T checked(String group, Supplier<T> build) {
    try {
      return build.get();
    } catch (IllegalArgumentException | IllegalStateException | NullPointerException e) {
      throw new IllegalStateException(
          "Invalid Memhook configuration in " + group + ".*: " + e.getMessage(), e);
    }
  }
}
