package dev.memhook.core.internal.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Origin;
import dev.memhook.api.Scope;
import dev.memhook.api.spi.MemoryStore;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class PassageTextTest {

  private static Memory memory(Origin origin, String content) {
    Instant t = Instant.parse("2024-01-01T10:00:00Z");
    return Memory.builder()
        .id(MemoryId.of("m1"))
        .scope(Scope.DEFAULT)
        .origin(origin)
        .title("A title that is never a passage")
        .context("the previous turn, never a passage.")
        .content(content)
        .occurredAt(t)
        .createdAt(t)
        .build();
  }

  @Test
  void aPersonsTwoSentences_areEachAPassage_afterTheSpeakersName() {
    assertEquals(
        List.of(
            "Caroline: I adopted a puppy last week.", "Caroline: My sister lives in Lisbon now."),
        PassageText.of(
            memory(
                Origin.user("Caroline"),
                "I adopted a puppy last week. My sister lives in Lisbon now.")));
    assertEquals(
        List.of("I adopted a puppy last week.", "My sister lives in Lisbon now!"),
        PassageText.of(
            memory(Origin.user(), "I adopted a puppy last week. My sister lives in Lisbon now!")),
        "an unnamed person: no name before the sentences");
  }

  @Test
  void oneSentence_isNoPassage_forTheMemorysOwnVectorSaysIt() {
    assertEquals(
        List.of(), PassageText.of(memory(Origin.user("Caroline"), "I adopted a puppy last week.")));
    assertEquals(
        List.of(),
        PassageText.of(memory(Origin.user("Caroline"), "Yes! Thanks. I adopted a puppy.")),
        "sentences shorter than the minimum do not count");
  }

  @Test
  void theAssistantsAndToolsWords_areNotSplit() {
    String two = "The build uses Gradle 8. The tests run on Java 21 in CI.";
    assertEquals(List.of(), PassageText.of(memory(Origin.agent(), two)));
    assertEquals(List.of(), PassageText.of(memory(Origin.tool("shell"), two)));
    assertEquals(2, PassageText.of(memory(Origin.user("dev"), two)).size());
  }

  @Test
  void aLineBreak_endsASentence() {
    assertEquals(
        List.of("things to pack for the trip", "passport and the travel adapter"),
        PassageText.of(
            memory(Origin.user(), "things to pack for the trip\npassport and the travel adapter")));
  }

  @Test
  void theLongestContent_givesAtMostTheStoresPassages_eachCutToTheLongestPassage() {
    String sentence = "Word " + "word ".repeat(400).strip() + ". ";
    String huge = sentence.repeat(MemoryDraft.MAX_CONTENT / sentence.length());

    List<String> passages = PassageText.of(memory(Origin.user("bulk"), huge));

    assertEquals(MemoryStore.MAX_PASSAGES, passages.size());
    for (String p : passages) {
      assertEquals("bulk: ".length() + PassageText.MAX_CHARS, p.length());
    }
  }

  @Test
  void aCutNeverSplitsASurrogatePair() {
    String emoji = "\uD83D\uDE00";
    String longSentence = "a".repeat(PassageText.MAX_CHARS - 1) + emoji + " and more words.";
    List<String> passages =
        PassageText.of(memory(Origin.user(), longSentence + " A second sentence here."));

    String first = passages.get(0);
    assertEquals(PassageText.MAX_CHARS - 1, first.length());
    assertTrue(!Character.isHighSurrogate(first.charAt(first.length() - 1)), first);
  }
}
