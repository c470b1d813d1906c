package dev.memhook.langchain4j;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.memory.ChatMemory;
import java.util.ArrayList;
import java.util.List;

/**
 * The default chat memory of a {@link LangChain4jChatService}: every message, in order, none ever
 * evicted. {@link #messages()} returns a copy.
 *
 * <p>Not thread-safe: it is guarded by the lock of the {@link ConversationState} that holds it.
 */
final class ListChatMemory implements ChatMemory {
  private final List<ChatMessage> messages = new ArrayList<>();

  @Override
  public Object id() {
    return "default";
  }

  @Override
  public void add(ChatMessage message) {
    messages.add(message);
  }

  @Override
  public void set(Iterable<ChatMessage> replacement) {
    messages.clear();
    replacement.forEach(messages::add);
  }

  @Override
  public List<ChatMessage> messages() {
    return new ArrayList<>(messages);
  }

  @Override
  public void clear() {
    messages.clear();
  }
}
