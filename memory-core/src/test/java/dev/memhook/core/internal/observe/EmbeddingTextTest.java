package dev.memhook.core.internal.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Origin;
import dev.memhook.api.Scope;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EmbeddingTextTest {

  private static Memory memory(Origin origin, String title, String content) {
    Instant t = Instant.parse("2024-01-01T10:00:00Z");
    return Memory.builder()
        .id(MemoryId.of("m1"))
        .scope(Scope.DEFAULT)
        .origin(origin)
        .title(title)
        .summary("A summary the embedding never shows")
        .context("the previous turn, never embedded")
        .concepts(List.of("pets"))
        .attributes(Map.of("mood", "happy"))
        .content(content)
        .occurredAt(t)
        .createdAt(t)
        .build();
  }

  @Test
  void aNamedSpeaker_andATitleThatAddsToTheContent_precedeTheContent() {
    assertEquals(
        "Caroline: Adoption day. I adopted a puppy last week.",
        EmbeddingText.of(
            memory(Origin.user("Caroline"), "Adoption day", "I adopted a puppy last week.")));
  }

  @Test
  void aTitleTheContentAlreadySays_isLeftOut() {
    assertEquals(
        "Caroline: I adopted a puppy last week.",
        EmbeddingText.of(
            memory(Origin.user("Caroline"), "I adopted a puppy…", "I adopted a puppy last week.")));
    assertEquals(
        "Caroline: I adopted a puppy last week.",
        EmbeddingText.of(memory(Origin.user("Caroline"), "", "I adopted a puppy last week.")));
  }

  @Test
  void anUnnamedOrigin_addsNoSpeaker() {
    assertEquals(
        "Adoption day. I adopted a puppy last week.",
        EmbeddingText.of(memory(Origin.user(), "Adoption day", "I adopted a puppy last week.")));
    assertEquals(
        "I adopted a puppy last week.",
        EmbeddingText.of(memory(Origin.agent(), "", "I adopted a puppy last week.")));
  }

  @Test
  void aToolsName_isItsSpeaker() {
    assertEquals(
        "git-log: commit 3f2a9c1 fixed the build.",
        EmbeddingText.of(memory(Origin.tool("git-log"), "", "commit 3f2a9c1 fixed the build.")));
  }

  @Test
  void aLongObservation_isEmbeddedByItsSummary_withItsTitleOnlyWhereTheSummaryLacksIt() {
    assertEquals(
        "Ran git status. Output: clean.",
        EmbeddingText.of(longObservation("Ran git status", "Ran git status. Output: clean.")));
    assertEquals(
        "Ran git status: exit code 1. Ran git status. Error: not a repository.",
        EmbeddingText.of(
            longObservation(
                "Ran git status: exit code 1", "Ran git status. Error: not a repository.")));
  }

  private static Memory longObservation(String title, String summary) {
    Instant t = Instant.parse("2024-01-01T10:00:00Z");
    return Memory.builder()
        .id(MemoryId.of("o1"))
        .scope(Scope.DEFAULT)
        .type(MemoryType.OBSERVATION)
        .origin(Origin.user())
        .title(title)
        .summary(summary)
        .content("PostToolUse Bash\noutput: " + "x".repeat(EmbeddingText.OBSERVATION_CHARS + 1))
        .occurredAt(t)
        .createdAt(t)
        .build();
  }
}
