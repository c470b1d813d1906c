package dev.memhook.core.internal.inject;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.HookOptions;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Scope;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.chat.ToolCall;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.testkit.FakeChatService;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A hook over several scopes: recall from each in order, ranks fused, every memory's scope shown,
 * captures to one named scope, and a tool name of its own so two services can hook one chat.
 */
class HookScopesTest {

  private static final Scope ALICE = Scope.of("acme", "alice");
  private static final Scope TEAM = Scope.of("acme", "team");
  private static final Scope OTHER = Scope.of("acme", "bob");
  private static final Duration GENEROUS = Duration.ofSeconds(30);

  private static MemoryService service() {
    return Memhook.builder().inMemory().embedder(HashingEmbedder.create()).build();
  }

  @Test
  void aHookOverTwoScopes_injectsFromBoth_inScopeOrder_andShowsEachScope() throws Exception {
    try (MemoryService memory = service()) {
      Memory mine = memory.remember(MemoryDraft.of(ALICE, "Alice deploys the billing service."));
      Memory team =
          memory.remember(MemoryDraft.of(TEAM, "The billing service deploys on Fridays."));
      memory.remember(MemoryDraft.of(OTHER, "Bob never deploys the billing service."));
      FakeChatService chat = FakeChatService.create();
      MemoryHook hook =
          memory.hookInto(
              chat,
              HookOptions.builder()
                  .scopes(List.of(ALICE, TEAM))
                  .recallTimeout(GENEROUS)
                  .noCapture()
                  .build());

      chat.sendUser("who deploys the billing service?")
          .toCompletableFuture()
          .get(30, TimeUnit.SECONDS);

      assertEquals(List.of(mine.id(), team.id()), List.copyOf(hook.injectedIds()));
      ChatMessage result =
          chat.messages().stream().filter(m -> m.role() == ChatRole.TOOL_RESULT).findFirst().get();
      assertTrue(result.text().contains("\"scope\":\"acme/alice\""), result.text());
      assertTrue(result.text().contains("\"scope\":\"acme/team\""), result.text());
      assertFalse(result.text().contains("Bob"), "a scope the hook does not read stays out");
      assertEquals(ALICE, hook.scope(), "captures go to the first scope by default");
      assertEquals(List.of(ALICE, TEAM), hook.scopes());
    }
  }

  @Test
  void theToolServesEveryScopeOfTheHook_andNoOther() throws Exception {
    try (MemoryService memory = service()) {
      Memory team = memory.remember(MemoryDraft.of(TEAM, "Release notes live in docs/releases."));
      Memory other = memory.remember(MemoryDraft.of(OTHER, "Bob's private note."));
      FakeChatService chat = FakeChatService.create();
      memory.hookInto(chat, HookOptions.builder().scopes(List.of(ALICE, TEAM)).noCapture().build());

      String found =
          chat.callTool("get_memory", Map.of("id", team.id().value()))
              .toCompletableFuture()
              .get(30, TimeUnit.SECONDS)
              .content();
      String refused =
          chat.callTool("get_memory", Map.of("id", other.id().value()))
              .toCompletableFuture()
              .get(30, TimeUnit.SECONDS)
              .content();

      assertTrue(found.contains("docs/releases") && found.contains("acme/team"), found);
      assertTrue(refused.contains("not_found"), refused);
    }
  }

  @Test
  void captures_goToTheNamedCaptureScope() throws Exception {
    try (MemoryService memory = service()) {
      FakeChatService chat = FakeChatService.create();
      memory.hookInto(
          chat, HookOptions.builder().scopes(List.of(ALICE, TEAM)).captureScope(TEAM).build());

      chat.sendUser("we agreed the on-call rotation starts Monday")
          .toCompletableFuture()
          .get(30, TimeUnit.SECONDS);
      assertTrue(memory.capture().flush(GENEROUS));

      List<Scope> scopes = new java.util.ArrayList<>();
      memory.maintenance().export(m -> scopes.add(m.scope()));
      assertFalse(scopes.isEmpty(), "the exchange is captured");
      assertTrue(scopes.stream().allMatch(TEAM::equals), "into the capture scope only: " + scopes);
    }
  }

  @Test
  void twoServices_hookOneChat_underTwoToolNames() throws Exception {
    try (MemoryService personal = service();
        MemoryService shared = service()) {
      Memory mine = personal.remember(MemoryDraft.of(ALICE, "Alice prefers tabs over spaces."));
      Memory ours = shared.remember(MemoryDraft.of(TEAM, "The team formats code with tabs."));
      FakeChatService chat = FakeChatService.create();
      personal.hookInto(
          chat, HookOptions.builder().scope(ALICE).recallTimeout(GENEROUS).noCapture().build());
      shared.hookInto(
          chat,
          HookOptions.builder()
              .scope(TEAM)
              .toolName("get_team_memory")
              .recallTimeout(GENEROUS)
              .noCapture()
              .build());

      chat.sendUser("tabs or spaces for code?").toCompletableFuture().get(30, TimeUnit.SECONDS);

      List<ToolCall> own = chat.toolCalls("get_memory");
      List<ToolCall> team = chat.toolCalls("get_team_memory");
      assertEquals(List.of(mine.id().value()), own.get(0).arguments().get("ids"));
      assertEquals(List.of(ours.id().value()), team.get(0).arguments().get("ids"));
      assertEquals(2, chat.tools().size());
    }
  }

  @Test
  void fusedRanks_interleaveScopes_andKeepThePerMessageCap() throws Exception {
    try (MemoryService memory = service()) {
      for (int i = 0; i < 3; i++) {
        memory.remember(MemoryDraft.of(ALICE, "alice kafka consumer lag note " + i));
        memory.remember(MemoryDraft.of(TEAM, "team kafka consumer lag note " + i));
      }
      FakeChatService chat = FakeChatService.create();
      MemoryHook hook =
          memory.hookInto(
              chat,
              HookOptions.builder()
                  .scopes(List.of(ALICE, TEAM))
                  .maxPerMessage(4)
                  .recallTimeout(GENEROUS)
                  .noCapture()
                  .build());

      chat.sendUser("kafka consumer lag").toCompletableFuture().get(30, TimeUnit.SECONDS);

      List<Scope> order =
          hook.injectedIds().stream().map(id -> memory.get(id).orElseThrow().scope()).toList();
      assertEquals(List.of(ALICE, TEAM, ALICE, TEAM), order);
    }
  }

  @Test
  void options_refuseACaptureScopeOutsideTheScopes_repeatedScopes_andBadToolNames() {
    assertThrows(
        IllegalArgumentException.class,
        () -> HookOptions.builder().scopes(List.of(ALICE)).captureScope(TEAM).build());
    assertThrows(
        IllegalArgumentException.class, () -> HookOptions.builder().scopes(List.of(ALICE, ALICE)));
    assertThrows(IllegalArgumentException.class, () -> HookOptions.builder().scopes(List.of()));
    assertThrows(
        IllegalStateException.class,
        () -> HookOptions.builder().scope(ALICE).scopes(List.of(ALICE, TEAM)));
    assertThrows(
        IllegalArgumentException.class, () -> HookOptions.builder().toolName("get memory"));
    HookOptions one = HookOptions.builder().scope(TEAM).build();
    assertEquals(List.of(TEAM), one.scopes());
    assertEquals(TEAM, one.captureScope());
    assertEquals("get_memory", one.toolName());
  }
}
