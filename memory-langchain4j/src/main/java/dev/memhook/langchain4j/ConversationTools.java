package dev.memhook.langchain4j;

import dev.langchain4j.service.tool.ToolProvider;
import dev.langchain4j.service.tool.ToolProviderRequest;
import dev.langchain4j.service.tool.ToolProviderResult;

/**
 * The tool provider AiServices asks for the tools of each call: the registered tools ({@code
 * get_memory}) of the call's conversation, so AiServices executes them like any tool and writes the
 * results into the conversation. A memory id with no conversation held gets no tools. Looking the
 * conversation up is not a use: it neither opens one nor changes which is least recently used.
 *
 * <p>Thread-safe.
 */
final class ConversationTools implements ToolProvider {
  private final AiServicesConversations conversations;

  ConversationTools(AiServicesConversations conversations) {
    this.conversations = conversations;
  }

  @Override
  public ToolProviderResult provideTools(ToolProviderRequest request) {
    Object id = request.chatMemoryId();
    AiServicesConversation c = id == null ? null : conversations.peek(id);
    ToolProviderResult.Builder result = ToolProviderResult.builder();
    if (c != null) {
      result.addAll(c.chat().toolExecutors());
    }
    return result.build();
  }
}
