package dev.memhook.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.chat.MessageOrigin;
import dev.memhook.api.chat.ToolCall;
import dev.memhook.testkit.ModelReply;
import dev.memhook.testkit.ModelRequest;
import dev.memhook.testkit.ModelScript;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A LangChain4j {@link ChatModel} answering from a test kit {@link ModelScript}: each {@link
 * ChatRequest} is translated into a {@link ModelRequest} (messages back to Memhook messages, tool
 * names from the request's tool specifications) and each {@link ModelReply} into an {@link
 * AiMessage} (reasoning as {@code thinking}, assistant text as text, tool calls as tool execution
 * requests with the same ids). It also keeps the raw requests, for tests that check LangChain4j
 * message types and order. Thread-safe.
 */
final class ScriptedChatModel implements ChatModel {

  private final ModelScript script;
  private final List<ChatRequest> raw = new ArrayList<>();

  ScriptedChatModel(ModelScript script) {
    this.script = script;
  }

  /** Every request received, as LangChain4j sent it. */
  List<ChatRequest> rawRequests() {
    synchronized (raw) {
      return List.copyOf(raw);
    }
  }

  @Override
  public ChatResponse doChat(ChatRequest request) {
    synchronized (raw) {
      raw.add(request);
    }
    ModelReply reply = script.reply(toModelRequest(request));
    return ChatResponse.builder().aiMessage(toAiMessage(reply)).build();
  }

  static ModelRequest toModelRequest(ChatRequest request) {
    Map<String, ToolCall> calls = new HashMap<>();
    List<ChatMessage> messages = new ArrayList<>();
    for (dev.langchain4j.data.message.ChatMessage m : request.messages()) {
      for (ChatMessage converted : MessageMapping.toMemhook(m, MessageOrigin.MODEL, calls::get)) {
        if (converted.role() == ChatRole.TOOL_CALL) {
          calls.put(converted.toolCall().id(), converted.toolCall());
        }
        messages.add(converted);
      }
    }
    List<String> toolNames = new ArrayList<>();
    List<ToolSpecification> specifications = request.toolSpecifications();
    if (specifications != null) {
      for (ToolSpecification s : specifications) {
        toolNames.add(s.name());
      }
    }
    return new ModelRequest(messages, toolNames);
  }

  static AiMessage toAiMessage(ModelReply reply) {
    StringBuilder thinking = new StringBuilder();
    StringBuilder text = new StringBuilder();
    List<ToolExecutionRequest> requests = new ArrayList<>();
    for (ChatMessage m : reply.messages()) {
      switch (m.role()) {
        case REASONING -> append(thinking, m.text());
        case ASSISTANT -> append(text, m.text());
        case TOOL_CALL -> requests.add(MessageMapping.request(m.toolCall()));
        default -> throw new IllegalArgumentException("a model cannot reply with " + m);
      }
    }
    AiMessage.Builder builder = AiMessage.builder();
    if (thinking.length() > 0) {
      builder.thinking(thinking.toString());
    }
    if (text.length() > 0) {
      builder.text(text.toString());
    }
    if (!requests.isEmpty()) {
      builder.toolExecutionRequests(requests);
    }
    return builder.build();
  }

  private static void append(StringBuilder to, String text) {
    if (to.length() > 0) {
      to.append('\n');
    }
    to.append(text);
  }
}
