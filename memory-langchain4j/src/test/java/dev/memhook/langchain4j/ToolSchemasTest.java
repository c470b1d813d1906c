package dev.memhook.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.model.chat.request.json.JsonAnyOfSchema;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonBooleanSchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonNullSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** JSON Schema text to LangChain4j's {@link JsonObjectSchema}, and what cannot be expressed. */
class ToolSchemasTest {

  @Test
  void theSupportedShapes_convert_andValidationKeywordsAreDropped() {
    JsonObjectSchema schema =
        ToolSchemas.parameters(
            """
            {"type":"object","description":"args","additionalProperties":false,
             "required":["id"],
             "properties":{
               "id":{"type":"string","description":"an id","maxLength":64},
               "offset":{"type":"integer","minimum":0},
               "ids":{"type":"array","items":{"type":"string"},"maxItems":50},
               "summary":{"type":"boolean"},
               "mode":{"enum":["a","b"]},
               "either":{"anyOf":[{"type":"string"},{"type":"null"}]},
               "nullable":{"type":["integer","null"]},
               "nested":{"properties":{"x":{"type":"number"}}}}}
            """);
    assertEquals("args", schema.description());
    assertEquals(List.of("id"), schema.required());
    assertEquals(Boolean.FALSE, schema.additionalProperties());
    var p = schema.properties();
    assertEquals("an id", assertInstanceOf(JsonStringSchema.class, p.get("id")).description());
    assertInstanceOf(JsonIntegerSchema.class, p.get("offset"));
    assertInstanceOf(
        JsonStringSchema.class, assertInstanceOf(JsonArraySchema.class, p.get("ids")).items());
    assertInstanceOf(JsonBooleanSchema.class, p.get("summary"));
    assertEquals(
        List.of("a", "b"), assertInstanceOf(JsonEnumSchema.class, p.get("mode")).enumValues());
    JsonAnyOfSchema nullable = assertInstanceOf(JsonAnyOfSchema.class, p.get("nullable"));
    assertInstanceOf(JsonIntegerSchema.class, nullable.anyOf().get(0));
    assertInstanceOf(JsonNullSchema.class, nullable.anyOf().get(1));
    assertInstanceOf(JsonAnyOfSchema.class, p.get("either"));
    assertTrue(
        assertInstanceOf(JsonObjectSchema.class, p.get("nested")).properties().containsKey("x"));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"type\":\"object\",\"properties\":{\"x\":{\"oneOf\":[]}}} | oneOf",
        "{\"type\":\"object\",\"properties\":{\"x\":{\"$ref\":\"#/a\"}}} | $ref",
        "{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"array\"}}} | items",
        "{\"type\":\"object\",\"properties\":{\"x\":{\"enum\":[1,2]}}} | string values",
        "{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"}} | additionalProperties",
        "{\"type\":\"string\"} | must describe an object",
        "{\"type\":\"object\" | not valid JSON",
        "[] | must be a JSON object",
      })
  void anInexpressibleSchema_failsWithARemedyNamingTheProblem(String schema, String named) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> ToolSchemas.parameters(schema));
    assertTrue(e.getMessage().contains(named), e.getMessage());
  }

  @Test
  void aRootWithoutAType_isAnObject() {
    assertTrue(ToolSchemas.parameters("{}").properties().isEmpty());
    assertTrue(
        ToolSchemas.parameters("{\"properties\":{\"q\":{\"type\":\"string\"}}}")
            .properties()
            .containsKey("q"));
  }
}
