package dev.memhook.djl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.spi.Embedding;
import dev.memhook.testkit.Seeds;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The bundled int8 MiniLM, loaded once for the class. */
class DjlEmbedderTest {
  /** The int8 batch-versus-single tolerance stated in the DjlEmbedder Javadoc. */
  static final double INT8_BATCH_COSINE =
      Double.parseDouble(DjlEmbedder.BATCH_COSINE_TOLERANCE_DOC);

  static DjlEmbedder embedder;

  @BeforeAll
  static void load() {
    embedder = DjlEmbedder.bundledMiniLm();
  }

  @AfterAll
  static void close() {
    embedder.close();
  }

  @Test
  void embed_ranksParaphraseAboveUnrelatedText() {
    Embedding anchor = embedder.embed("the cat sits on the mat");
    double positive = anchor.cosine(embedder.embed("a cat is sitting on a rug"));
    double negative = anchor.cosine(embedder.embed("quarterly revenue grew 5%"));
    assertTrue(positive > 0.5, "paraphrase cosine " + positive);
    assertTrue(positive > negative + 0.3, positive + " vs " + negative);
  }

  static Stream<Arguments> triples() {
    return Stream.of(
        Arguments.of(
            "the cat sits on the mat", "a cat is sitting on a rug", "quarterly revenue grew 5%"),
        Arguments.of(
            "How do I reverse a linked list in Java?",
            "Java code to reverse a singly linked list",
            "Best hiking trails in the Alps"),
        Arguments.of(
            "NullPointerException thrown in UserService.save",
            "a null pointer error when saving the user",
            "The recipe calls for two cups of flour"),
        Arguments.of(
            "git rebase onto the main branch",
            "rebasing my feature branch on main with git",
            "The goalkeeper saved a penalty"),
        Arguments.of(
            "The Docker container runs out of memory",
            "OOM kill inside the docker container",
            "She planted tomatoes in the garden"),
        Arguments.of(
            "SQL query to find duplicate rows",
            "find duplicated records with a SELECT and GROUP BY",
            "The orchestra played Beethoven's fifth"),
        Arguments.of(
            "Preheat the oven and bake the bread for 30 minutes",
            "bake the loaf in a hot oven for half an hour",
            "The central bank raised interest rates"),
        Arguments.of(
            "How long should I boil an egg?",
            "boiling time for a soft-boiled egg",
            "Kubernetes pod keeps restarting"),
        Arguments.of(
            "a spicy Thai green curry with coconut milk",
            "green curry made with coconut milk and chili",
            "the quarterback threw a touchdown pass"),
        Arguments.of(
            "The striker scored twice in the second half",
            "the forward netted two goals after halftime",
            "Add salt to the pasta water"),
        Arguments.of(
            "Serena Williams won the Wimbledon final",
            "the tennis champion took the title at Wimbledon",
            "How to configure a Maven plugin"),
        Arguments.of(
            "the marathon runner crossed the finish line",
            "the long-distance runner finished the race",
            "the stock market fell sharply today"),
        Arguments.of(
            "The company's quarterly earnings beat expectations",
            "profits for the quarter were higher than analysts forecast",
            "my dog loves playing fetch"),
        Arguments.of(
            "Inflation rose to 4 percent last month",
            "consumer prices increased by four percent",
            "The band released a new album"),
        Arguments.of(
            "I want to open a savings account",
            "how do I start a savings account at the bank",
            "The volcano erupted last night"),
        Arguments.of(
            "The patient has a high fever and a cough",
            "the sick person is coughing and running a temperature",
            "Refactor the method to use streams"),
        Arguments.of(
            "It will rain heavily tomorrow afternoon",
            "heavy showers are forecast for tomorrow",
            "He compiled the kernel from source"),
        Arguments.of(
            "The flight to Tokyo was delayed by three hours",
            "our plane to Japan left three hours late",
            "Whisk the eggs with sugar until fluffy"),
        Arguments.of(
            "The user prefers dark mode in the editor",
            "they like a dark theme for their IDE",
            "The tide comes in twice a day"),
        Arguments.of(
            "Children learn languages faster than adults",
            "kids pick up new languages more quickly than grown-ups",
            "The server returned HTTP 500"),
        Arguments.of(
            "The museum exhibits paintings by Monet",
            "Monet's artworks are on display at the gallery",
            "Increase the JVM heap size"));
  }

  @ParameterizedTest
  @MethodSource("triples")
  void embed_placesAnchorCloserToPositiveThanNegative(
      String anchor, String positive, String negative) {
    List<Embedding> v = embedder.embedAll(List.of(anchor, positive, negative));
    double pos = v.get(0).cosine(v.get(1));
    double neg = v.get(0).cosine(v.get(2));
    assertTrue(pos > neg, "cos(anchor, positive)=" + pos + " <= cos(anchor, negative)=" + neg);
  }

  static List<String> randomTexts(long seed, int count) {
    String[] words =
        ("memory vector store lucene java thread cache model token window batch query recall"
                + " hook session agent tool error commit build test coffee river mountain")
            .split(" ");
    Random random = new Random(seed);
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      StringBuilder sb = new StringBuilder();
      int n = 1 + random.nextInt(40);
      for (int j = 0; j < n; j++) {
        sb.append(words[random.nextInt(words.length)]).append(' ');
      }
      texts.add(sb.toString());
    }
    return texts;
  }

  @Test
  void aTextsVector_isTheSameWhateverItIsEmbeddedWith_byDefault() {
    long seed = Seeds.seed();
    List<String> texts = randomTexts(seed, 80);
    List<Embedding> batch = embedder.embedAll(texts);
    assertEquals(texts.size(), batch.size());
    List<String> reversed = new ArrayList<>(texts);
    java.util.Collections.reverse(reversed);
    List<Embedding> otherBatch = embedder.embedAll(reversed);
    for (int i = 0; i < texts.size(); i++) {
      Embedding alone = embedder.embed(texts.get(i));
      assertEquals(alone, batch.get(i), Seeds.replay(seed) + ": text " + i + " in a batch");
      assertEquals(
          alone,
          otherBatch.get(texts.size() - 1 - i),
          Seeds.replay(seed) + ": text " + i + " in another batch");
    }
    assertTrue(embedder.toString().contains("batchSize=1"), embedder.toString());
  }

  @Test
  void aChosenBatchSize_isUsedAsSet_withinTheStatedInt8Tolerance() {
    long seed = Seeds.seed();
    List<String> texts = randomTexts(seed, 80);
    try (DjlEmbedder batched = DjlEmbedder.bundledMiniLmBuilder().batchSize(32).build()) {
      assertTrue(batched.toString().contains("batchSize=32"), batched.toString());
      List<Embedding> batch = batched.embedAll(texts);
      double worst = 1;
      for (int i = 0; i < texts.size(); i++) {
        worst = Math.min(worst, batch.get(i).cosine(batched.embed(texts.get(i))));
      }
      assertTrue(
          worst >= INT8_BATCH_COSINE, Seeds.replay(seed) + ": worst batch/single cosine " + worst);
      assertTrue(worst < 0.99999, "the int8 model's batches do change its vectors: " + worst);
    }
  }

  @Test
  void embedAll_keepsInputOrderAndDuplicates() {
    List<Embedding> v =
        embedder.embedAll(List.of("a long sentence about rivers and mountains", "x", "x"));
    assertEquals(v.get(1), v.get(2));
    assertEquals(embedder.embed("a long sentence about rivers and mountains"), v.get(0));
    assertEquals(List.of(), embedder.embedAll(List.of()));
  }

  @Test
  void embed_fromEightThreadsGivesSameVectorsAsOneThread() throws Exception {
    long seed = Seeds.seed();
    List<String> texts = randomTexts(seed, 40);
    List<Embedding> expected = new ArrayList<>();
    for (String text : texts) {
      expected.add(embedder.embed(text));
    }
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<List<Embedding>>> futures = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        Callable<List<Embedding>> task =
            () -> {
              List<Embedding> out = new ArrayList<>();
              for (String text : texts) {
                out.add(embedder.embed(text));
              }
              return out;
            };
        futures.add(pool.submit(task));
      }
      for (Future<List<Embedding>> f : futures) {
        assertEquals(expected, f.get(), Seeds.replay(seed));
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void embed_returnsUnitVectorsOfModelDimension() {
    assertEquals(384, embedder.dimension());
    assertEquals("all-minilm-l6-v2-q", embedder.modelId());
    assertEquals(
        new dev.memhook.api.spi.EmbeddingSpace("all-minilm-l6-v2-q", 384), embedder.space());
    long seed = Seeds.seed();
    for (String text : randomTexts(seed, 10)) {
      Embedding e = embedder.embed(text);
      assertEquals(384, e.dimension());
      assertEquals(1.0, e.norm(), 1e-5, () -> "'" + text + "', " + Seeds.replay(seed));
    }
  }

  @Test
  void embed_isDeterministic() {
    assertEquals(embedder.embed("determinism matters"), embedder.embed("determinism matters"));
  }

  static final String COOKING =
      "To make a classic risotto, warm the stock in a saucepan and keep it at a gentle simmer. "
          + "Melt butter in a wide pan, soften a finely chopped onion, then add the arborio rice and "
          + "toast it for two minutes until the grains turn translucent at the edges. Pour in a glass "
          + "of dry white wine and stir until it is absorbed. Add the hot stock one ladle at a time, "
          + "stirring often, and wait until each ladle is absorbed before adding the next. After about "
          + "eighteen minutes the rice should be creamy but still slightly firm in the centre. Take "
          + "the pan off the heat, beat in cold butter and grated parmesan, season with salt and "
          + "pepper, cover and let it rest for two minutes before serving in warm bowls. ";
  static final String FOOTBALL =
      "In the second half the home side pressed high and the striker scored twice in ten minutes, "
          + "first with a header from a corner and then with a low shot past the goalkeeper. The "
          + "visitors changed their formation, brought on two wingers and hit the crossbar, but the "
          + "defence held firm. The referee showed three yellow cards and added five minutes of "
          + "stoppage time, during which the captain cleared a shot off the line. The coach praised "
          + "the team's pressing and said the win lifts them to third place in the league table with "
          + "six matches left, two points behind the leaders and one ahead of their local rivals. ";

  @Test
  void embed_longTextIsWindowedNotTruncated() {
    // COOKING twice fills more than one 256-token window; FOOTBALL only appears after it.
    String head = COOKING + COOKING;
    String longText = head + FOOTBALL + FOOTBALL;
    Embedding whole = embedder.embed(longText);
    Embedding headOnly = embedder.embed(head);
    Embedding football = embedder.embed(FOOTBALL);
    assertEquals(1.0, whole.norm(), 1e-5);
    // A silent cut at 256 tokens would make the long text's vector that of its first window.
    assertTrue(whole.cosine(headOnly) < 0.95, "cos(long, head) " + whole.cosine(headOnly));
    // ...yet it stays semantically close to its beginning,
    assertTrue(whole.cosine(headOnly) > 0.5, "cos(long, head) " + whole.cosine(headOnly));
    // and the tail content is represented.
    assertTrue(
        whole.cosine(football) > headOnly.cosine(football) + 0.2,
        "cos(long, football) "
            + whole.cosine(football)
            + " vs cos(head, football) "
            + headOnly.cosine(football));
  }

  @Test
  void embed_emptyAndWhitespaceGiveTheEmbeddingOfTheEmptyString() {
    Embedding empty = embedder.embed("");
    assertEquals(384, empty.dimension());
    assertEquals(1.0, empty.norm(), 1e-5);
    assertEquals(empty, embedder.embed("   "));
    assertEquals(empty, embedder.embed(" \t\n\r "));
    assertEquals(List.of(empty, empty), embedder.embedAll(List.of("", "\n")));
  }

  @Test
  void embed_rejectsNullText() {
    assertThrows(NullPointerException.class, () -> embedder.embed(null));
    assertThrows(NullPointerException.class, () -> embedder.embedAll(null));
    List<String> withNull = new ArrayList<>();
    withNull.add("ok");
    withNull.add(null);
    NullPointerException e =
        assertThrows(NullPointerException.class, () -> embedder.embedAll(withNull));
    assertEquals("texts[1]", e.getMessage());
  }

  @Test
  void pooling_clsDiffersFromMeanButBothRank() {
    // Uses a second, small embedder only to check that CLS pooling is wired through.
    try (DjlEmbedder cls =
        DjlEmbedder.builder()
            .classpathModel(
                DjlEmbedder.class.getClassLoader(),
                BundledModel.MINILM_L6_V2_Q.modelResource,
                BundledModel.MINILM_L6_V2_Q.tokenizerResource)
            .modelId("all-minilm-l6-v2-q-cls")
            .pooling(Pooling.CLS)
            .predictorPoolSize(1)
            .maxTokens(16)
            .build()) {
      assertEquals(384, cls.dimension());
      assertEquals(16, cls.maxTokens());
      assertNotEquals(
          embedder.embed("the cat sits on the mat"), cls.embed("the cat sits on the mat"));
      assertEquals(1.0, cls.embed(COOKING).norm(), 1e-5);
    }
  }

  @Test
  void intraOpThreads_oneThreadGivesTheDefaultsVectors() {
    try (DjlEmbedder oneThread =
        DjlEmbedder.bundledMiniLmBuilder().intraOpThreads(1).predictorPoolSize(1).build()) {
      assertEquals(DjlEmbedder.MINILM_INT8_ID, oneThread.modelId());
      assertTrue(oneThread.toString().contains("intraOpThreads=1"), oneThread.toString());
      for (String text : List.of(COOKING, "the cat sits on the mat", "")) {
        // Threads only change the order of float sums: the same vector up to rounding.
        assertEquals(1.0, embedder.embed(text).cosine(oneThread.embed(text)), 1e-4, text);
      }
    }
  }
}
