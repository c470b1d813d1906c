package dev.memhook.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.memhook.api.ForgetMode;
import dev.memhook.api.ForgetRecord;
import dev.memhook.api.Memory;
import dev.memhook.api.MemoryDraft;
import dev.memhook.api.MemoryException;
import dev.memhook.api.MemoryId;
import dev.memhook.api.MemoryService;
import dev.memhook.api.MemoryType;
import dev.memhook.api.Origin;
import dev.memhook.api.RecallQuery;
import dev.memhook.api.RecalledMemory;
import dev.memhook.api.Scope;
import dev.memhook.api.ScopedMemory;
import dev.memhook.api.capture.ObserveResult;
import dev.memhook.api.capture.Session;
import dev.memhook.core.internal.inject.excerpt.Excerpts;
import dev.memhook.core.internal.recall.words.QueryWords;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpStatelessServerFeatures;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The memory tools Memhook serves over MCP, defined once for both transports: {@code memhook mcp}
 * binds them to the one scope it was started for ({@link #boundTo}), and {@code memhook serve}'s
 * {@code /mcp} endpoint to the scope each request names ({@link #perRequest}, the scope read from
 * the request's {@link McpTransportContext} under {@link #SCOPE_KEY}), so one server serves every
 * project. Either way a call works in exactly one scope: the model names no scope it could escape
 * to (a {@code scope} argument, where accepted, must be the bound one), and reads, forgets and
 * recalls go through {@link MemoryService#scoped}. Every failure, a malformed argument or the
 * store's, is answered as an MCP tool error ({@code isError: true}) whose text says what was wrong;
 * nothing reaches the server's loop. Thread-safe as the service is.
 */
final class McpTools {
  static final int MAX_IDS = 20;
  static final int MAX_RECALL = 20;

  /** The longest {@code focus} get_memory takes, as the chat hook's tool. */
  static final int MAX_FOCUS = 1_000;

  /** The values of {@code memory_forget}'s {@code sources} argument. */
  static final String SOURCES_FORGET = "forget";

  static final String SOURCES_KEEP = "keep";

  private static final List<String> TYPES =
      Arrays.stream(MemoryType.values()).map(JsonRecords::lower).toList();

  /**
   * The key of the {@link Scope} in a request's {@link McpTransportContext}, which the HTTP
   * transport puts there from the request's {@code ?scope=}.
   */
  static final String SCOPE_KEY = "memhook.scope";

  /** A tool's handler: what it answers for its arguments, working in {@code scope} only. */
  @FunctionalInterface
  private interface Handler {
    CallToolResult call(Scope scope, ToolArguments arguments);
  }

  /** A tool and the handler that answers it. */
  private record Definition(Tool tool, Handler handler) {}

  private final MemoryService memory;

  /** The tools over {@code memory}, which stays the caller's. */
  McpTools(MemoryService memory) {
    this.memory = Objects.requireNonNull(memory, "memory");
  }

  /** The tools for a server of one scope: every call works in {@code scope}. */
  List<McpServerFeatures.SyncToolSpecification> boundTo(Scope scope) {
    Objects.requireNonNull(scope, "scope");
    return definitions().stream()
        .map(
            d ->
                McpServerFeatures.SyncToolSpecification.builder()
                    .tool(d.tool())
                    .callHandler((exchange, request) -> call(d, scope, request))
                    .build())
        .toList();
  }

  /**
   * The tools for a stateless server serving many scopes: each call works in the scope its
   * transport context holds under {@link #SCOPE_KEY}; a call without one is a tool error.
   */
  List<McpStatelessServerFeatures.SyncToolSpecification> perRequest() {
    return definitions().stream()
        .map(
            d ->
                McpStatelessServerFeatures.SyncToolSpecification.builder()
                    .tool(d.tool())
                    .callHandler(
                        (context, request) ->
                            context != null && context.get(SCOPE_KEY) instanceof Scope scope
                                ? call(d, scope, request)
                                : error("the request names no scope; nothing was done"))
                    .build())
        .toList();
  }

  /** A transport context that binds a request's tool calls to {@code scope}. */
  static McpTransportContext context(Scope scope) {
    return McpTransportContext.create(Map.of(SCOPE_KEY, Objects.requireNonNull(scope, "scope")));
  }

  /** The server's instructions to the model, naming the project it works in as {@code project}. */
  static String instructions(String project) {
    return "Long-term memory of "
        + project
        + ": recall what earlier sessions learnt before answering, fetch a memory in full with"
        + " get_memory, remember decisions and preferences.";
  }

  private List<Definition> definitions() {
    Map<String, Object> stringArray = Map.of("type", "array", "items", Map.of("type", "string"));
    return List.of(
        tool(
            "memory_recall",
            "Recall the memories of this project that matter for a question or task, best first:"
                + " id, type, title and summary of each, and an excerpt where the query's words"
                + " are further in. Fetch one in full with get_memory.",
            new ToolSchema()
                .required("query", "string", "What to recall for: a question, a task, an error.")
                .optional(
                    "limit", "integer", "At most this many, 1-" + MAX_RECALL + "; 5 if omitted.")
                .optional(
                    "scope", "string", "Optional; must be the scope this server is bound to."),
            this::recall),
        tool(
            "get_memory",
            "Return memories in full by id (from memory_recall or injected context); with"
                + " summary=true only their summaries. Ids of other projects are not found.",
            new ToolSchema()
                .required(
                    "ids", withDescription(stringArray, "Memory ids, at most " + MAX_IDS + "."))
                .optional("summary", "boolean", "Only the summaries; false if omitted.")
                .optional(
                    "focus",
                    "string",
                    "With summary=true: words to find in each memory; its summary comes with the"
                        + " excerpt that holds them. At most "
                        + MAX_FOCUS
                        + " characters."),
            this::get),
        tool(
            "memory_remember",
            "Remember something durable about this project or its user: a decision, a preference,"
                + " a fact, a fix. Returns the new memory's id.",
            new ToolSchema()
                .required("content", "string", "The full text to remember.")
                .optional("title", "string", "A short title; derived if omitted.")
                .optional("summary", "string", "A one-line summary; derived if omitted.")
                .optional(
                    "type",
                    Map.of(
                        "type",
                        "string",
                        "enum",
                        TYPES,
                        "description",
                        "What kind of knowledge it is; fact if omitted."))
                .optional("concepts", withDescription(stringArray, "Concept tags."))
                .optional("files", withDescription(stringArray, "File paths it is about."))
                .optional("importance", "number", "From 0 to 1; 0.5 if omitted."),
            this::remember),
        tool(
            "memory_forget",
            "Forget a memory of this project by id, with its older versions; leaves an audit"
                + " record of who asked and why, and returns every id removed. A memory made"
                + " from captured observations needs 'sources': without it, nothing is"
                + " forgotten and the answer says how many observations there are; ask the user"
                + " whether they go too, then call again with \"forget\" or \"keep\".",
            new ToolSchema()
                .required("id", "string", "The memory's id.")
                .optional("reason", "string", "Why it should be forgotten.")
                .optional(
                    "sources",
                    Map.of(
                        "type",
                        "string",
                        "enum",
                        List.of(SOURCES_FORGET, SOURCES_KEEP),
                        "description",
                        "For a memory made from captured observations: \"forget\" removes them"
                            + " too, so the same sentence is not recalled again; \"keep\""
                            + " removes the memory only. Ignored when it has none.")),
            this::forget),
        tool(
            "memory_sessions",
            "The captured sessions of this project, most recent first: id, status, times, first"
                + " prompt and summary.",
            new ToolSchema()
                .optional("limit", "integer", "At most this many, 1-100; 10 if omitted."),
            this::sessions),
        tool(
            "memory_observe",
            "Capture a lifecycle event of a coding session (a hook payload in Claude Code's"
                + " format, or Memhook's own event JSON) into this project's memory.",
            new ToolSchema().required("event", "object", "The event object."),
            this::observe));
  }

  private CallToolResult recall(Scope scope, ToolArguments a) {
    String asked = a.string("scope", null);
    if (asked != null && !asked.equals(scope.value())) {
      throw new IllegalArgumentException(
          "this server is bound to scope " + scope + "; it cannot recall from " + asked);
    }
    ScopedMemory scoped = memory.scoped(scope);
    RecallQuery q =
        new RecallQuery(scope, a.requiredString("query"), a.integer("limit", 5, 1, MAX_RECALL));
    List<String> terms = QueryWords.terms(QueryWords.focus(List.of(q.text())));
    ObjectNode out = JsonRecords.MAPPER.createObjectNode();
    ArrayNode list = out.putArray("memories");
    for (RecalledMemory r : scoped.recall(q).memories()) {
      summaryEntry(list, r.id().value(), r.memory(), terms).put("score", r.score());
    }
    return ok(out);
  }

  private CallToolResult get(Scope scope, ToolArguments a) {
    ScopedMemory scoped = memory.scoped(scope);
    List<String> ids = a.strings("ids", MAX_IDS);
    if (ids.isEmpty()) {
      throw new IllegalArgumentException("'ids' is required and must hold at least one id");
    }
    boolean summaryOnly = a.bool("summary", false);
    String focus = a.string("focus", "");
    if (focus.length() > MAX_FOCUS) {
      throw new IllegalArgumentException("'focus' must be at most " + MAX_FOCUS + " characters");
    }
    if (!focus.isEmpty() && !summaryOnly) {
      throw new IllegalArgumentException("'focus' applies with summary=true only");
    }
    List<String> terms = QueryWords.terms(focus);
    ObjectNode out = JsonRecords.MAPPER.createObjectNode();
    ArrayNode found = out.putArray("memories");
    ArrayNode notFound = out.putArray("notFound");
    for (String text : ids) {
      Optional<Memory> m =
          MemoryId.isValid(text) ? scoped.get(MemoryId.of(text)) : Optional.empty();
      if (m.isEmpty()) {
        notFound.add(text);
        continue;
      }
      ObjectNode o = summaryEntry(found, text, m.get(), terms);
      if (!summaryOnly) {
        o.put("content", m.get().content()).put("createdAt", m.get().createdAt().toString());
      }
    }
    return ok(out);
  }

  /**
   * Adds {@code m}'s entry to {@code list} as both tools show it: id, type, title, summary, and the
   * excerpt for {@code terms} when it has one ({@link Excerpts}).
   */
  private static ObjectNode summaryEntry(ArrayNode list, String id, Memory m, List<String> terms) {
    ObjectNode entry =
        list.addObject()
            .put("id", id)
            .put("type", JsonRecords.lower(m.type()))
            .put("title", m.title())
            .put("summary", m.summary());
    String excerpt = Excerpts.of(m, terms);
    if (!excerpt.isEmpty()) {
      entry.put("excerpt", excerpt);
    }
    return entry;
  }

  private CallToolResult remember(Scope scope, ToolArguments a) {
    ScopedMemory scoped = memory.scoped(scope);
    String type = a.string("type", "fact");
    MemoryType t;
    try {
      t = MemoryType.valueOf(type.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("'type' must be one of " + TYPES + ", got " + type);
    }
    Memory m =
        scoped.remember(
            MemoryDraft.builder(scope, a.requiredString("content"))
                .type(t)
                .title(a.string("title", ""))
                .summary(a.string("summary", ""))
                .concepts(a.strings("concepts", MemoryDraft.MAX_CONCEPTS))
                .files(a.strings("files", MemoryDraft.MAX_FILES))
                .importance(a.number("importance", 0.5, 0, 1))
                .origin(Origin.agent())
                .build());
    ObjectNode out = JsonRecords.MAPPER.createObjectNode();
    out.put("id", m.id().value()).put("title", m.title()).put("summary", m.summary());
    return ok(out);
  }

  private CallToolResult forget(Scope scope, ToolArguments a) {
    ScopedMemory scoped = memory.scoped(scope);
    String id = a.requiredString("id");
    String choice = a.string("sources", null);
    if (choice != null && !choice.equals(SOURCES_FORGET) && !choice.equals(SOURCES_KEEP)) {
      throw new IllegalArgumentException(
          "'sources' must be \"" + SOURCES_FORGET + "\" or \"" + SOURCES_KEEP + "\"");
    }
    if (!MemoryId.isValid(id) || scoped.get(MemoryId.of(id)).isEmpty()) {
      throw new IllegalArgumentException("no memory with id " + id + " in this project");
    }
    MemoryId memoryId = MemoryId.of(id);
    int sources = scoped.sources(memoryId).size();
    ObjectNode out = JsonRecords.MAPPER.createObjectNode();
    if (sources > 0 && choice == null) {
      out.putArray("forgotten");
      out.put("sourceCount", sources);
      out.put(
          "message",
          "nothing was forgotten: memory "
              + id
              + " was made from "
              + sources
              + (sources == 1 ? " observation" : " observations")
              + " of this project. Ask the user whether to forget "
              + (sources == 1 ? "it" : "them")
              + " too, then call memory_forget again with sources: \""
              + SOURCES_FORGET
              + "\" (the memory and its observations, so the same sentence is not recalled"
              + " again) or \""
              + SOURCES_KEEP
              + "\" (the memory only).");
      return ok(out);
    }
    ForgetMode mode =
        SOURCES_KEEP.equals(choice) ? ForgetMode.MEMORY_ONLY : ForgetMode.WITH_SOURCES;
    List<ForgetRecord> records =
        scoped.forget(memoryId, "mcp", a.string("reason", "asked by the model"), mode);
    if (records.isEmpty()) {
      throw new IllegalArgumentException("no memory with id " + id + " in this project");
    }
    ArrayNode removed = out.putArray("forgotten");
    records.forEach(r -> removed.add(r.id().value()));
    out.put("sourceCount", sources);
    out.put("sourcesKept", mode == ForgetMode.MEMORY_ONLY && sources > 0);
    return ok(out);
  }

  private CallToolResult sessions(Scope scope, ToolArguments a) {
    int limit = a.integer("limit", 10, 1, 100);
    ObjectNode out = JsonRecords.MAPPER.createObjectNode();
    ArrayNode list = out.putArray("sessions");
    for (Session s : memory.capture().sessions()) {
      if (!s.scope().equals(scope) || list.size() >= limit) {
        continue;
      }
      list.addObject()
          .put("id", s.id())
          .put("project", s.project())
          .put("status", JsonRecords.lower(s.status()))
          .put("startedAt", s.startedAt().toString())
          .put("lastEventAt", s.lastEventAt().toString())
          .put("observations", s.observationCount())
          .put("firstPrompt", s.firstPrompt())
          .put("summary", s.summary());
    }
    return ok(out);
  }

  private CallToolResult observe(Scope scope, ToolArguments a) {
    if (!(a.raw("event") instanceof Map<?, ?> event)) {
      throw new IllegalArgumentException("'event' is required and must be an object");
    }
    JsonNode payload = JsonRecords.MAPPER.valueToTree(event);
    HookPayload.Prepared p = HookPayload.prepare(payload, Instant.now());
    if (p.event().isEmpty()) {
      throw new IllegalArgumentException(p.wireName() + " carries no assistant message");
    }
    ObserveResult result = memory.capture().observeJson(p.event().get().toString(), scope);
    ObjectNode out = JsonRecords.MAPPER.createObjectNode();
    out.put("result", JsonRecords.lower(result));
    return ok(out);
  }

  private static Definition tool(
      String name, String description, ToolSchema schema, Handler handler) {
    return new Definition(
        Tool.builder(name, schema.toMap()).description(description).build(), handler);
  }

  private static CallToolResult call(Definition d, Scope scope, CallToolRequest request) {
    try {
      return d.handler().call(scope, new ToolArguments(request.arguments()));
    } catch (IllegalArgumentException | IllegalStateException | MemoryException e) {
      return error(e.getMessage());
    } catch (RuntimeException e) {
      return error(e.getClass().getSimpleName() + ": " + e.getMessage());
    }
  }

  private static Map<String, Object> withDescription(Map<String, Object> schema, String text) {
    Map<String, Object> out = new LinkedHashMap<>(schema);
    out.put("description", text);
    return out;
  }

  private static CallToolResult ok(ObjectNode out) {
    return CallToolResult.builder().addTextContent(out.toString()).isError(false).build();
  }

  private static CallToolResult error(String message) {
    return CallToolResult.builder().addTextContent(message).isError(true).build();
  }
}
