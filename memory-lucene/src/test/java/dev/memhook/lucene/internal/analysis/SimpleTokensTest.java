package dev.memhook.lucene.internal.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SimpleTokensTest {

  @Test
  void words_areLowerCased_andSplitOnAnythingButLettersAndDigits() {
    assertEquals(
        List.of("deploy", "ran", "2024", "05", "08", "ok"),
        SimpleTokens.tokenize("Deploy ran (2024-05-08): OK!"));
    assertEquals(
        List.of("snake", "case", "path", "file", "txt"),
        SimpleTokens.tokenize("snake_case path/file.txt"));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "AuthMiddleware|authmiddleware auth middleware",
        "HTTPServer|httpserver http server",
        "XMLHttpRequest|xmlhttprequest xml http request",
        "utf8|utf8 utf 8",
        "v2Beta|v2beta v 2 beta",
        "getUserById|getuserbyid get user id"
      })
  void aCompound_isFollowedByItsParts_withoutStopWords(String word, String tokens) {
    assertEquals(List.of(tokens.split(" ")), SimpleTokens.tokenize(word));
  }

  @Test
  void stopWords_areDropped_asWordsAndAsParts() {
    assertEquals(
        List.of("auth", "middleware", "reject"),
        SimpleTokens.tokenize("What does the auth middleware reject?"));
    assertEquals(List.of("isready", "ready"), SimpleTokens.tokenize("isReady"));
    assertEquals(List.of(), SimpleTokens.tokenize("what is it and who were they"));
    assertTrue(SimpleTokens.STOP_WORDS.containsAll(List.of("the", "what", "who", "is", "s", "t")));
    assertThrows(UnsupportedOperationException.class, () -> SimpleTokens.STOP_WORDS.add("kafka"));
  }

  @Test
  void cjkRuns_becomeOverlappingBigrams_andALoneCharacterStaysWhole() {
    assertEquals(List.of("東京", "京都"), SimpleTokens.tokenize("東京都"));
    assertEquals(List.of("한국", "국어"), SimpleTokens.tokenize("한국어"));
    assertEquals(List.of("カタ", "タカ", "カナ"), SimpleTokens.tokenize("カタカナ"));
    assertEquals(List.of("猫"), SimpleTokens.tokenize("猫"));
    assertEquals(List.of("kafka", "東京", "京都", "lag"), SimpleTokens.tokenize("kafka東京都lag"));
  }

  @Test
  void textWithoutLettersOrDigits_hasNoTokens() {
    assertEquals(List.of(), SimpleTokens.tokenize(""));
    assertEquals(List.of(), SimpleTokens.tokenize("  \n\t"));
    assertEquals(List.of(), SimpleTokens.tokenize("?! -- ... ()"));
  }
}
