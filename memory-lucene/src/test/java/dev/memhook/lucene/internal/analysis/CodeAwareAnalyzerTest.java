package dev.memhook.lucene.internal.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.lucene.internal.analysis.CodeAwareAnalyzer.PositionedTerm;
import dev.memhook.lucene.internal.analysis.CodeAwareAnalyzer.Variant;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class CodeAwareAnalyzerTest {
  private final CodeAwareAnalyzer code = CodeAwareAnalyzer.of(Variant.CODE);
  private final CodeAwareAnalyzer exact = CodeAwareAnalyzer.of(Variant.EXACT);
  private final CodeAwareAnalyzer hexIndex = CodeAwareAnalyzer.of(Variant.HEX_INDEX);
  private final CodeAwareAnalyzer hexQuery = CodeAwareAnalyzer.of(Variant.HEX_QUERY);

  @Test
  void path_keepsWholePath_suffixes_segments_andCamelParts() {
    // Porter stems "middleware" to "middlewar"; queries go through the same chain, so they agree.
    Set<String> terms = code.terms("f", "Fixed src/middleware/AuthMiddleware.java.");
    assertTrue(
        terms.containsAll(
            List.of(
                "src/middleware/authmiddleware.java",
                "middleware/authmiddleware.java",
                "authmiddleware.java",
                "authmiddlewar",
                "auth",
                "middlewar",
                "java",
                "src")),
        terms.toString());
  }

  @Test
  void exactVariant_keepsWholeTokens_andTrimsSentencePunctuation() {
    assertEquals(
        List.of("fixed", "src/middleware/authmiddleware.java"),
        terms(exact.positionedTerms("f", "Fixed src/middleware/AuthMiddleware.java.")));
    assertEquals(
        List.of("mvn", "pl", "core", "test"),
        terms(exact.positionedTerms("f", "mvn -pl core test")));
  }

  @Test
  void snakeAndCamelCase_yieldWholeCatenatedAndParts() {
    Set<String> snake = code.terms("f", "parse_user_id");
    Set<String> camel = code.terms("f", "parseUserId");
    assertTrue(
        snake.containsAll(List.of("parse_user_id", "parseuserid", "pars", "user", "id")),
        snake.toString());
    assertTrue(camel.containsAll(List.of("parseuserid", "pars", "user", "id")), camel.toString());
  }

  @Test
  void errorCodes_stayWhole_andSplitAtDigits() {
    assertTrue(code.terms("f", "E0425").containsAll(List.of("e0425", "0425")));
    assertEquals(List.of("econnrefused"), terms(exact.positionedTerms("f", "ECONNREFUSED:")));
  }

  @Test
  void sha_isNotSplitNorStemmed_andIndexedWithPrefixes() {
    String sha = "3f2a9c1b4d5e6f708192a3b4c5d6e7f8091a2b3c";
    assertEquals(Set.of(sha), code.terms("f", sha));
    Set<String> prefixes = hexIndex.terms("f", "commit " + sha.toUpperCase());
    assertTrue(prefixes.contains(sha));
    assertTrue(prefixes.contains(sha.substring(0, 7)));
    assertEquals(40 - 7 + 1, prefixes.size());
    assertEquals(Set.of("3f2a9c1"), hexQuery.terms("f", "what did 3f2a9c1 change?"));
  }

  @Test
  void hexVariants_ignoreWordsWithoutDigits_andShortOrEmbeddedHex() {
    assertTrue(hexQuery.terms("f", "deadbeef facade decade abc123 xyz3f2a9c1b").isEmpty());
  }

  @Test
  void englishProse_isStemmed() {
    Set<String> terms = code.terms("f", "running tests");
    assertTrue(terms.containsAll(List.of("run", "test")), terms.toString());
    assertTrue(code.terms("f", "the user's session").contains("user"));
  }

  @Test
  void cjk_isBigrammed_andFullWidthFolded() {
    assertEquals(List.of("我们", "们决", "决定"), terms(code.positionedTerms("f", "我们决定")));
    assertEquals(List.of("会議"), terms(exact.positionedTerms("f", "会議")));
    assertEquals(List.of("単"), terms(exact.positionedTerms("f", "単")));
    assertEquals(Set.of("abc"), exact.terms("f", "ＡＢＣ"));
    List<PositionedTerm> mixed = exact.positionedTerms("f", "使用PostgreSQL数据库");
    assertEquals(List.of("使用", "postgresql", "数据", "据库"), terms(mixed));
  }

  @Test
  void cjkRunsFromTheLowestCjkCodePoint_areBigrammed_andLatinOrCyrillicWordsAreNot() {
    // U+1100 and U+1161: Hangul jamo, the lowest code points of a CJK script
    assertEquals(
        List.of("\u1100\u1161", "\u1161\u1100"),
        terms(exact.positionedTerms("f", "\u1100\u1161\u1100")));
    assertEquals(List.of("한국", "국어"), terms(exact.positionedTerms("f", "한국어")));
    assertEquals(List.of("привет", "ünïcödé"), terms(exact.positionedTerms("f", "привет ünïcödé")));
  }

  @Test
  void punctuationAndQuerySyntax_areJustSeparators() {
    assertEquals(
        List.of("foo", "bar", "baz"),
        terms(
            exact.positionedTerms("f", "foo:(bar) AND? \"baz\"*").stream()
                .filter(t -> !t.term().equals("and"))
                .collect(Collectors.toList())));
    assertFalse(code.terms("f", "::: ((( ))) ???").iterator().hasNext());
  }

  private static List<String> terms(List<PositionedTerm> terms) {
    return terms.stream().map(PositionedTerm::term).collect(Collectors.toList());
  }
}
