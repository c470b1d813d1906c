package dev.memhook.springai.autoconfigure;

import dev.memhook.api.MemoryService;
import dev.memhook.micrometer.MemhookMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Micrometer meters for the auto-configured service, when {@code dev.memhook:memory-micrometer} is
 * on the class path, the context has a {@link MeterRegistry}, and {@code memhook.metrics.enabled}
 * is not {@code false}: a {@link MemhookMetrics} bean bound to the registry and given to the
 * service as its listener, and a binder for the meters that read the service. The scopes of {@code
 * memhook.hook.scopes} get a memory-count gauge each.
 *
 * <p>Only the registry a context has one of (or its primary) is bound here; Spring Boot's metrics
 * support binds the same {@link MeterBinder} beans to it again, which changes nothing. A host's own
 * {@code MemhookMetrics} bean replaces this one and is used the same way.
 *
 * <p>Imported by {@link MemhookAutoConfiguration}; its conditions are read before any of its types
 * are loaded, so it costs nothing without Micrometer.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(
    name = {"dev.memhook.micrometer.MemhookMetrics", "io.micrometer.core.instrument.MeterRegistry"})
@ConditionalOnBooleanProperty(name = "memhook.metrics.enabled", matchIfMissing = true)
@ConditionalOnBean(type = "io.micrometer.core.instrument.MeterRegistry")
class MemhookMetricsConfiguration {

  MemhookMetricsConfiguration() {}

  /** The listener, with a memory-count gauge for each of {@code memhook.hook.scopes}. */
  @Bean
  @ConditionalOnMissingBean
  MemhookMetrics memhookMetrics(MemhookProperties properties) {
    return MemhookMetrics.builder()
        .scopes(MemhookAutoConfiguration.hookOptions(properties).scopes())
        .build();
  }

  /**
   * Gives the metrics (this configuration's or the host's) to the auto-configured service as its
   * listener, bound to the registry first: the service depends on this bean, so no event of it is
   * missed.
   */
  @Bean
  MemhookServiceCustomizer memhookMetricsListener(
      MemhookMetrics metrics, ObjectProvider<MeterRegistry> registries) {
    registries.ifUnique(metrics::bindTo);
    return builder -> builder.listener(metrics);
  }

  /** The meters that read the service: listener and capture counters, memories per scope. */
  @Bean
  MeterBinder memhookServiceMeters(
      MemhookMetrics metrics, MemoryService service, ObjectProvider<MeterRegistry> registries) {
    MeterBinder binder = metrics.serviceMeters(service);
    registries.ifUnique(binder::bindTo);
    return binder;
  }
}
