package dev.memhook.springai;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.MessageMapper;
import dev.memhook.api.chat.MessageOrigin;
import dev.memhook.api.chat.ToolCall;
import dev.memhook.api.chat.ToolResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;

/**
 * Spring AI's {@link Message}s to and from Memhook's {@link ChatMessage}s: the host kit's {@link
 * MessageMapper} for the advisor's views. A user message gives its text; a system message its text;
 * an assistant message its reasoning (when the provider put it in the metadata, or the whole
 * message is a thinking block), its text, then one tool call per call it makes; a tool response
 * message one result per response. An injected pair is an assistant message with one tool call,
 * marked as injected in its metadata ({@value #INJECTED}), and its tool response.
 *
 * <p>Stateless; thread-safe.
 */
final class SpringAiMapper implements MessageMapper<Message> {

  static final SpringAiMapper INSTANCE = new SpringAiMapper();

  /** The metadata key marking the assistant message of an injected pair. */
  static final String INJECTED = "memhookInjected";

  /** Metadata keys under which Spring AI's providers put a reply's reasoning. */
  private static final List<String> REASONING_KEYS =
      List.of("reasoningContent", "reasoning_content", "reasoning", "thinking");

  private SpringAiMapper() {}

  @Override
  public List<ChatMessage> toChat(Message message, Function<String, ToolCall> callsById) {
    if (message instanceof UserMessage u) {
      return List.of(ChatMessage.user(textOf(u)));
    }
    if (message instanceof SystemMessage s) {
      return List.of(ChatMessage.system(textOf(s)));
    }
    if (message instanceof AssistantMessage a) {
      List<ChatMessage> out = new ArrayList<>(2);
      String reasoning = reasoningOf(a);
      if (reasoning != null) {
        out.add(ChatMessage.reasoning(reasoning));
      }
      if (!isThinking(a) && !textOf(a).isBlank()) {
        out.add(ChatMessage.assistant(textOf(a)));
      }
      MessageOrigin origin =
          Boolean.TRUE.equals(a.getMetadata().get(INJECTED))
              ? MessageOrigin.SYNTHETIC
              : MessageOrigin.MODEL;
      for (AssistantMessage.ToolCall c : a.getToolCalls()) {
        out.add(ChatMessage.toolCall(toolCall(c), origin));
      }
      return out;
    }
    if (message instanceof ToolResponseMessage r) {
      List<ChatMessage> out = new ArrayList<>(r.getResponses().size());
      for (ToolResponseMessage.ToolResponse response : r.getResponses()) {
        String id = orUnknown(response.id(), "call_unknown");
        ToolCall call = callsById.apply(id);
        if (call == null) {
          call = new ToolCall(id, orUnknown(response.name(), "unknown"), Map.of());
        }
        String data = response.responseData() == null ? "" : response.responseData();
        out.add(ChatMessage.toolResult(call, ToolResult.success(data), MessageOrigin.SYNTHETIC));
      }
      return out;
    }
    return List.of();
  }

  @Override
  public Message user(String text) {
    return new UserMessage(text);
  }

  @Override
  public List<Message> injectedPair(ToolCall call, ToolResult result) {
    AssistantMessage assistant =
        AssistantMessage.builder()
            .content("")
            .properties(Map.of(INJECTED, true))
            .toolCalls(List.of(springCall(call)))
            .build();
    return List.of(assistant, toolResult(call, result));
  }

  @Override
  public Message toolResult(ToolCall call, ToolResult result) {
    return ToolResponseMessage.builder()
        .responses(
            List.of(
                new ToolResponseMessage.ToolResponse(call.id(), call.toolName(), result.content())))
        .build();
  }

  @Override
  public boolean isUser(Message message) {
    return message instanceof UserMessage;
  }

  /**
   * The assistant message of the model's call of a registered tool, as Spring AI's tool loop ran
   * it.
   *
   * @throws IllegalArgumentException if the call's arguments are not JSON-serialisable
   */
  static AssistantMessage modelCall(ToolCall call) {
    return AssistantMessage.builder().content("").toolCalls(List.of(springCall(call))).build();
  }

  /** A reply as the advisor read it: its reasoning (null or blank for none) and its text. */
  static AssistantMessage reply(String reasoning, String text) {
    Map<String, Object> metadata =
        reasoning == null || reasoning.isBlank() ? Map.of() : Map.of("reasoningContent", reasoning);
    return AssistantMessage.builder()
        .content(text == null ? "" : text)
        .properties(metadata)
        .build();
  }

  /** The reasoning a provider put in the message's metadata, or null. */
  static String reasoningOf(AssistantMessage message) {
    if (isThinking(message)) {
      return message.getText();
    }
    Map<String, Object> metadata = message.getMetadata();
    for (String key : REASONING_KEYS) {
      if (metadata.get(key) instanceof String s && !s.isBlank()) {
        return s;
      }
    }
    return null;
  }

  /** Whether the whole message is a thinking block (Anthropic's {@code thinking=true}). */
  static boolean isThinking(AssistantMessage message) {
    return Boolean.TRUE.equals(message.getMetadata().get("thinking"));
  }

  private static AssistantMessage.ToolCall springCall(ToolCall call) {
    return new AssistantMessage.ToolCall(
        call.id(), "function", call.toolName(), ToolJson.toJson(call.arguments()));
  }

  private static ToolCall toolCall(AssistantMessage.ToolCall c) {
    Map<String, Object> arguments;
    try {
      arguments = ToolJson.readArguments(c.arguments());
    } catch (JsonProcessingException | RuntimeException e) {
      arguments = Map.of(); // as the model sent it, the call's execution reports it
    }
    return new ToolCall(
        orUnknown(c.id(), "call_unknown"), orUnknown(c.name(), "unknown"), arguments);
  }

  private static String textOf(Message m) {
    return m.getText() == null ? "" : m.getText();
  }

  private static String orUnknown(String value, String unknown) {
    return value == null || value.isBlank() ? unknown : value;
  }

  @Override
  public String toString() {
    return "SpringAiMapper";
  }
}
