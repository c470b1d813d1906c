package dev.memhook.core.capture;

import static dev.memhook.core.capture.CaptureFixtures.flush;
import static dev.memhook.core.capture.CaptureFixtures.observations;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.HookOptions;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryHook;
import dev.memhook.api.MemoryService;
import dev.memhook.api.Origin;
import dev.memhook.api.Scope;
import dev.memhook.core.HashingEmbedder;
import dev.memhook.core.Memhook;
import dev.memhook.testkit.FakeChatService;
import dev.memhook.testkit.ModelReply;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Who said a captured turn, when the host knows: the event's speaker, or the hook's user and
 * assistant names, become the origin's name and the "name: " of the next turn's context; a hook
 * captures into the scope it recalls from, and {@code observeJson} into the scope it is given.
 */
class SpeakerCaptureTest {

  @Test
  void anEventsSpeaker_namesItsOrigin_andTheNextTurnsContext() {
    try (MemoryService memory = service()) {
      memory
          .capture()
          .observeJson(
              "{\"hookType\":\"PromptSubmit\",\"sessionId\":\"s1\",\"project\":\"p\",\"cwd\":\"/w\","
                  + "\"timestamp\":\"2026-11-30T10:00:00Z\",\"data\":{\"prompt\":\"I adopted a"
                  + " greyhound.\",\"speaker\":\"Caroline\"}}");
      memory
          .capture()
          .observeJson(
              "{\"hookType\":\"AgentResponse\",\"sessionId\":\"s1\","
                  + "\"timestamp\":\"2026-11-30T10:00:05Z\",\"data\":{\"message\":\"Greyhounds"
                  + " need less exercise than people think.\",\"speaker\":\"Melanie\"}}");
      flush(memory);
      Memory prompt = only(observations(memory), "greyhound.");
      Memory answer = only(observations(memory), "less exercise");
      assertEquals(Origin.user("Caroline"), prompt.origin());
      assertEquals(new Origin(Origin.Kind.AGENT, "Melanie"), answer.origin());
      assertEquals("Caroline: I adopted a greyhound.", answer.context());
    }
  }

  @Test
  void aHooksUserAndAssistantNames_nameTheCapturedMessages() throws Exception {
    try (MemoryService memory = service()) {
      FakeChatService chat = FakeChatService.create();
      chat.scriptReplies(ModelReply.text("Noted, Alice."));
      HookOptions options =
          HookOptions.builder()
              .scope(Scope.of("acme", "alice"))
              .userName("Alice")
              .assistantName("helpdesk")
              .build();
      try (MemoryHook hook = memory.hookInto(chat, options)) {
        chat.sendUser("My laptop is the 14-inch one.")
            .toCompletableFuture()
            .get(30, TimeUnit.SECONDS);
      }
      flush(memory);
      Memory laptop = only(observations(memory), "laptop");
      assertEquals(Origin.user("Alice"), laptop.origin());
      assertEquals(Scope.of("acme", "alice"), laptop.scope(), "a hook captures into its scope");
      assertEquals(
          new Origin(Origin.Kind.AGENT, "helpdesk"), only(observations(memory), "Noted").origin());
    }
  }

  @Test
  void observeJsonWithAScope_storesTheEventThere_andWithoutOne_inTheOptionsScope() {
    try (MemoryService memory = service()) {
      Scope shop = Scope.of("me", "shop");
      String event =
          "{\"hookType\":\"PromptSubmit\",\"sessionId\":\"%s\",\"project\":\"p\","
              + "\"cwd\":\"/w\",\"timestamp\":\"2026-11-30T10:00:00Z\","
              + "\"data\":{\"prompt\":\"%s\"}}";
      memory.capture().observeJson(event.formatted("s1", "The shop uses Gradle."), shop);
      memory.capture().observeJson(event.formatted("s2", "The blog uses Hugo."));
      flush(memory);
      assertEquals(shop, only(observations(memory), "Gradle").scope());
      assertEquals(Scope.DEFAULT, only(observations(memory), "Hugo").scope());
    }
  }

  private static Memory only(List<Memory> memories, String text) {
    List<Memory> found = memories.stream().filter(m -> m.content().contains(text)).toList();
    assertEquals(1, found.size(), memories.toString());
    assertTrue(found.get(0).content().contains(text));
    return found.get(0);
  }

  private static MemoryService service() {
    return Memhook.builder().inMemory().embedder(HashingEmbedder.create()).build();
  }
}
