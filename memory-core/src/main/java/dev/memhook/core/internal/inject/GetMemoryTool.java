package dev.memhook.core.internal.inject;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryId;
import dev.memhook.api.Scope;
import dev.memhook.api.chat.ToolCall;
import dev.memhook.api.chat.ToolDefinition;
import dev.memhook.api.chat.ToolHandler;
import dev.memhook.api.chat.ToolResult;
import dev.memhook.api.spi.MemoryStore;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code get_memory} tool, bound to one scope. Every rule about what the model may ask for and
 * what it gets back lives here:
 *
 * <ul>
 *   <li>{@code {"id": "…"}} returns the full memory as one JSON object;
 *   <li>{@code {"ids": ["…", …], "summary": true}} returns {@code [{"id", "summary"}, …]} in one
 *       result, at most {@value #MAX_SUMMARY_IDS} ids; without {@code summary: true} the full
 *       memories, at most {@value #MAX_FULL_IDS};
 *   <li>an id that is unknown, forgotten or of another scope is reported as {@code {"id": "…",
 *       "error": "not_found"}} inside a batch, or as a {@code not_found} error for a single fetch,
 *       so the model cannot probe other scopes;
 *   <li>wrong argument types, an empty or oversized list, both or neither of {@code id} and {@code
 *       ids} give a structured error {@code {"error": {"code", "message"}}}. Nothing is thrown into
 *       the host: even a store failure becomes a {@code store_unavailable} error.
 * </ul>
 *
 * <p>Thread-safe.
 */
public final class GetMemoryTool implements ToolHandler {

  /** The tool's name. */
  public static final String NAME = "get_memory";

  /** The most ids one summary request may name. */
  public static final int MAX_SUMMARY_IDS = 50;

  /** The most ids one full-content request may name. */
  public static final int MAX_FULL_IDS = 10;

  private static final Logger LOG = LoggerFactory.getLogger(GetMemoryTool.class);
  static final ObjectMapper JSON = new ObjectMapper();

  /** What the model is told. */
  public static final ToolDefinition DEFINITION =
      new ToolDefinition(
          NAME,
          "Fetch long-term memories by id. Pass {\"id\": ID} for one memory in full, or "
              + "{\"ids\": [ID, ...], \"summary\": true} for short summaries of several (at most "
              + MAX_SUMMARY_IDS
              + ").",
          "{\"type\":\"object\",\"properties\":{"
              + "\"id\":{\"type\":\"string\",\"description\":\"one memory id, returns its full content\"},"
              + "\"ids\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"maxItems\":"
              + MAX_SUMMARY_IDS
              + "},"
              + "\"summary\":{\"type\":\"boolean\",\"description\":\"with ids: return summaries only\"}},"
              + "\"additionalProperties\":false}");

  private final MemoryStore store;
  private final Scope scope;

  public GetMemoryTool(MemoryStore store, Scope scope) {
    this.store = Objects.requireNonNull(store, "store");
    this.scope = Objects.requireNonNull(scope, "scope");
  }

  @Override
  public CompletionStage<ToolResult> execute(ToolCall call) {
    try {
      return CompletableFuture.completedFuture(answer(call.arguments()));
    } catch (RuntimeException e) {
      LOG.warn("get_memory failed for arguments {}", call.arguments(), e);
      return CompletableFuture.completedFuture(
          error(
              "store_unavailable",
              "memory could not be read right now: " + e.getClass().getSimpleName()));
    }
  }

  /** The result for {@code args}; never throws for bad arguments. */
  ToolResult answer(Map<String, Object> args) {
    boolean hasId = args.containsKey("id");
    boolean hasIds = args.containsKey("ids");
    for (String key : args.keySet()) {
      if (!key.equals("id") && !key.equals("ids") && !key.equals("summary")) {
        return error(
            "invalid_arguments",
            "unknown argument '" + abbreviate(key) + "'; expected id, or ids and summary");
      }
    }
    if (hasId == hasIds) {
      return error(
          "invalid_arguments",
          hasId ? "pass either id or ids, not both" : "missing argument: pass id or ids");
    }
    Object summaryArg = args.get("summary");
    if (summaryArg != null && !(summaryArg instanceof Boolean)) {
      return error("invalid_arguments", "summary must be a boolean");
    }
    boolean summary = Boolean.TRUE.equals(summaryArg);
    if (hasId) {
      if (summaryArg != null) {
        return error("invalid_arguments", "summary applies to ids only");
      }
      Object id = args.get("id");
      if (!(id instanceof String s) || !MemoryId.isValid(s)) {
        return error("invalid_arguments", "id must be a memory id string");
      }
      return store
          .get(MemoryId.of(s))
          .filter(m -> m.scope().equals(scope))
          .map(m -> success(full(m)))
          .orElseGet(() -> error("not_found", "no memory with id " + s));
    }
    Object idsArg = args.get("ids");
    if (!(idsArg instanceof List<?> list)) {
      return error("invalid_arguments", "ids must be a list of memory id strings");
    }
    if (list.isEmpty()) {
      return error("invalid_arguments", "ids must not be empty");
    }
    int max = summary ? MAX_SUMMARY_IDS : MAX_FULL_IDS;
    if (list.size() > max) {
      return error(
          "too_many_ids",
          "at most "
              + max
              + " ids per call"
              + (summary ? "" : " without summary")
              + ", got "
              + list.size());
    }
    LinkedHashSet<MemoryId> ids = new LinkedHashSet<>();
    for (Object o : list) {
      if (!(o instanceof String s) || !MemoryId.isValid(s)) {
        return error(
            "invalid_arguments",
            "every entry of ids must be a memory id string, got "
                + (o == null
                    ? "null"
                    : o instanceof String s2
                        ? "'" + abbreviate(s2) + "'"
                        : o.getClass().getSimpleName()));
      }
      ids.add(MemoryId.of(s));
    }
    Map<MemoryId, Memory> found = store.getAll(new ArrayList<>(ids));
    ArrayNode out = JSON.createArrayNode();
    for (MemoryId id : ids) {
      Memory m = found.get(id);
      if (m == null || !m.scope().equals(scope)) {
        out.addObject().put("id", id.value()).put("error", "not_found");
      } else if (summary) {
        out.addObject().put("id", id.value()).put("summary", m.summary());
      } else {
        out.add(full(m));
      }
    }
    return success(out);
  }

  /** The summary result for already-fetched memories, as injected by a hook. */
  static String summaries(List<Memory> memories) {
    ArrayNode out = JSON.createArrayNode();
    for (Memory m : memories) {
      out.addObject().put("id", m.id().value()).put("summary", m.summary());
    }
    return out.toString();
  }

  static ObjectNode full(Memory m) {
    ObjectNode o = JSON.createObjectNode();
    o.put("id", m.id().value());
    o.put("type", m.type().name().toLowerCase(java.util.Locale.ROOT));
    o.put("title", m.title());
    o.put("summary", m.summary());
    o.put("content", m.content());
    m.concepts().forEach(o.putArray("concepts")::add);
    m.files().forEach(o.putArray("files")::add);
    if (m.sourceSession() != null) {
      o.put("session", m.sourceSession());
    }
    o.put("origin", m.origin().toString());
    o.put("occurredAt", m.occurredAt().toString());
    o.put("version", m.version());
    o.put("latest", m.latest());
    if (m.supersedes() != null) {
      o.put("supersedes", m.supersedes().value());
    }
    if (!m.attributes().isEmpty()) {
      ObjectNode attrs = o.putObject("attributes");
      m.attributes().forEach(attrs::put);
    }
    return o;
  }

  private static ToolResult success(Object node) {
    try {
      return ToolResult.success(JSON.writeValueAsString(node));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("could not render a tool result", e);
    }
  }

  static ToolResult error(String code, String message) {
    ObjectNode root = JSON.createObjectNode();
    root.putObject("error").put("code", code).put("message", message);
    return ToolResult.failure(root.toString());
  }

  private static String abbreviate(String s) {
    return s.length() <= 40 ? s : s.substring(0, 40) + "…";
  }
}
