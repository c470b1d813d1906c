package dev.memhook.springai.autoconfigure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.BeanWrapperImpl;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.Ordered;

/**
 * The generated {@code META-INF/spring-configuration-metadata.json}, which IDEs complete {@code
 * memhook.*} from, against the properties object and the module README's table: every property is
 * described in plain text, carries the default an empty configuration gets, and the README states
 * the same defaults for the same properties.
 */
class ConfigurationMetadataTest {

  private static final String METADATA = "META-INF/spring-configuration-metadata.json";
  private static final Pattern README_ROW =
      Pattern.compile("^\\| (`memhook\\.[^|]+) \\| ([^|]+) \\|", Pattern.MULTILINE);

  /** Each property's metadata entry, by name. */
  private static Map<String, JsonNode> properties;

  @BeforeAll
  static void readMetadata() throws Exception {
    JsonNode root;
    try (InputStream in =
        ConfigurationMetadataTest.class.getClassLoader().getResourceAsStream(METADATA)) {
      assertNotNull(in, METADATA + " is generated into the module's classes");
      root = new ObjectMapper().readTree(in);
    }
    properties = new TreeMap<>();
    root.get("properties").forEach(p -> properties.put(p.get("name").asText(), p));
    assertTrue(properties.size() > 20, "the memhook.* properties: " + properties.keySet());
  }

  @Test
  void everyProperty_hasAPlainTextDescription() {
    for (JsonNode p : properties.values()) {
      String description = p.path("description").asText("");
      assertFalse(description.isBlank(), p.toString());
      assertFalse(description.contains("{@"), "a raw Javadoc tag: " + p);
      assertFalse(description.contains("<"), "raw HTML: " + p);
    }
  }

  @Test
  void everyDefault_isWhatAnEmptyConfigurationGets() {
    BeanWrapperImpl defaults = new BeanWrapperImpl(new MemhookProperties());
    for (JsonNode p : properties.values()) {
      String name = p.get("name").asText();
      Object actual = defaults.getPropertyValue(beanPath(name));
      JsonNode stated = p.get("defaultValue");
      if (actual == null) {
        assertNull(stated, name + " has no default");
      } else {
        assertNotNull(stated, name + " states its default " + actual);
        assertEquals(canonical(actual), canonical(stated, actual.getClass()), name);
      }
    }
  }

  @Test
  void theReadmesTable_namesEveryProperty_withTheMetadatasDefault() throws Exception {
    Map<String, String> readme = readmeDefaults();

    assertEquals(properties.keySet(), readme.keySet(), "the README's table and the metadata");
    BeanWrapperImpl defaults = new BeanWrapperImpl(new MemhookProperties());
    for (Map.Entry<String, String> row : readme.entrySet()) {
      String name = row.getKey();
      JsonNode stated = properties.get(name).get("defaultValue");
      Object actual = defaults.getPropertyValue(beanPath(name));
      if (stated == null) {
        assertFalse(row.getValue().startsWith("`"), name + ": no literal default in the README");
      } else {
        assertEquals(
            canonical(stated, actual.getClass()),
            canonical(readmeValue(row.getValue()), actual.getClass()),
            name + " in the README");
      }
    }
  }

  /** {@code memhook.recall.gate.min-cosine} as the bean path {@code recall.gate.minCosine}. */
  private static String beanPath(String property) {
    Matcher dash = Pattern.compile("-([a-z])").matcher(property.substring("memhook.".length()));
    StringBuilder out = new StringBuilder();
    while (dash.find()) {
      dash.appendReplacement(out, dash.group(1).toUpperCase(Locale.ROOT));
    }
    return dash.appendTail(out).toString();
  }

  /** A value in one comparable form: durations, enums and lists as Boot's binder reads them. */
  private static String canonical(Object value) {
    if (value instanceof Enum<?> e) {
      return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
    if (value instanceof List<?> list) {
      return String.join(",", list.stream().map(String::valueOf).toList());
    }
    if (value instanceof Number n) {
      return Double.toString(n.doubleValue());
    }
    return value.toString();
  }

  private static String canonical(JsonNode node, Class<?> type) {
    if (node.isArray()) {
      List<String> items = new ArrayList<>();
      node.forEach(n -> items.add(n.asText()));
      return String.join(",", items);
    }
    return canonical(node.asText(), type);
  }

  private static String canonical(String text, Class<?> type) {
    if (Duration.class.isAssignableFrom(type)) {
      return DurationStyle.detectAndParse(text).toString();
    }
    if (type == Integer.class || type == Double.class) {
      return Double.toString(Double.parseDouble(text));
    }
    return text;
  }

  /** A README default cell's literal: {@code `2s`} is 2s; Ordered names are evaluated. */
  private static String readmeValue(String cell) {
    String literal = cell.replace("`", "").strip();
    Matcher order = Pattern.compile("HIGHEST_PRECEDENCE \\+ (\\d+)").matcher(literal);
    if (order.matches()) {
      return Integer.toString(Ordered.HIGHEST_PRECEDENCE + Integer.parseInt(order.group(1)));
    }
    return literal;
  }

  /**
   * The README's property table as property name to default cell; a row naming several properties
   * ({@code memhook.a.b} / {@code c}) gives each its own cell of a default row split the same way.
   */
  private static Map<String, String> readmeDefaults() throws Exception {
    String readme = Files.readString(Path.of("README.md"), StandardCharsets.UTF_8);
    Map<String, String> out = new TreeMap<>();
    Matcher row = README_ROW.matcher(readme);
    while (row.find()) {
      String[] names = row.group(1).split(" / ");
      String[] values = row.group(2).strip().split(" / ");
      String first = names[0].replace("`", "").strip();
      String group = first.substring(0, first.lastIndexOf('.') + 1);
      for (int i = 0; i < names.length; i++) {
        String name = names[i].replace("`", "").strip();
        String value = values.length == names.length ? values[i] : values[0];
        out.put(i == 0 ? name : group + name, value.strip());
      }
    }
    return out;
  }
}
