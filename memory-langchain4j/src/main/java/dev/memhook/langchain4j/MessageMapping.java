package dev.memhook.langchain4j;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.chat.MessageOrigin;
import dev.memhook.api.chat.ToolCall;
import dev.memhook.api.chat.ToolResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Function;

/**
 * Translates between LangChain4j messages and Memhook {@link ChatMessage}s, and between tool
 * arguments as a map and as the JSON text LangChain4j carries.
 *
 * <p>One LangChain4j {@link AiMessage} becomes up to three kinds of Memhook message, in this order:
 * its {@code thinking()} as {@link ChatRole#REASONING}, its text as {@link ChatRole#ASSISTANT}, and
 * one {@link ChatRole#TOOL_CALL} per tool execution request. Messages this module injects carry the
 * attribute {@value #ORIGIN_ATTRIBUTE} so their {@link MessageOrigin#SYNTHETIC} origin survives a
 * round trip through a chat memory that keeps attributes. Stateless and thread-safe.
 */
final class MessageMapping {

  /** The attribute that marks a message Memhook injected; its value is an origin's name. */
  static final String ORIGIN_ATTRIBUTE = "memhook_origin";

  /** The tool name a call that names no tool is kept under. */
  static final String UNKNOWN_TOOL = "unknown";

  /** Reads one JSON value and refuses text after it, which would otherwise be ignored. */
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private static final TypeReference<LinkedHashMap<String, Object>> MAP =
      new TypeReference<LinkedHashMap<String, Object>>() {};

  private MessageMapping() {}

  /**
   * The arguments as a JSON object's text.
   *
   * @throws IllegalArgumentException if a value cannot be written as JSON
   */
  static String toJson(Map<String, Object> arguments) {
    try {
      return JSON.writeValueAsString(arguments);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "tool arguments cannot be written as JSON: " + e.getOriginalMessage(), e);
    }
  }

  /**
   * The arguments of a JSON object's text; blank text is no arguments. Jackson's default limits
   * bound what is read (nesting, string and number lengths).
   *
   * @throws IllegalArgumentException if the text is not one JSON object (text after the object
   *     included), or is over a limit
   */
  static Map<String, Object> parseArguments(String json) {
    if (json == null || json.isBlank()) {
      return Map.of();
    }
    try {
      Map<String, Object> parsed = JSON.readValue(json, MAP);
      if (parsed == null) {
        throw new IllegalArgumentException("tool arguments must be a JSON object, got null");
      }
      return parsed;
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "tool arguments are not a JSON object: " + e.getOriginalMessage(), e);
    }
  }

  /**
   * The Memhook call of a model's request. A request without an id (some providers give none) gets
   * a fresh one; one that names no tool is kept under {@value #UNKNOWN_TOOL}; arguments that are
   * not a JSON object are read as none. The call's execution reports the last two to the model
   * ({@link ModelToolCalls#unreadable}).
   */
  static ToolCall toolCall(ToolExecutionRequest request) {
    String id = request.id();
    if (id == null || id.isBlank()) {
      id = "call_" + UUID.randomUUID().toString().replace("-", "");
    }
    String name = request.name();
    if (name == null || name.isBlank()) {
      name = UNKNOWN_TOOL;
    }
    Map<String, Object> arguments;
    try {
      arguments = parseArguments(request.arguments());
    } catch (IllegalArgumentException e) {
      arguments = Map.of();
    }
    return new ToolCall(id, name, arguments);
  }

  /** The LangChain4j request of a Memhook call; the ids match. */
  static ToolExecutionRequest request(ToolCall call) {
    return ToolExecutionRequest.builder()
        .id(call.id())
        .name(call.toolName())
        .arguments(toJson(call.arguments()))
        .build();
  }

  /** The LangChain4j result message answering {@code request}. */
  static ToolExecutionResultMessage resultMessage(
      ToolExecutionRequest request, ToolResult result, Map<String, Object> attributes) {
    return ToolExecutionResultMessage.builder()
        .id(request.id())
        .toolName(request.name())
        .text(result.content())
        .isError(result.error())
        .attributes(attributes)
        .build();
  }

  /** The attributes that mark an injected message. */
  static Map<String, Object> syntheticAttributes() {
    return Map.of(ORIGIN_ATTRIBUTE, MessageOrigin.SYNTHETIC.name());
  }

  /**
   * The Memhook messages of one LangChain4j message, with fresh ids.
   *
   * @param modelOrigin the origin of an AI message's parts unless it is marked as injected
   * @param callsById the calls already in the conversation, to pair a result with its call
   * @return the messages; empty for message types Memhook has no role for
   */
  static List<ChatMessage> toMemhook(
      dev.langchain4j.data.message.ChatMessage message,
      MessageOrigin modelOrigin,
      Function<String, ToolCall> callsById) {
    Objects.requireNonNull(message, "message");
    List<ChatMessage> out = new ArrayList<>(2);
    if (message instanceof UserMessage user) {
      out.add(new ChatMessage(newId(), ChatRole.USER, MessageOrigin.USER, userText(user), null));
    } else if (message instanceof SystemMessage system) {
      out.add(ChatMessage.system(system.text()));
    } else if (message instanceof AiMessage ai) {
      MessageOrigin origin = originOf(ai.attributes(), modelOrigin);
      if (ai.thinking() != null && !ai.thinking().isBlank()) {
        out.add(new ChatMessage(newId(), ChatRole.REASONING, origin, ai.thinking(), null));
      }
      boolean hasText = ai.text() != null && !ai.text().isEmpty();
      if (hasText || (!ai.hasToolExecutionRequests() && out.isEmpty())) {
        out.add(
            new ChatMessage(newId(), ChatRole.ASSISTANT, origin, hasText ? ai.text() : "", null));
      }
      for (ToolExecutionRequest request : ai.toolExecutionRequests()) {
        out.add(ChatMessage.toolCall(toolCall(request), origin));
      }
    } else if (message instanceof ToolExecutionResultMessage result) {
      ToolCall call = result.id() == null ? null : callsById.apply(result.id());
      if (call == null) {
        String id = result.id() == null || result.id().isBlank() ? "call_unknown" : result.id();
        String name =
            result.toolName() == null || result.toolName().isBlank()
                ? "unknown"
                : result.toolName();
        call = new ToolCall(id, name, Map.of());
      }
      boolean error = Boolean.TRUE.equals(result.isError());
      out.add(
          ChatMessage.toolResult(
              call, new ToolResult(error, resultText(result)), MessageOrigin.SYNTHETIC));
    }
    return out;
  }

  /** The text of a user message: its text contents, joined by blank lines. */
  static String userText(UserMessage user) {
    if (user.hasSingleText()) {
      return user.singleText();
    }
    return joinText(user.contents());
  }

  private static String resultText(ToolExecutionResultMessage result) {
    if (result.hasSingleText()) {
      return result.text();
    }
    return joinText(result.contents());
  }

  private static String joinText(List<Content> contents) {
    StringBuilder text = new StringBuilder();
    for (Content content : contents) {
      if (content instanceof TextContent t) {
        if (text.length() > 0) {
          text.append("\n\n");
        }
        text.append(t.text());
      }
    }
    return text.toString();
  }

  private static MessageOrigin originOf(Map<String, Object> attributes, MessageOrigin otherwise) {
    Object marked = attributes == null ? null : attributes.get(ORIGIN_ATTRIBUTE);
    return MessageOrigin.SYNTHETIC.name().equals(marked) ? MessageOrigin.SYNTHETIC : otherwise;
  }

  private static String newId() {
    return "msg_" + UUID.randomUUID();
  }
}
