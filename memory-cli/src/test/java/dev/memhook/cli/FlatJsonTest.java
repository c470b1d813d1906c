package dev.memhook.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memhook.testkit.Seeds;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link FlatJson} against Jackson, both ways, on random objects of the shapes it reads. */
class FlatJsonTest {

  static LongStream seeds() {
    return Seeds.seeds(200);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void whatItWrites_jacksonReads_andWhatJacksonWrites_itReads(long seed) throws Exception {
    SplittableRandom random = new SplittableRandom(seed);
    Map<String, Object> members = new LinkedHashMap<>();
    int n = random.nextInt(6);
    for (int i = 0; i < n; i++) {
      String key = text(random) + i; // distinct keys
      members.put(
          key,
          switch (random.nextInt(4)) {
            case 0 -> text(random);
            case 1 -> random.nextLong();
            case 2 -> random.nextBoolean();
            default -> {
              List<String> list = new ArrayList<>();
              for (int j = random.nextInt(4); j > 0; j--) {
                list.add(text(random));
              }
              yield list;
            }
          });
    }

    JsonNode read = JsonRecords.MAPPER.readTree(FlatJson.write(members));
    assertEquals(jackson(members), read, Seeds.replay(seed));
    assertEquals(
        members,
        FlatJson.read(JsonRecords.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(read)),
        Seeds.replay(seed));
  }

  @Test
  void nullMembers_areLeftOut_bothWays() {
    Map<String, Object> withNull = new LinkedHashMap<>();
    withNull.put("a", null);
    withNull.put("b", 1L);
    assertEquals("{\"b\":1}", FlatJson.write(withNull));
    assertEquals(Map.of("b", 1L), FlatJson.read("{\"a\":null,\"b\":1}"));
  }

  @Test
  void anythingButOneFlatObject_isRefused() {
    for (String bad :
        List.of(
            "",
            "[]",
            "{\"a\":{}}",
            "{\"a\":1.5}",
            "{\"a\":[1]}",
            "{\"a\":\"x}",
            "{\"a\":\"\\q\"}",
            "{\"a\":1} x",
            "{\"a\" 1}",
            "{\"a\":1,}",
            "{\"a\":\"\u0001\"}")) {
      assertThrows(IllegalArgumentException.class, () -> FlatJson.read(bad), bad);
    }
  }

  private static ObjectNode jackson(Map<String, Object> members) {
    ObjectNode n = JsonRecords.MAPPER.createObjectNode();
    members.forEach(
        (k, v) -> {
          if (v instanceof String s) {
            n.put(k, s);
          } else if (v instanceof Long l) {
            n.put(k, l);
          } else if (v instanceof Boolean b) {
            n.put(k, b);
          } else {
            ArrayNode array = n.putArray(k);
            ((List<?>) v).forEach(e -> array.add((String) e));
          }
        });
    return n;
  }

  /** Text with quotes, backslashes, control characters, non-ASCII and surrogate pairs. */
  private static String text(SplittableRandom random) {
    String[] pieces = {
      "a", "Z", " ", "\"", "\\", "/", "\n", "\t", "\u0000", "\u001f", "é", "€", "😀", "\u2028"
    };
    StringBuilder b = new StringBuilder();
    for (int i = random.nextInt(12); i > 0; i--) {
      b.append(pieces[random.nextInt(pieces.length)]);
    }
    return b.toString();
  }
}
