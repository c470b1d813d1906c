package dev.memhook.benchmarks.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A retrieval-evaluation data set in the neutral JSONL format: one JSON object a line, either a
 * memory ({@code "type":"memory"}: conv, id, session, speaker, time, text, optional image_caption)
 * or a query ({@code "type":"query"}: conv, id, text, relevant ids, category, category_name,
 * optional time). Blank lines are skipped; anything else malformed fails with the line number.
 *
 * @param memories the memories, in file order
 * @param queries the queries, in file order
 */
public record EvalData(List<EvalMemory> memories, List<EvalQuery> queries) {

  /** Copies the lists. */
  public EvalData {
    memories = List.copyOf(memories);
    queries = List.copyOf(queries);
  }

  /**
   * One memory of a conversation.
   *
   * @param conv the conversation id
   * @param id the memory id, unique in the file
   * @param session the session it was said in, or null
   * @param speaker who said it, or null
   * @param time when, as written in the file (for example {@code 1:56 pm on 8 May, 2023}), or null
   * @param text what was said
   * @param imageCaption the caption of a shared image, or null
   */
  public record EvalMemory(
      String conv,
      String id,
      String session,
      String speaker,
      String time,
      String text,
      String imageCaption) {
    /** Validates the required fields. */
    public EvalMemory {
      Objects.requireNonNull(conv, "conv");
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(text, "text");
    }
  }

  /**
   * One question about a conversation.
   *
   * @param conv the conversation id
   * @param id the query id
   * @param text the question
   * @param relevant the ids of the memories that hold its evidence
   * @param category the category number (0 when absent)
   * @param categoryName the category's name (the number as text when absent)
   * @param time when the question is asked, as written in the file (LongMemEval's question date),
   *     or null
   */
  public record EvalQuery(
      String conv,
      String id,
      String text,
      List<String> relevant,
      int category,
      String categoryName,
      String time) {
    /** Validates and copies. */
    public EvalQuery {
      Objects.requireNonNull(conv, "conv");
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(text, "text");
      relevant = List.copyOf(relevant);
      Objects.requireNonNull(categoryName, "categoryName");
    }
  }

  /** The conversation ids, in order of first appearance. */
  public List<String> conversations() {
    Set<String> out = new LinkedHashSet<>();
    memories.forEach(m -> out.add(m.conv()));
    queries.forEach(q -> out.add(q.conv()));
    return List.copyOf(out);
  }

  /**
   * Reads a file.
   *
   * @throws IOException if it cannot be read
   * @throws IllegalArgumentException if a line is malformed (the message names the line)
   */
  public static EvalData load(Path file) throws IOException {
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      return parse(in);
    }
  }

  /** Reads JSONL from {@code in}; see {@link #load}. */
  public static EvalData parse(Reader in) throws IOException {
    ObjectMapper mapper = new ObjectMapper();
    BufferedReader lines = in instanceof BufferedReader b ? b : new BufferedReader(in);
    List<EvalMemory> memories = new ArrayList<>();
    List<EvalQuery> queries = new ArrayList<>();
    String line;
    int number = 0;
    while ((line = lines.readLine()) != null) {
      number++;
      if (line.isBlank()) {
        continue;
      }
      try {
        JsonNode node = mapper.readTree(line);
        String type = required(node, "type");
        switch (type) {
          case "memory" ->
              memories.add(
                  new EvalMemory(
                      required(node, "conv"),
                      required(node, "id"),
                      optional(node, "session"),
                      optional(node, "speaker"),
                      optional(node, "time"),
                      required(node, "text"),
                      optional(node, "image_caption")));
          case "query" -> {
            JsonNode relevant = node.get("relevant");
            if (relevant == null || !relevant.isArray()) {
              throw new IllegalArgumentException("'relevant' must be an array of ids");
            }
            List<String> ids = new ArrayList<>();
            relevant.forEach(r -> ids.add(r.asText()));
            int category = node.hasNonNull("category") ? node.get("category").asInt() : 0;
            String name = optional(node, "category_name");
            queries.add(
                new EvalQuery(
                    required(node, "conv"),
                    required(node, "id"),
                    required(node, "text"),
                    ids,
                    category,
                    name != null ? name : Integer.toString(category),
                    optional(node, "time")));
          }
          default ->
              throw new IllegalArgumentException(
                  "unknown type '" + type + "' (expected memory or query)");
        }
      } catch (IOException | RuntimeException e) {
        throw new IllegalArgumentException("line " + number + ": " + e.getMessage(), e);
      }
    }
    return new EvalData(memories, queries);
  }

  private static String required(JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull() || value.isContainerNode()) {
      throw new IllegalArgumentException("missing or non-scalar field '" + field + "'");
    }
    return value.asText();
  }

  private static String optional(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? null : value.asText();
  }
}
