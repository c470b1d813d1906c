package dev.memhook.springai.autoconfigure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.FusionMethod;
import dev.memhook.api.HookOptions;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryService;
import dev.memhook.api.RecallOptions;
import dev.memhook.api.Scope;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.springai.MemhookAdvisor;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The auto-configuration in an {@link ApplicationContextRunner}: defaults, bound properties, a
 * host's own service, the off switch, bad values, and the generated metadata. The embedder is the
 * hashing one throughout, so no model is loaded.
 */
class MemhookAutoConfigurationTest {

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(MemhookAutoConfiguration.class))
          .withPropertyValues("memhook.embedder=hashing");

  @TempDir Path dir;

  @Test
  void defaults_giveAnInMemoryServiceAndAnAdvisor_withTheLibraryDefaults() {
    runner.run(
        context -> {
          assertNull(context.getStartupFailure());
          MemoryService service = context.getBean(MemoryService.class);
          MemhookAdvisor advisor = context.getBean(MemhookAdvisor.class);
          assertEquals(MemhookAdvisor.DEFAULT_ORDER, advisor.getOrder());
          MemhookProperties p = context.getBean(MemhookProperties.class);
          assertEquals(null, p.getDirectory());
          assertEquals(
              MemhookAdvisor.DEFAULT_MAX_CONVERSATIONS, p.getAdvisor().getMaxConversations());
          assertTrue(p.getCapture().isEnabled());
          assertEquals(
              RecallOptions.defaults().toString(),
              MemhookAutoConfiguration.recallOptions(p.getRecall()).toString());
          assertEquals(HookOptions.defaults(), MemhookAutoConfiguration.hookOptions(p));
          // capture is on: observe works
          assertNotNull(service.capture().stats());
        });
  }

  @Test
  void properties_areBound_andReachTheOptions() {
    runner
        .withPropertyValues(
            "memhook.directory=" + dir,
            "memhook.capture.enabled=false",
            "memhook.recall.fusion=reciprocal-ranks",
            "memhook.recall.text-weight=2.0",
            "memhook.recall.vector-weight=0.7",
            "memhook.recall.graph-weight=0",
            "memhook.recall.gate.min-cosine=0.4",
            "memhook.recall.gate.evidence-cosine=0.6",
            "memhook.hook.scopes=alice,team-a",
            "memhook.hook.capture-scope=team-a",
            "memhook.hook.tool-name=get_team_memory",
            "memhook.hook.max-per-message=7",
            "memhook.hook.max-per-callback=9",
            "memhook.hook.recall-timeout=1s",
            "memhook.advisor.order=42",
            "memhook.advisor.callback-timeout=3s",
            "memhook.advisor.max-loops-per-call=2",
            "memhook.advisor.default-conversation-id=main",
            "memhook.advisor.max-conversations=500")
        .run(
            context -> {
              assertNull(context.getStartupFailure());
              MemhookProperties p = context.getBean(MemhookProperties.class);
              RecallOptions recall = MemhookAutoConfiguration.recallOptions(p.getRecall());
              assertEquals(FusionMethod.RECIPROCAL_RANKS, recall.fusion());
              assertEquals(2.0, recall.textWeight());
              assertEquals(0.7, recall.vectorWeight());
              assertEquals(0.0, recall.graphWeight());
              assertEquals(0.4, recall.minCosine());
              assertEquals(0.6, recall.evidenceCosine());
              HookOptions hook = MemhookAutoConfiguration.hookOptions(p);
              assertEquals(List.of(new Scope("alice"), new Scope("team-a")), hook.scopes());
              assertEquals(new Scope("team-a"), hook.captureScope());
              assertEquals("get_team_memory", hook.toolName());
              assertEquals(7, hook.maxPerMessage());
              assertEquals(9, hook.maxPerCallback());
              assertEquals(Duration.ofSeconds(1), hook.recallTimeout());
              assertFalse(hook.capture());
              assertEquals(42, context.getBean(MemhookAdvisor.class).getOrder());
              assertEquals(500, p.getAdvisor().getMaxConversations());
              MemoryService service = context.getBean(MemoryService.class);
              service.remember(MemoryDraft.of(new Scope("team-a"), "kept on disk"));
              assertTrue(Files.list(dir).findAny().isPresent(), "the store lives in " + dir);
            });
  }

  @Test
  void aGateTurnedOff_letsEveryCandidateThrough() {
    runner
        .withPropertyValues("memhook.recall.gate.enabled=false")
        .run(
            context -> {
              MemhookProperties p = context.getBean(MemhookProperties.class);
              RecallOptions recall = MemhookAutoConfiguration.recallOptions(p.getRecall());
              assertEquals(-1.0, recall.minCosine());
              assertEquals(0.0, recall.evidenceTextScore());
            });
  }

  @Test
  void aHostsOwnMemoryService_wins_andIsNotClosedByTheAdvisor() {
    runner
        .withUserConfiguration(OwnService.class)
        .run(
            context -> {
              MemoryService service = context.getBean(MemoryService.class);
              assertSame(context.getBean("ownService"), service);
              assertEquals(1, context.getBeansOfType(MemoryService.class).size());
              context.getBean(MemhookAdvisor.class).close();
              service.remember(MemoryDraft.of(Scope.DEFAULT, "still open"));
            });
  }

  @Test
  void disabled_createsNoBeans() {
    runner
        .withPropertyValues("memhook.enabled=false")
        .run(
            context -> {
              assertNull(context.getStartupFailure());
              assertTrue(context.getBeansOfType(MemoryService.class).isEmpty());
              assertTrue(context.getBeansOfType(MemhookAdvisor.class).isEmpty());
            });
  }

  @Test
  void aBadValue_failsStartup_namingTheProperty() {
    runner
        .withPropertyValues("memhook.hook.max-per-message=0")
        .run(
            context -> {
              Throwable failure = context.getStartupFailure();
              assertNotNull(failure);
              String message = rootMessage(failure);
              assertTrue(
                  message.contains("memhook.hook") && message.contains("maxPerMessage"), message);
            });
    runner
        .withPropertyValues("memhook.recall.text-weight=0", "memhook.recall.vector-weight=0")
        .run(
            context -> {
              String message = rootMessage(context.getStartupFailure());
              assertTrue(message.contains("memhook.recall"), message);
            });
    runner
        .withPropertyValues("memhook.advisor.max-conversations=0")
        .run(
            context -> {
              String message = rootMessage(context.getStartupFailure());
              assertTrue(
                  message.contains("memhook.advisor") && message.contains("maxConversations"),
                  message);
            });
    runner
        .withPropertyValues("memhook.hook.scopes=alice", "memhook.hook.capture-scope=team-a")
        .run(
            context -> {
              String message = rootMessage(context.getStartupFailure());
              assertTrue(
                  message.contains("memhook.hook") && message.contains("captureScope"), message);
            });
    runner
        .withPropertyValues("memhook.embedder=word2vec")
        .run(
            context -> {
              Throwable failure = context.getStartupFailure();
              assertNotNull(failure);
              assertTrue(fullMessage(failure).contains("memhook.embedder"), fullMessage(failure));
            });
  }

  @Test
  void theJar_carriesConfigurationMetadata_withDescriptions() throws Exception {
    try (InputStream in =
        getClass()
            .getClassLoader()
            .getResourceAsStream("META-INF/spring-configuration-metadata.json")) {
      assertNotNull(in, "metadata generated");
      String json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      for (String name :
          new String[] {
            "memhook.enabled",
            "memhook.directory",
            "memhook.embedder",
            "memhook.capture.enabled",
            "memhook.recall.text-weight",
            "memhook.recall.gate.min-cosine",
            "memhook.hook.recall-timeout",
            "memhook.advisor.order",
            "memhook.metrics.enabled"
          }) {
        assertTrue(json.contains("\"" + name + "\""), name);
      }
      assertTrue(json.contains("The directory the memory store"), "descriptions from Javadoc");
    }
  }

  private static void assertNull(Object o) {
    if (o != null) {
      throw new AssertionError("expected no startup failure", (Throwable) o);
    }
  }

  private static String rootMessage(Throwable t) {
    Throwable root = t;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    return root.getClass().getSimpleName() + ": " + fullMessage(t);
  }

  private static String fullMessage(Throwable t) {
    StringBuilder b = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      b.append(c.getMessage()).append(" | ");
    }
    return b.toString();
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnService {
    @Bean
    MemoryService ownService() {
      return Memhook.builder().inMemory().embedder(HashingEmbedder.create()).noCapture().build();
    }
  }
}
