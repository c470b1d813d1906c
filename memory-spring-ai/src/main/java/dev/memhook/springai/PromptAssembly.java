package dev.memhook.springai;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.tool.ToolCallback;

/**
 * How the advisor reads and rewrites a Spring AI prompt: which tools are offered, and what a reply
 * (or a streamed chunk) says. Where injected pairs go is the host kit's rule ({@link
 * dev.memhook.api.chat.HostedChat.Placement#AT_ITS_TURN}), applied by {@link
 * ConversationChat.Turn#withPairs}.
 *
 * <p>Stateless; thread-safe.
 */
final class PromptAssembly {

  private static final Logger LOG = LoggerFactory.getLogger(PromptAssembly.class);

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
      String thought = SpringAiMapper.reasoningOf(out);
      if (thought != null) {
        reasoning.append(thought);
      }
      if (out.getText() != null && !SpringAiMapper.isThinking(out)) {
        text.append(out.getText());
      }
    }
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
