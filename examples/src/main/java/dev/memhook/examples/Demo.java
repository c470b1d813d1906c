package dev.memhook.examples;

import dev.memhook.api.HookOptions;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryType;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.Scope;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.core.Memhook;
import dev.memhook.testkit.FakeChatService;
import dev.memhook.testkit.ModelReply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The demo: a memory service on the embedded default, a few memories, and one chat turn in which
 * the hook injects the memories that matter as one batched {@code get_memory} call.
 *
 * <p>Run with {@code mvn -B -q -pl examples -am -DskipTests -Pdemo verify}.
 */
public final class Demo {

  private Demo() {}

  public static void main(String[] args) throws Exception {
    Path directory = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("memhook-demo");
    Scope scope = Scope.of("acme", "checkout-service");
    try (MemoryService memory = Memhook.builder().directory(directory).build()) {
      memory.remember(
          MemoryDraft.builder(
                  scope, "Card payments go through Stripe; the webhook secret lives in Vault.")
              .type(MemoryType.ARCHITECTURE)
              .concepts(List.of("payments", "stripe"))
              .build());
      memory.remember(
          MemoryDraft.builder(
                  scope, "Stripe webhooks retry for up to three days; handlers must be idempotent.")
              .type(MemoryType.PATTERN)
              .concepts(List.of("stripe", "webhooks"))
              .build());
      memory.remember(
          MemoryDraft.builder(
                  scope, "Run the integration tests with: mvn -pl checkout verify -Pintegration")
              .type(MemoryType.WORKFLOW)
              .files(List.of("checkout/pom.xml"))
              .build());
      memory.remember(
          MemoryDraft.builder(scope, "The team prefers small pull requests reviewed within a day.")
              .type(MemoryType.PREFERENCE)
              .build());

      FakeChatService chat =
          FakeChatService.builder()
              .fallbackModel(
                  conversation ->
                      ModelReply.text(
                          "(the model would answer here, with the memories above in view)"))
              .build();
      try (MemoryHook hook =
          memory.hookInto(
              chat,
              HookOptions.builder().scope(scope).recallTimeout(Duration.ofSeconds(5)).build())) {
        chat.sendUser(
                "Our Stripe webhook handler ran twice for one payment. Why, and where is the secret?")
            .toCompletableFuture()
            .get(30, TimeUnit.SECONDS);
        System.out.println("Memhook demo (store: " + memory + ")");
        System.out.println();
        for (ChatMessage m : chat.messages()) {
          System.out.printf("%-11s %-9s %s%n", m.role(), m.origin(), m.text());
        }
        System.out.println();
        System.out.println("Injected ids: " + hook.injectedIds());
        System.out.println();
        System.out.println("Why (recall explained):");
        System.out.print(
            memory.recall(RecallQuery.of(scope, "stripe webhook ran twice")).explain());
      }
    }
    System.out.println(
        "(memories stored durably in "
            + directory
            + "; pass a directory as the first argument to keep them)");
  }
}
