package dev.memhook.springai;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.memhook.api.chat.ChatMessage;
import dev.memhook.api.chat.ChatRole;
import dev.memhook.api.chat.MessageOrigin;
import dev.memhook.api.chat.ToolCall;
import dev.memhook.api.chat.ToolResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.tool.ToolCallback;

/**
 * How the advisor reads and rewrites a Spring AI prompt: where injected pairs go, which tools are
 * offered, and where a reply's reasoning is found. Every placement rule of the adapter is here.
 *
 * <p>Stateless; thread-safe.
 */
final class PromptAssembly {

  private static final Logger LOG = LoggerFactory.getLogger(PromptAssembly.class);

  /** Metadata keys under which Spring AI's providers put a reply's reasoning. */
  private static final List<String> REASONING_KEYS =
      List.of("reasoningContent", "reasoning_content", "reasoning", "thinking");

  /**
   * The prompt's messages with every injected pair put back at its place: the pairs of the current
   * turn right before the last user message; older ones right before their turn's user message when
   * the prompt still holds it (matched by text, in order), otherwise after the leading system
   * messages.
   */
  static List<Message> withPairs(List<Message> messages, ConversationChat.Turn turn) {
    List<InjectedPair> pairs = turn.chat().pairs();
    if (pairs.isEmpty()) {
      return messages;
    }
    int current = turn.number();
    int lastUser = -1;
    for (int i = messages.size() - 1; i >= 0; i--) {
      if (messages.get(i) instanceof UserMessage) {
        lastUser = i;
        break;
      }
    }
    int split = lastUser < 0 ? messages.size() : lastUser;
    List<Message> out = new ArrayList<>(messages.subList(0, split));
    int floatAt = 0;
    while (floatAt < out.size() && out.get(floatAt) instanceof SystemMessage) {
      floatAt++;
    }
    int cursor = floatAt;
    List<Message> currentPairs = new ArrayList<>();
    for (InjectedPair p : pairs) {
      List<Message> two = p.springMessages();
      if (p.turn() == current) {
        currentPairs.addAll(two);
        continue;
      }
      int at = p.anchor() == null ? -1 : indexOfUser(out, p.anchor(), cursor);
      if (at < 0) {
        out.addAll(floatAt, two);
        floatAt += 2;
        cursor += 2;
      } else {
        out.addAll(at, two);
        cursor = at + 2;
      }
    }
    out.addAll(currentPairs);
    out.addAll(messages.subList(split, messages.size()));
    return out;
  }

  /**
   * The Memhook messages a prompt carries, in its order, as the view reports a submission: a tool
   * call or result the view holds under the same call id (an injected pair) is the view's message;
   * the last user message, when it is the current turn's, is the view's ({@code turnUser});
   * anything else is translated afresh, with new ids. An assistant message gives its reasoning or
   * text, then one tool call per call it makes; a tool response message one result per response.
   *
   * @param view the view's messages
   * @param turnUser the current turn's user message in the view, or null
   */
  static List<ChatMessage> carried(
      List<Message> prompt, List<ChatMessage> view, ChatMessage turnUser) {
    Map<String, ChatMessage> calls = new HashMap<>();
    Map<String, ChatMessage> results = new HashMap<>();
    for (ChatMessage m : view) {
      if (m.role() == ChatRole.TOOL_CALL) {
        calls.putIfAbsent(m.toolCall().id(), m);
      } else if (m.role() == ChatRole.TOOL_RESULT) {
        results.putIfAbsent(m.toolCall().id(), m);
      }
    }
    int lastUser = -1;
    for (int i = 0; i < prompt.size(); i++) {
      if (prompt.get(i) instanceof UserMessage) {
        lastUser = i;
      }
    }
    List<ChatMessage> out = new ArrayList<>(prompt.size() + 2);
    Map<String, ToolCall> callsSoFar = new HashMap<>();
    for (int i = 0; i < prompt.size(); i++) {
      Message m = prompt.get(i);
      if (m instanceof UserMessage u) {
        String text = textOf(u);
        boolean current = i == lastUser && turnUser != null && turnUser.text().equals(text);
        out.add(current ? turnUser : ChatMessage.user(text));
      } else if (m instanceof SystemMessage system) {
        out.add(ChatMessage.system(textOf(system)));
      } else if (m instanceof AssistantMessage a) {
        String reasoning = reasoningOf(a);
        if (reasoning != null) {
          out.add(ChatMessage.reasoning(reasoning));
        }
        if (!isThinking(a) && !textOf(a).isBlank()) {
          out.add(ChatMessage.assistant(textOf(a)));
        }
        for (AssistantMessage.ToolCall c : a.getToolCalls()) {
          ChatMessage known = calls.get(c.id());
          ChatMessage call =
              known != null ? known : ChatMessage.toolCall(toolCall(c), MessageOrigin.MODEL);
          callsSoFar.put(call.toolCall().id(), call.toolCall());
          out.add(call);
        }
      } else if (m instanceof ToolResponseMessage r) {
        for (ToolResponseMessage.ToolResponse response : r.getResponses()) {
          ChatMessage known = results.get(response.id());
          out.add(known != null ? known : toolResult(response, callsSoFar));
        }
      }
    }
    return out;
  }

  private static String textOf(Message m) {
    return m.getText() == null ? "" : m.getText();
  }

  private static ToolCall toolCall(AssistantMessage.ToolCall c) {
    Map<String, Object> arguments;
    try {
      arguments = ToolJson.readArguments(c.arguments());
    } catch (JsonProcessingException e) {
      arguments = Map.of(); // as the model sent it, the call's execution reports it
    }
    return new ToolCall(
        orUnknown(c.id(), "call_unknown"), orUnknown(c.name(), "unknown"), arguments);
  }

  private static ChatMessage toolResult(
      ToolResponseMessage.ToolResponse response, Map<String, ToolCall> callsSoFar) {
    String id = orUnknown(response.id(), "call_unknown");
    ToolCall call = callsSoFar.get(id);
    if (call == null) {
      call = new ToolCall(id, orUnknown(response.name(), "unknown"), Map.of());
    }
    String data = response.responseData() == null ? "" : response.responseData();
    return ChatMessage.toolResult(call, ToolResult.success(data), MessageOrigin.SYNTHETIC);
  }

  private static String orUnknown(String value, String unknown) {
    return value == null || value.isBlank() ? unknown : value;
  }

  private static int indexOfUser(List<Message> messages, String text, int from) {
    for (int i = Math.max(0, from); i < messages.size(); i++) {
      if (messages.get(i) instanceof UserMessage u && text.equals(u.getText())) {
        return i;
      }
    }
    return -1;
  }

  /**
   * Whether a prompt with these options can offer the model tools: only {@link
   * ToolCallingChatOptions} carry tool callbacks to Spring AI's tool loop.
   */
  static boolean takesTools(ChatOptions options) {
    return options instanceof ToolCallingChatOptions;
  }

  /**
   * The options with the view's tools added; tools the host already offers keep their own. Options
   * that do not {@linkplain #takesTools take tools} are returned as they are.
   */
  static ChatOptions withTools(ChatOptions options, ConversationChat chat) {
    List<ToolCallback> ours = chat.toolCallbacks();
    if (ours.isEmpty()) {
      return options;
    }
    if (!(options instanceof ToolCallingChatOptions tools)) {
      LOG.debug(
          "Memhook: the model's options do not take tools; get_memory is not offered in {}",
          chat.conversationId());
      return options;
    }
    Map<String, ToolCallback> merged = new LinkedHashMap<>();
    List<ToolCallback> hosts = tools.getToolCallbacks();
    for (ToolCallback t : hosts == null ? List.<ToolCallback>of() : hosts) {
      merged.put(t.getToolDefinition().name(), t);
    }
    Set<String> hostNames = new HashSet<>(merged.keySet());
    for (ToolCallback t : ours) {
      String name = t.getToolDefinition().name();
      if (hostNames.contains(name)) {
        LOG.warn(
            "Memhook: the host already offers a tool named {}; Memhook's is not offered", name);
      } else {
        merged.put(name, t);
      }
    }
    return tools.mutate().toolCallbacks(List.copyOf(merged.values())).build();
  }

  /**
   * Appends a reply's (or a streamed chunk's) answer text to {@code text} and its reasoning to
   * {@code reasoning}; a null response adds nothing.
   */
  static void readReply(ChatResponse response, StringBuilder text, StringBuilder reasoning) {
    if (response == null) {
      return;
    }
    for (Generation g : response.getResults()) {
      AssistantMessage out = g.getOutput();
      String thought = reasoningOf(out);
      if (thought != null) {
        reasoning.append(thought);
      }
      if (out.getText() != null && !isThinking(out)) {
        text.append(out.getText());
      }
    }
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
  private static boolean isThinking(AssistantMessage message) {
    return Boolean.TRUE.equals(message.getMetadata().get("thinking"));
  }

  static UserMessage lastUserMessage(Prompt prompt) {
    List<Message> messages = prompt.getInstructions();
    for (int i = messages.size() - 1; i >= 0; i--) {
      if (messages.get(i) instanceof UserMessage u) {
        return u;
      }
    }
    return null;
  }

  private PromptAssembly() {}
}
