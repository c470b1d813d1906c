package dev.memhook.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class CodeAwareTermsTest {

  @Test
  void indexTerms_splitIdentifiersAndPaths_soTheirPartsMatchProse() {
    List<String> terms = CodeAwareTerms.indexTerms("see src/middleware/AuthMiddleware.java");
    for (String part : CodeAwareTerms.queryTerms("auth middleware")) {
      assertTrue(terms.contains(part), part + " in " + terms);
    }
    assertTrue(terms.contains("authmiddlewar"), "the whole identifier, stemmed: " + terms);
    assertTrue(terms.contains("authmiddleware.java"), "the file name: " + terms);
  }

  @Test
  void indexTerms_keepRepeats_forTermFrequency() {
    List<String> terms = CodeAwareTerms.indexTerms("cache cache caches");
    assertEquals(3, Collections.frequency(terms, "cach"), terms.toString());
  }

  @Test
  void queryTerms_areDistinct_withoutFunctionWords_unlessThatIsAllThereIs() {
    assertEquals(
        List.of("redi", "cluster"), CodeAwareTerms.queryTerms("the redis and the cluster"));
    assertEquals(List.of("the", "and"), CodeAwareTerms.queryTerms("the and the"));
    assertEquals(List.of(), CodeAwareTerms.queryTerms("  ,;  "));
  }

  @Test
  void queryTerms_stopAtTheLimit() {
    String many = String.join(" ", IntStream.range(0, 100).mapToObj(i -> "word" + i).toList());
    assertEquals(CodeAwareTerms.MAX_QUERY_TERMS, CodeAwareTerms.queryTerms(many).size());
  }

  @Test
  void nullText_isRejected() {
    assertThrows(NullPointerException.class, () -> CodeAwareTerms.indexTerms(null));
    assertThrows(NullPointerException.class, () -> CodeAwareTerms.queryTerms(null));
  }
}
