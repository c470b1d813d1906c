package dev.memhook.springai.autoconfigure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import dev.memhook.micrometer.MemhookMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The Micrometer part of the auto-configuration: with memory-micrometer and a {@link MeterRegistry}
 * bean the service's meters appear and its events reach them; without a registry, without
 * memory-micrometer, or with {@code memhook.metrics.enabled=false}, there are none and nothing
 * fails.
 */
class MemhookMetricsConfigurationTest {

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(MemhookAutoConfiguration.class))
          .withPropertyValues("memhook.embedder=hashing");

  @Test
  void withARegistry_theMetersAppear_andTheServiceReportsToThem() {
    runner
        .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .withPropertyValues("memhook.hook.scopes=acme/alice,acme/team")
        .run(
            context -> {
              assertNull(context.getStartupFailure());
              MeterRegistry registry = context.getBean(MeterRegistry.class);
              MemhookMetrics metrics = context.getBean(MemhookMetrics.class);
              assertEquals(
                  java.util.List.of(Scope.of("acme", "alice"), Scope.of("acme", "team")),
                  metrics.scopes());
              assertEquals(
                  10, registry.find("memhook.injections").counters().size(), "2 phases x 5");
              assertEquals(
                  5,
                  registry.find("memhook.recall").timers().size(),
                  "all, text, vector, graph, neighbour");
              assertEquals(2, registry.find("memhook.store.memories").gauges().size());

              MemoryService service = context.getBean(MemoryService.class);
              Memory m =
                  service.remember(
                      MemoryDraft.of(Scope.of("acme", "alice"), "Deploys freeze on Fridays."));
              assertEquals(
                  1.0,
                  registry
                      .get("memhook.store.memories")
                      .tag("scope", "acme/alice")
                      .gauge()
                      .value());
              assertTrue(service.forget(m.id()));
              // the listener thread delivers the forget event; wait for it, bounded
              long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
              double forgotten = 0;
              while (forgotten < 1 && System.nanoTime() < deadline) {
                forgotten =
                    registry
                        .get("memhook.capture.events")
                        .tag("kind", "memory_forgotten")
                        .counter()
                        .count();
                Thread.sleep(10);
              }
              assertEquals(1.0, forgotten, "the metrics are the service's listener");
              assertEquals(
                  0.0, registry.get("memhook.listener.failures").functionCounter().count());
            });
  }

  @Test
  void withoutARegistry_thereAreNoMetrics_andTheServiceWorks() {
    runner.run(
        context -> {
          assertNull(context.getStartupFailure());
          assertTrue(context.getBeansOfType(MemhookMetrics.class).isEmpty());
          MemoryService service = context.getBean(MemoryService.class);
          service.remember(MemoryDraft.of(Scope.DEFAULT, "Deploys freeze on Fridays."));
          assertEquals(1, service.maintenance().count(Scope.DEFAULT));
        });
  }

  @Test
  void metricsDisabled_registersNoMeter() {
    runner
        .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .withPropertyValues("memhook.metrics.enabled=false")
        .run(
            context -> {
              assertNull(context.getStartupFailure());
              assertTrue(context.getBeansOfType(MemhookMetrics.class).isEmpty());
              MeterRegistry registry = context.getBean(MeterRegistry.class);
              assertTrue(registry.find("memhook.injections").counters().isEmpty());
              assertTrue(registry.getMeters().isEmpty(), registry.getMeters().toString());
            });
  }

  @Test
  void withoutMemoryMicrometer_onTheClassPath_nothingFails() {
    runner
        .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .withClassLoader(new FilteredClassLoader("dev.memhook.micrometer"))
        .run(
            context -> {
              assertNull(context.getStartupFailure());
              assertTrue(context.getBeansOfType(MemhookMetrics.class).isEmpty());
              assertTrue(context.getBean(MeterRegistry.class).getMeters().isEmpty());
              assertEquals(
                  0, context.getBean(MemoryService.class).maintenance().count(Scope.DEFAULT));
            });
  }

  @Test
  void aHostsOwnMetricsBean_isTheOneTheServiceReportsTo() {
    MemhookMetrics own = MemhookMetrics.create();
    runner
        .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .withBean(MemhookMetrics.class, () -> own)
        .run(
            context -> {
              assertNull(context.getStartupFailure());
              assertSame(own, context.getBean(MemhookMetrics.class));
              MeterRegistry registry = context.getBean(MeterRegistry.class);
              assertEquals(10, registry.find("memhook.injections").counters().size());
              assertEquals(1, registry.find("memhook.listener.failures").meters().size());
              assertTrue(
                  registry.find("memhook.store.memories").gauges().isEmpty(),
                  "the host's bean names no scope");
            });
  }
}
