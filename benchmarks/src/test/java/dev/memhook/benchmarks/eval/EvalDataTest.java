package dev.memhook.benchmarks.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class EvalDataTest {

  private static final String LINES =
      """
      {"type":"memory","conv":"c-1","id":"c-1:D1:1","session":"session_1","speaker":"Ann","time":"1:56 pm on 8 May, 2023","text":"I adopted a cat named Miso."}

      {"type":"memory","conv":"c-1","id":"c-1:D1:2","session":"session_1","speaker":"Ben","time":"1:56 pm on 8 May, 2023","text":"Look at this!","image_caption":"a grey cat on a sofa"}
      {"type":"query","conv":"c-1","id":"c-1:q0","text":"What is the name of Ann's cat?","relevant":["c-1:D1:1"],"category":4,"category_name":"single-hop","answer":"Miso"}
      {"type":"query","conv":"c 2/x","id":"q9","text":"Who?","relevant":[],"time":"2023/05/30 (Tue) 23:48"}
      """;

  @Test
  void parse_readsMemoriesAndQueriesSkippingBlankLines() throws Exception {
    EvalData data = EvalData.parse(new StringReader(LINES));

    assertEquals(2, data.memories().size());
    EvalData.EvalMemory first = data.memories().get(0);
    assertEquals("c-1", first.conv());
    assertEquals("c-1:D1:1", first.id());
    assertEquals("session_1", first.session());
    assertEquals("Ann", first.speaker());
    assertEquals("1:56 pm on 8 May, 2023", first.time());
    assertEquals("I adopted a cat named Miso.", first.text());
    assertNull(first.imageCaption());
    assertEquals("a grey cat on a sofa", data.memories().get(1).imageCaption());

    assertEquals(2, data.queries().size());
    EvalData.EvalQuery q = data.queries().get(0);
    assertEquals(List.of("c-1:D1:1"), q.relevant());
    assertEquals(4, q.category());
    assertEquals("single-hop", q.categoryName());
    EvalData.EvalQuery bare = data.queries().get(1);
    assertEquals(0, bare.category());
    assertEquals("0", bare.categoryName());
    assertEquals(List.of("c-1", "c 2/x"), data.conversations());
    assertNull(q.time());
    assertEquals("2023/05/30 (Tue) 23:48", bare.time());
  }

  @Test
  void askedAt_isTheQuestionsTime_elseItsConversationsLatestMemoryTime() throws Exception {
    EvalData data = EvalData.parse(new StringReader(LINES));
    EvalRecalls.AskedAt asked = EvalRecalls.AskedAt.of(data);
    assertEquals(Instant.parse("2023-05-08T13:56:00Z"), asked.of(data.queries().get(0)));
    assertEquals(Instant.parse("2023-05-30T23:48:00Z"), asked.of(data.queries().get(1)));
  }

  @Test
  void parse_rejectsMalformedLinesWithTheLineNumber() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                EvalData.parse(
                    new StringReader(
                        "{\"type\":\"memory\",\"conv\":\"c\",\"id\":\"m\",\"text\":\"t\"}\n{\"type\":\"query\",\"conv\":\"c\",\"id\":\"q\",\"text\":\"t\"}\n")));
    assertTrue(e.getMessage().startsWith("line 2:"), e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class,
            () -> EvalData.parse(new StringReader("{\"type\":\"other\"}")));
    assertTrue(e.getMessage().contains("unknown type 'other'"), e.getMessage());
    e =
        assertThrows(
            IllegalArgumentException.class, () -> EvalData.parse(new StringReader("not json")));
    assertTrue(e.getMessage().startsWith("line 1:"), e.getMessage());
  }

  @Test
  void conversationTime_parsesTwelveHourTimesAsUtc() {
    assertEquals(
        Instant.parse("2023-05-08T13:56:00Z"),
        ConversationTime.parse("1:56 pm on 8 May, 2023").orElseThrow());
    assertEquals(
        Instant.parse("2023-01-19T10:04:00Z"),
        ConversationTime.parse("10:04 am on 19 January, 2023").orElseThrow());
    assertEquals(
        Instant.parse("2023-12-31T00:05:00Z"),
        ConversationTime.parse("12:05 AM on 31 Dec, 2023").orElseThrow());
    assertEquals(
        Instant.parse("2023-07-02T12:00:00Z"),
        ConversationTime.parse(" 12:00  pm on 2 July, 2023 ").orElseThrow());
  }

  @Test
  void conversationTime_parsesIsoDateTimes() {
    assertEquals(
        Instant.parse("2026-03-02T09:12:00Z"),
        ConversationTime.parse("2026-03-02T09:12:00Z").orElseThrow());
    assertEquals(
        Instant.parse("2026-03-02T00:12:00Z"),
        ConversationTime.parse("2026-03-02T09:12:00+09:00").orElseThrow());
    assertEquals(
        Instant.parse("2026-03-02T09:12:00Z"),
        ConversationTime.parse("2026-03-02T09:12:00").orElseThrow());
  }

  @Test
  void conversationTime_parsesTheOtherCommonFormats() {
    Instant may8 = Instant.parse("2023-05-08T13:56:00Z");
    assertEquals(may8, ConversationTime.parse("2023-05-08 13:56").orElseThrow());
    assertEquals(may8, ConversationTime.parse("2023-05-08 13:56:00").orElseThrow());
    assertEquals(may8, ConversationTime.parse("Mon, 8 May 2023 13:56:00 GMT").orElseThrow());
    assertEquals(may8, ConversationTime.parse("1683554160").orElseThrow(), "Unix seconds");
    assertEquals(may8, ConversationTime.parse("1683554160000").orElseThrow(), "Unix millis");
    assertEquals(
        Instant.parse("2023-05-08T00:00:00Z"), ConversationTime.parse("2023-05-08").orElseThrow());
  }

  @Test
  void conversationTime_parsesLongMemEvalsSlashedDateWithItsWeekday() {
    assertEquals(
        Instant.parse("2023-04-20T05:18:00Z"),
        ConversationTime.parse("2023/04/20 (Thu) 05:18").orElseThrow());
    assertTrue(ConversationTime.parse("2023/04/20 (Mon) 05:18").isEmpty(), "wrong weekday");
  }

  @Test
  void categoryLabel_numbersOnlyNumberedCategories() {
    assertEquals("4 single-hop", EvalRecalls.categoryLabel(query(4, "single-hop")));
    assertEquals("knowledge-update", EvalRecalls.categoryLabel(query(0, "knowledge-update")));
    assertEquals("0 0", EvalRecalls.categoryLabel(query(0, "0")));
  }

  private static EvalData.EvalQuery query(int category, String name) {
    return new EvalData.EvalQuery("c", "q", "Who?", List.of("m"), category, name, null);
  }

  @Test
  void conversationTime_rejectsOtherFormats() {
    assertTrue(ConversationTime.parse("13:56 on 8 May, 2023").isEmpty());
    assertTrue(ConversationTime.parse("last Tuesday").isEmpty());
    assertTrue(ConversationTime.parse("").isEmpty());
  }

  @Test
  void anAssistantsTurn_isStoredAsTheAgents_andEveryOtherSpeakerAsAUser() {
    EvalData.EvalMemory assistant =
        new EvalData.EvalMemory("c", "m", null, "Assistant", null, "done", null);
    EvalData.EvalMemory person = new EvalData.EvalMemory("c", "m", null, "Dana", null, "hi", null);
    assertEquals(dev.memhook.api.Origin.agent(), EvalIngest.originOf(assistant, true));
    assertEquals(dev.memhook.api.Origin.user("Dana"), EvalIngest.originOf(person, true));
    assertEquals(dev.memhook.api.Origin.user(), EvalIngest.originOf(person, false));
  }

  @Test
  void content_appendsTheImageCaption() {
    EvalData.EvalMemory plain = new EvalData.EvalMemory("c", "m", null, null, null, " hi ", null);
    EvalData.EvalMemory photo =
        new EvalData.EvalMemory("c", "m", null, null, null, "Look!", "a cat");
    EvalData.EvalMemory onlyPhoto =
        new EvalData.EvalMemory("c", "m", null, null, null, "", "a cat");
    assertEquals("hi", EvalIngest.content(plain));
    assertEquals("Look! [shares a photo: a cat]", EvalIngest.content(photo));
    assertEquals("[shares a photo: a cat]", EvalIngest.content(onlyPhoto));
  }

  @Test
  void context_isThePreviousTurnOfTheSameSession() {
    EvalData.EvalMemory a = new EvalData.EvalMemory("c", "1", "s1", "Ann", null, "Hi", null);
    EvalData.EvalMemory b = new EvalData.EvalMemory("c", "2", "s1", "Ben", null, "Look", "a cat");
    EvalData.EvalMemory c = new EvalData.EvalMemory("c", "3", "s2", "Ann", null, "Later", null);
    EvalData.EvalMemory d = new EvalData.EvalMemory("d", "4", "s2", "Cy", null, "Other", null);
    assertEquals("", EvalIngest.context(null, a));
    assertEquals("Ann: Hi", EvalIngest.context(a, b));
    assertEquals("", EvalIngest.context(b, c));
    assertEquals("", EvalIngest.context(c, d));
    assertEquals(
        "Ben: Look [shares a photo: a cat]",
        EvalIngest.context(b, new EvalData.EvalMemory("c", "5", "s1", "Ann", null, "Aww", null)));
  }

  @Test
  void scopes_sanitizeConversationIdsAndKeepThemDistinct() {
    var scopes = EvalIngest.scopes(List.of("conv-26", "c 2/x", "c_2_x"));
    assertEquals("eval/conv-26", scopes.get("conv-26").value());
    assertEquals("eval/c_2_x", scopes.get("c 2/x").value());
    assertEquals("eval/c_2_x-2", scopes.get("c_2_x").value());
  }
}
