package dev.memhook.springai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.chat.MessageOrigin;
import dev.memhook.api.chat.ToolCall;
import dev.memhook.api.chat.ToolResult;
import dev.memhook.testkit.ModelReply;
import dev.memhook.testkit.ModelRequest;
import dev.memhook.testkit.ModelScript;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import reactor.core.publisher.Flux;

/**
 * A Spring AI {@link ChatModel} answering from a testkit {@link ModelScript}: each prompt is
 * translated into a {@link ModelRequest} (user messages as USER, assistant text as MODEL, tool
 * calls and results as SYNTHETIC, tool names from the {@link ToolCallingChatOptions}), and each
 * {@link ModelReply} back into a {@link ChatResponse} whose reasoning is in the message metadata
 * under {@code reasoningContent}, as Spring AI's OpenAI-style providers put it. Tool calls are
 * returned to Spring AI, whose tool loop executes them. Thread-safe.
 */
final class ScriptedChatModel implements ChatModel {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeReference<Map<String, Object>> ARGS = new TypeReference<>() {};

  private final ModelScript script;

  ScriptedChatModel(ModelScript script) {
    this.script = script;
  }

  @Override
  public ChatOptions getOptions() {
    return ToolCallingChatOptions.builder().build();
  }

  @Override
  public ChatResponse call(Prompt prompt) {
    return toResponse(script.reply(toRequest(prompt)));
  }

  /** Streams the reply's text in two chunks; the first carries the reasoning. */
  @Override
  public Flux<ChatResponse> stream(Prompt prompt) {
    ModelReply reply = script.reply(toRequest(prompt));
    if (!reply.toolCalls().isEmpty()) {
      return Flux.just(toResponse(reply));
    }
    String text = join(reply, ChatRole.ASSISTANT);
    String reasoning = join(reply, ChatRole.REASONING);
    int half = text.length() / 2;
    Map<String, Object> meta = new HashMap<>();
    if (!reasoning.isEmpty()) {
      meta.put("reasoningContent", reasoning);
    }
    return Flux.just(
        response(AssistantMessage.builder().content(text.substring(0, half)).properties(meta)),
        response(AssistantMessage.builder().content(text.substring(half))));
  }

  static ModelRequest toRequest(Prompt prompt) {
    List<ChatMessage> out = new ArrayList<>();
    Map<String, ToolCall> calls = new HashMap<>();
    for (Message m : prompt.getInstructions()) {
      if (m instanceof SystemMessage s) {
        out.add(ChatMessage.system(s.getText()));
      } else if (m instanceof UserMessage u) {
        out.add(ChatMessage.user(u.getText()));
      } else if (m instanceof AssistantMessage a) {
        if (a.getText() != null && !a.getText().isEmpty()) {
          out.add(ChatMessage.assistant(a.getText()));
        }
        for (AssistantMessage.ToolCall c : a.getToolCalls()) {
          ToolCall call = new ToolCall(c.id(), c.name(), parse(c.arguments()));
          calls.put(c.id(), call);
          out.add(ChatMessage.toolCall(call, MessageOrigin.SYNTHETIC));
        }
      } else if (m instanceof ToolResponseMessage r) {
        for (ToolResponseMessage.ToolResponse response : r.getResponses()) {
          ToolCall call =
              calls.getOrDefault(
                  response.id(), new ToolCall(response.id(), response.name(), Map.of()));
          out.add(
              ChatMessage.toolResult(
                  call, ToolResult.success(response.responseData()), MessageOrigin.SYNTHETIC));
        }
      }
    }
    List<String> tools =
        prompt.getOptions() instanceof ToolCallingChatOptions t && t.getToolCallbacks() != null
            ? t.getToolCallbacks().stream().map(c -> c.getToolDefinition().name()).toList()
            : List.of();
    return new ModelRequest(out, tools);
  }

  static ChatResponse toResponse(ModelReply reply) {
    List<AssistantMessage.ToolCall> calls = new ArrayList<>();
    for (ToolCall c : reply.toolCalls()) {
      calls.add(
          new AssistantMessage.ToolCall(
              c.id(), "function", c.toolName(), ToolJson.toJson(c.arguments())));
    }
    Map<String, Object> meta = new HashMap<>();
    String reasoning = join(reply, ChatRole.REASONING);
    if (!reasoning.isEmpty()) {
      meta.put("reasoningContent", reasoning);
    }
    return response(
        AssistantMessage.builder()
            .content(join(reply, ChatRole.ASSISTANT))
            .properties(meta)
            .toolCalls(calls));
  }

  private static ChatResponse response(AssistantMessage.Builder<?> message) {
    return new ChatResponse(List.of(new Generation(message.build())));
  }

  private static String join(ModelReply reply, ChatRole role) {
    StringBuilder b = new StringBuilder();
    for (ChatMessage m : reply.messages()) {
      if (m.role() == role) {
        b.append(m.text());
      }
    }
    return b.toString();
  }

  private static Map<String, Object> parse(String json) {
    try {
      return json == null || json.isBlank() ? Map.of() : JSON.readValue(json, ARGS);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("tool arguments are not JSON: " + json, e);
    }
  }
}
