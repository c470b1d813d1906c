package dev.memhook.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;
import java.util.TreeMap;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.junit.jupiter.api.Test;

/** The clauses of a text query: one per distinct term, an exact form in its code term's clause. */
class TextQueryBuilderTest {
  private static final IndexSchema SCHEMA = new IndexSchema();

  @Test
  void anExactFormSpelledAsItsCodeTerm_isNoClauseOfItsOwn_itsWeightIsInTheCodeClause() {
    TextQueryBuilder builder = new TextQueryBuilder(SCHEMA, 0.5f, 0f, 3f);
    assertEquals(
        Map.of(
            "text:fix", 1.5f,
            "text:after", 1.5f,
            "text:run", 1.0f,
            "text:test", 1.0f,
            "text_exact:running", 0.5f,
            "text_exact:tests", 0.5f),
        clauses(builder.build("fix after running tests")));
  }

  @Test
  void aCodeTokenTheStemmerLeaves_isOneClause_oneItChanges_keepsItsExactClause() {
    TextQueryBuilder builder = new TextQueryBuilder(SCHEMA, 0.5f, 0f, 3f);
    Map<String, Float> code = clauses(builder.build("PAY-4012"));
    assertEquals(1.5f, code.get("text:pay-4012"), code.toString());
    assertNull(code.get("text_exact:pay-4012"), code.toString());
    Map<String, Float> identifier = clauses(builder.build("PaymentService"));
    assertEquals(1.0f, identifier.get("text:paymentservic"), identifier.toString());
    assertEquals(0.5f, identifier.get("text_exact:paymentservice"), identifier.toString());
  }

  @Test
  void withExactMatchesOff_noClauseCarriesTheirWeight() {
    TextQueryBuilder builder = new TextQueryBuilder(SCHEMA, 0f, 0f, 3f);
    assertEquals(
        Map.of("text:fix", 1.0f, "text:after", 1.0f, "text:run", 1.0f, "text:test", 1.0f),
        clauses(builder.build("fix after running tests")));
  }

  /** Each leaf clause as field:term with its boost (1 if unboosted). */
  private static Map<String, Float> clauses(Query query) {
    Map<String, Float> out = new TreeMap<>();
    for (BooleanClause c : ((BooleanQuery) query).clauses()) {
      float boost = 1f;
      Query q = c.query();
      if (q instanceof BoostQuery b) {
        boost = b.getBoost();
        q = b.getQuery();
      }
      TermQuery t = (TermQuery) q;
      assertNull(out.put(t.getTerm().field() + ":" + t.getTerm().text(), boost), "twice: " + t);
    }
    return out;
  }
}
